package io.github.tablebase.table;

import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Result;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * A run's {@code spark.tablebase.*} settings, read in one place: the active session's values (which start as the
 * Spark properties and may be set on a running session, as a notebook or a test does), else the Spark properties,
 * else the defaults. The engine reads them once per table it solves, the exports once per table they write.
 *
 * @param entriesPerPartition the fewest entries (index and side) a partition of a table gets
 * @param entriesPerFile the most entries a part file holds (a larger table is written as several)
 * @param bytePlies the plies a result byte holds; later ones are listed beside the bytes (a test lowers it)
 * @param markCaptures whether the compressed tables mark the entries their captures and promotions decide, where
 *     that compresses a part smaller (lookups of marked entries search those moves)
 * @param sampleLiveHeap whether the solving samples its live heap with full collections (a benchmark's measure)
 * @param failOnceAtPly the ply whose every task fails on its first attempt (fault injection for the tests), or -1
 * @param sliceStorage how the executors keep a ply's slices: in memory as objects (each ply a copy of the state
 *     bytes beside the ones it reads), or serialized (a task deserializes a copy of its own and plies it in place:
 *     with {@code DISK_ONLY} an executor holds only the slices its tasks are working on)
 * @param smallerTableBytes the largest smaller table (its result plane, 2 bytes an index) that each task maps whole
 *     (copied to the executor's disk first when it is not there); a larger one is read a king pair at a time, at most
 *     this many bytes of it held by a task ({@link KingPairWindows})
 * @param dtz whether each table that one task can solve also gets its DTZ under the 50-move rule, where its smaller
 *     tables have theirs (a first step: off by default)
 */
public record RunSettings(long entriesPerPartition, long entriesPerFile, int bytePlies, boolean markCaptures, boolean sampleLiveHeap,
                          int failOnceAtPly, StorageLevel sliceStorage, long smallerTableBytes, boolean dtz) {
    public static final String ENTRIES_PER_PARTITION = "spark.tablebase.entriesPerPartition";
    public static final String ENTRIES_PER_FILE = "spark.tablebase.entriesPerFile";
    public static final String BYTE_PLIES = "spark.tablebase.bytePlies";
    public static final String MARK_CAPTURES = "spark.tablebase.markCaptures";
    public static final String SAMPLE_LIVE_HEAP = "spark.tablebase.sampleLiveHeap";
    public static final String FAIL_ONCE_AT_PLY = "spark.tablebase.failOnceAtPly";
    public static final String SLICE_STORAGE = "spark.tablebase.sliceStorage";
    public static final String SMALLER_TABLE_BYTES = "spark.tablebase.smallerTableBytes";
    public static final String DTZ = "spark.tablebase.dtz";

    /** The default fewest entries in a partition: a table of up to 2^24 is solved in one task. */
    public static final long DEFAULT_ENTRIES_PER_PARTITION = 1L << 24;

    public RunSettings {
        if (entriesPerPartition < 1) throw new IllegalArgumentException(ENTRIES_PER_PARTITION + " must be positive, not " + entriesPerPartition);
        if (entriesPerFile < 1) throw new IllegalArgumentException(ENTRIES_PER_FILE + " must be positive, not " + entriesPerFile);
        if (bytePlies < 1 || bytePlies > Result.MAX_PLY)
            throw new IllegalArgumentException(BYTE_PLIES + " is " + bytePlies + "; a result byte holds 1 to " + Result.MAX_PLY + " plies");
        if (smallerTableBytes < 1) throw new IllegalArgumentException(SMALLER_TABLE_BYTES + " must be positive, not " + smallerTableBytes);
    }

    /** The settings as the run's session has them now. */
    public static RunSettings of(JavaSparkContext jsc) {
        return new RunSettings(
                Long.parseLong(value(jsc, ENTRIES_PER_PARTITION, Long.toString(DEFAULT_ENTRIES_PER_PARTITION))),
                Long.parseLong(value(jsc, ENTRIES_PER_FILE, Long.toString(IndexedTable.ENTRIES_PER_FILE))),
                Integer.parseInt(value(jsc, BYTE_PLIES, Integer.toString(Result.MAX_PLY))),
                Boolean.parseBoolean(value(jsc, MARK_CAPTURES, "true")),
                Boolean.parseBoolean(value(jsc, SAMPLE_LIVE_HEAP, "false")),
                Integer.parseInt(value(jsc, FAIL_ONCE_AT_PLY, "-1")),
                storageLevel(value(jsc, SLICE_STORAGE, "MEMORY_AND_DISK")),
                bytes(SMALLER_TABLE_BYTES, value(jsc, SMALLER_TABLE_BYTES, "2g")),
                Boolean.parseBoolean(value(jsc, DTZ, "false")));
    }

    /** A storage level by Spark's name for it, refused in one line when Spark has none of that name or it is off the heap. */
    private static StorageLevel storageLevel(String name) {
        try {
            StorageLevel level = StorageLevel.fromString(name);
            if (level.useOffHeap() || !level.isValid()) throw new IllegalArgumentException(name);
            return level;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SLICE_STORAGE + " is " + name + "; give a storage level of Spark's on the heap, such as"
                    + " MEMORY_AND_DISK (the default), MEMORY_AND_DISK_SER or DISK_ONLY");
        }
    }

    /** A size as Spark spells one ({@code 512m}, {@code 2g}, or bytes), refused in one line otherwise. */
    private static long bytes(String key, String value) {
        try {
            return org.apache.spark.network.util.JavaUtils.byteStringAsBytes(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is " + value + "; give a size such as 64m or 2g");
        }
    }

    private static String value(JavaSparkContext jsc, String key, String otherwise) {
        scala.Option<SparkSession> session = SparkSession.getActiveSession();
        if (session.isEmpty()) session = SparkSession.getDefaultSession();
        return session.isDefined() ? session.get().conf().get(key, jsc.getConf().get(key, otherwise)) : jsc.getConf().get(key, otherwise);
    }
}
