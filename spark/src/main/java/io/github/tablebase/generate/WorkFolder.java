package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.Json;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SerializableWritable;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A table's solving state on a filesystem every executor and the driver can reach (a local folder on one machine,
 * HDFS, S3, NFS on a cluster): after a ply (every ply when saving is quick, see {@link TableSolver.SaveClock}), one
 * LZ4-compressed file per partition under {@code level-NNNN/}, then {@code level-NNNN/_DONE.json} with the ply's
 * figures. A level without its {@code _DONE.json} is unfinished and ignored.
 *
 * <p>Two failures cost the plies since the last save: a lost executor (the slices are read back from these files)
 * and a lost driver (rerunning the same command continues from the last level finished). {@code job.json}
 * names the endgame and partition count, so a folder is never resumed by another table or split.
 */
public final class WorkFolder implements Serializable {
    private static final String FORMAT = "spark-tablebase work folder 3";
    private final String root;
    private final int partitions;
    /** The run's Hadoop settings, shipped to the executors that save and load the partitions. */
    private final SerializableWritable<Configuration> hadoop;

    private WorkFolder(String root, int partitions, Configuration hadoop) {
        this.root = root;
        this.partitions = partitions;
        this.hadoop = new SerializableWritable<>(hadoop);
    }

    /** Opens (creating when new) the work folder of {@code material} in {@code partitions} partitions. */
    public static WorkFolder open(String dir, Material material, int partitions, Configuration hadoop) throws IOException {
        Path path = new Path(dir);
        FileSystem fs = path.getFileSystem(hadoop);
        path = fs.makeQualified(path);
        Path job = new Path(path, "job.json");
        Map<String, Object> expected = Map.of("format", FORMAT, "endgame", material.name(), "partitions", partitions);
        if (fs.exists(job)) {
            Map<String, Object> found;
            try (var in = fs.open(job)) {
                found = Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            if (!FORMAT.equals(found.get("format")))
                throw new IOException(dir + " holds work saved by another version of this generator (" + found.get("format")
                        + "); remove it, or give another --work");
            if (!expected.equals(found))
                throw new IOException(dir + " holds the work of " + found.get("endgame") + " in " + found.get("partitions")
                        + " partitions; resume it with the same --endgame and --partitions, or give another --work");
        } else {
            fs.mkdirs(path);
            try (OutputStream out = fs.create(job, true)) {
                out.write(Json.text(expected).getBytes(StandardCharsets.UTF_8));
            }
        }
        return new WorkFolder(path.toString(), partitions, hadoop);
    }

    public String location() { return root; }

    /** How a partition's state is written to and read from its file. */
    interface Codec<T> extends Serializable {
        void write(T state, DataOutputStream out) throws IOException;

        T read(DataInputStream in) throws IOException;
    }

    static final Codec<TableSlice> TABLE_SLICES = new Codec<>() {
        @Override public void write(TableSlice s, DataOutputStream out) throws IOException { s.writeTo(out); }

        @Override public TableSlice read(DataInputStream in) throws IOException { return TableSlice.readFrom(in); }
    };

    static final Codec<DtzSlice> DTZ_SLICES = new Codec<>() {
        @Override public void write(DtzSlice s, DataOutputStream out) throws IOException { s.writeTo(out); }

        @Override public DtzSlice read(DataInputStream in) throws IOException { return DtzSlice.readFrom(in); }
    };

    /** The last finished level, or -1; unfinished levels are dropped. */
    int lastLevel() throws IOException {
        FileSystem fs = fs();
        FileStatus[] levels = fs.listStatus(new Path(root), p -> p.getName().startsWith("level-"));
        int last = -1;
        for (FileStatus s : levels)
            if (fs.exists(new Path(s.getPath(), "_DONE.json"))) last = Math.max(last, levelOf(s));
        for (FileStatus s : levels) if (levelOf(s) > last) fs.delete(s.getPath(), true);
        return last;
    }

    /** Writes every partition's state of level {@code level} (an action on {@code blocks}). */
    <T> void save(JavaRDD<T> blocks, Codec<T> codec, int level) {
        String dir = level(level).toString();
        blocks.foreachPartition(it -> {
            TaskContext task = TaskContext.get();
            Path done = new Path(dir, String.format("block-%05d.lz4", task.partitionId()));
            Path aside = new Path(dir, done.getName() + ".attempt-" + task.taskAttemptId());
            FileSystem fs = done.getFileSystem(hadoop.value());
            try (DataOutputStream out = new DataOutputStream(new LZ4BlockOutputStream(fs.create(aside, true)))) {
                codec.write(it.next(), out);
            }
            fs.delete(done, false); // left by an earlier attempt of this task
            if (!fs.rename(aside, done)) throw new IOException("cannot rename " + aside + " to " + done);
        });
    }

    /** Marks level {@code level} finished with the figures so far, and drops the levels before (plies are saved when due, not each one). */
    void finish(int level, Map<String, Object> figures) throws IOException {
        FileSystem fs = fs();
        Path aside = new Path(level(level), "_DONE.json.writing");
        try (OutputStream out = fs.create(aside, true)) {
            out.write(Json.text(figures).getBytes(StandardCharsets.UTF_8));
        }
        if (!fs.rename(aside, new Path(level(level), "_DONE.json"))) throw new IOException("cannot finish level " + level);
        for (FileStatus s : fs.listStatus(new Path(root), p -> p.getName().startsWith("level-")))
            if (levelOf(s) < level) fs.delete(s.getPath(), true);
    }

    /** The states of a finished level, partition i read from file i. */
    <T> JavaRDD<T> load(JavaSparkContext jsc, Codec<T> codec, int level) {
        String dir = level(level).toString();
        List<Integer> ids = IntStream.range(0, partitions).boxed().toList();
        return jsc.parallelize(ids, partitions).map(i -> {
            Path file = new Path(dir, String.format("block-%05d.lz4", i));
            try (DataInputStream in = new DataInputStream(new LZ4BlockInputStream(file.getFileSystem(hadoop.value()).open(file)))) {
                return codec.read(in);
            }
        });
    }

    /** The work folder of one table of a general run: {@code dir/kqkr}. */
    public static String ofTable(String dir, Material material) { return new Path(dir, material.name().toLowerCase()).toString(); }

    /**
     * Removes a general run's work folder of one table once its outputs are written, or with {@code material} null
     * the run's whole folder once every table is; nothing when there is none.
     */
    public static void deleteTable(String dir, Material material, Configuration hadoop) throws IOException {
        Path path = new Path(material == null ? dir : ofTable(dir, material));
        path.getFileSystem(hadoop).delete(path, true);
    }

    private static int levelOf(FileStatus dir) { return Integer.parseInt(dir.getPath().getName().substring("level-".length())); }

    private Path level(int level) { return new Path(root, String.format("level-%04d", level)); }

    private FileSystem fs() throws IOException { return new Path(root).getFileSystem(hadoop.value()); }
}
