package io.github.tablebase.table;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.EntryResults;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;

/**
 * The smaller tables a table's captures and promotions lead to, as each task opens them: their written part files,
 * mapped by the executors (copied to their disk first when the files are not on it), never held by the driver; a
 * table larger than the run's {@link RunSettings#smallerTableBytes} is read a king pair at a time instead ({@link
 * KingPairWindows}), so that no executor needs all of it. The run's Hadoop settings, which name the file system and
 * its credentials, are broadcast once.
 */
public final class SmallerTables implements Serializable {
    private final Material material;
    private final Map<Material, TableFiles> files;
    /** Each smaller table's DTZ file, where it has one. */
    private final Map<Material, DtzFiles> dtz;
    private final Broadcast<SerializableWritable<Configuration>> hadoop;
    private final long mappedBytes;
    /** The bytes of smaller tables read a king pair at a time, by every task of this table (Spark's accumulator: counted once a task succeeds). */
    private final LongAccumulator windowBytes;

    public SmallerTables(JavaSparkContext jsc, Material material, Map<Material, TableFiles> written) {
        this(jsc, material, written, Map.of());
    }

    /** {@code dtz}: the smaller tables' DTZ files, where they have them. */
    public SmallerTables(JavaSparkContext jsc, Material material, Map<Material, TableFiles> written, Map<Material, DtzFiles> dtz) {
        this.material = material;
        this.dtz = new HashMap<>(dtz);
        this.files = new HashMap<>();
        for (Material sub : TablePlan.exits(material)) {
            TableFiles table = written.get(sub);
            if (table == null) throw new IllegalStateException(material.name() + " needs " + sub.name() + " written first");
            files.put(sub, table);
        }
        this.hadoop = jsc.broadcast(new SerializableWritable<>(jsc.hadoopConfiguration()));
        this.mappedBytes = RunSettings.of(jsc).smallerTableBytes();
        this.windowBytes = jsc.sc().longAccumulator(material.name() + ": bytes of smaller tables read a king pair at a time");
    }

    /** The bytes of smaller tables its tasks have read a king pair at a time so far; 0 when every one was mapped. */
    public long windowBytesRead() { return windowBytes.value(); }

    public int count() { return files.size(); }

    /** The run's Hadoop settings, on an executor. */
    public Configuration hadoop() { return hadoop.value().value(); }

    /** Every smaller table for one task: mapped, or read a king pair at a time where larger than the run allows. */
    public Map<Material, EntryResults> open() {
        Map<Material, EntryResults> tables = new HashMap<>();
        try {
            for (Map.Entry<Material, TableFiles> e : files.entrySet()) {
                boolean whole = 2 * new PositionIndex(e.getKey()).size() <= mappedBytes;
                tables.put(e.getKey(), whole ? e.getValue().open(hadoop()) : KingPairWindows.open(e.getValue(), hadoop(), mappedBytes, windowBytes));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a smaller table of " + material.name() + ": " + e.getMessage(), e);
        }
        return tables;
    }

    /** Whether every smaller table has its DTZ file (a table whose captures reach bare kings alone needs none). */
    public boolean haveDtz() { return dtz.keySet().containsAll(files.keySet()); }

    /** The smaller tables' DTZ for one task: mapped whole, or their compressed files where the packed ones are gone. */
    public Map<Material, EntryResults> openDtz() {
        Map<Material, EntryResults> tables = new HashMap<>();
        try {
            for (Material sub : files.keySet()) tables.put(sub, dtz.get(sub).open(hadoop()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the DTZ of a smaller table of " + material.name() + ": " + e.getMessage(), e);
        }
        return tables;
    }

    /** The exits' lookup for one task (it has scratch space of its own). */
    public Successors exits() { return new Successors(material, null, open()); }

    /** Drops the broadcast settings once the table is written. */
    public void release() { hadoop.destroy(false); }
}
