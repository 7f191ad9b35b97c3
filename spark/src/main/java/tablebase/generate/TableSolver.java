package tablebase.generate;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Material;
import tablebase.chess.MoveGenerator;
import tablebase.chess.PositionIndex;
import tablebase.probe.IndexedTable;
import tablebase.table.ResultBlock;
import tablebase.table.SolvedTable;
import tablebase.table.TableFigures;

/**
 * The engine: retrograde analysis of one table on Spark, given the smaller tables its captures and promotions lead to.
 * The table is an RDD of {@link TableSlice}s, one per partition, each a range of whole king pairs of the
 * {@link PositionIndex}, one byte of result and one of moves left per position and side to move, made anew each ply.
 * Each ply is a join of the frontier's un-moves with the solved set: the un-moves of the pieces other than the
 * kings keep the king pair and stay in their partition; the kings' un-moves are shuffled, as batches of
 * {@code long} keys, to the partition that owns their king pair. Odd plies find wins, even plies losses; it
 * stops when a ply decides nothing and no capture result lies ahead. What is left is a draw.
 */
public final class TableSolver {
    /** The most pieces a table may have (a 6-piece table is up to 7.75 billion indexes: long offsets throughout). */
    public static final int MAX_PIECES = 6;
    /**
     * The most entries (index and side) a slice holds: its arrays stay far within int range, and each ply's copy of
     * them is a few hundred MB that the GC can place, whatever partition count the run asks for.
     */
    static final long MAX_SLICE_ENTRIES = 1L << 28;
    /**
     * The most entries of a table solved in one task, on a slice that is never copied: every 5-piece table (KRPKR's
     * 710 million the largest), about 6 bytes of heap an index while it solves.
     */
    static final long MAX_ONE_TASK_ENTRIES = 1L << 30;
    private final JavaSparkContext jsc;
    private final int partitions;
    private final SolveProgress progress;
    private final long entriesPerPartition;
    private final boolean sampleLiveHeap;

    /**
     * A table gets at most {@code partitions} partitions and at least {@code entriesPerPartition} entries in each:
     * a table small enough for one partition is solved in one task, every ply without a shuffle, since a Spark
     * stage per ply would cost more than the ply's work.
     */
    public TableSolver(JavaSparkContext jsc, int partitions, long entriesPerPartition, SolveProgress progress) {
        this.jsc = jsc;
        this.partitions = partitions;
        if (entriesPerPartition < 1) throw new IllegalArgumentException("entries per partition must be positive, not " + entriesPerPartition);
        this.entriesPerPartition = entriesPerPartition;
        this.progress = progress;
        this.sampleLiveHeap = Boolean.parseBoolean(setting(jsc, SAMPLE_LIVE_HEAP, "false"));
    }

    /**
     * A {@code spark.tablebase.*} property of the run: the active session's value (which starts as the Spark
     * properties and may be set on a running session, as a notebook or a test does), else the Spark property.
     */
    public static String setting(JavaSparkContext jsc, String key, String otherwise) {
        scala.Option<SparkSession> session = SparkSession.getActiveSession();
        if (session.isEmpty()) session = SparkSession.getDefaultSession();
        return session.isDefined() ? session.get().conf().get(key, jsc.getConf().get(key, otherwise)) : jsc.getConf().get(key, otherwise);
    }

    /**
     * The Spark property that makes a table's solving sample its live heap with a full collection after init, every
     * tenth ply and at the hand-off (a benchmark's measure: each costs a full GC).
     */
    public static final String SAMPLE_LIVE_HEAP = "spark.tablebase.sampleLiveHeap";

    /**
     * The Spark property for the plies a result byte holds (default and most {@link SolvedTable#MAX_PLY}): later plies
     * are kept in lists beside the bytes, while solving ({@link TableSlice}) and in the files ({@link
     * tablebase.probe.LatePlies}). A test lowers it to make long tables that way.
     */
    public static final String BYTE_PLIES = "spark.tablebase.bytePlies";

    /** The Spark property for the fewest entries a partition of a table gets. */
    public static final String ENTRIES_PER_PARTITION_SETTING = "spark.tablebase.entriesPerPartition";

    /** The default fewest entries (index and side) in a partition: a table of up to 2^24 is solved in one task. */
    public static final long ENTRIES_PER_PARTITION = 1L << 24;

    public TableSolver(JavaSparkContext jsc, int partitions, SolveProgress progress) {
        this(jsc, partitions, ENTRIES_PER_PARTITION, progress);
    }

    /** Why the engine cannot make this material, or null when it can. */
    public static String unsupportedReason(Material material) {
        if (material.size() < 3) return material.name() + " is two bare kings, a draw: there is nothing to generate";
        if (material.size() > MAX_PIECES)
            return material.name() + " has " + material.size() + " pieces; the engine makes endgames of up to " + MAX_PIECES;
        return null;
    }

    /**
     * The partitions a table is solved in: at most {@code asked}, and at least {@code entriesPerPartition} entries in
     * each, but never more than {@link #MAX_SLICE_ENTRIES} in one (then more partitions than asked); at most one per
     * king pair.
     */
    static int partitions(PositionIndex index, int asked, long entriesPerPartition) {
        long entries = 2 * index.size();
        long fewest = (entries + MAX_SLICE_ENTRIES - 1) / MAX_SLICE_ENTRIES;
        long most = Math.max(1, Math.min(asked, entries / entriesPerPartition));
        return (int) Math.min(index.kingPairs(), Math.max(fewest, most));
    }

    /** The partitions this solver solves {@code material} in: one is a single task, every ply without a Spark stage. */
    public int partitions(Material material) { return partitions(new PositionIndex(material), partitions, entriesPerPartition); }

    /** Whether {@code material} may be solved in one task ({@link #solve(Material, SmallerTables, String, boolean)}): up to 5 pieces. */
    public static boolean fitsOneTask(Material material) { return 2 * new PositionIndex(material).size() <= MAX_ONE_TASK_ENTRIES; }

    /** Un-move batches go to the partition their key names. */
    static final class ToPartition extends Partitioner {
        private final int parts;

        ToPartition(int parts) { this.parts = parts; }

        @Override public int numPartitions() { return parts; }

        @Override public int getPartition(Object key) { return (Integer) key; }

        @Override public boolean equals(Object o) { return o instanceof ToPartition t && t.parts == parts; }

        @Override public int hashCode() { return parts; }
    }

    /** Solves {@code material}; {@code smaller} opens every table one capture away (bare kings excepted). */
    public SolvedTable solve(Material material, SmallerTables smaller) throws IOException {
        return solve(material, smaller, null);
    }

    /**
     * The Spark property that fails the first attempt of every task of one ply (its number), after the slice's own
     * un-moves and before it reads the kings' un-moves of the shuffle: fault injection, for the tests that show a
     * retried ply makes the same table.
     */
    public static final String FAIL_ONCE_AT_PLY = "spark.tablebase.failOnceAtPly";

    /**
     * Solves {@code material}, saving each ply's slices under {@code workDir} (any Hadoop filesystem path, or null
     * for none) and continuing from the last ply saved there. A table solved in one task saves nothing: it takes
     * seconds. The caller deletes the table's work folder ({@link WorkFolder#deleteTable}) once its outputs are written,
     * and releases the table's blocks ({@link SolvedTable#release}).
     *
     * <p>Each ply's slices are new objects (see {@link TableSlice}), kept by the executors and checkpointed there, so
     * that the lineage stays one ply long and the ply before's shuffle files can go. A lost executor loses its
     * slices: the run goes back to the last ply saved in the work folder, or stops with that message.
     */
    public SolvedTable solve(Material material, SmallerTables subs, String workDir) throws IOException {
        return solve(material, subs, workDir, false);
    }

    /**
     * {@link #solve(Material, SmallerTables, String)}, in one task when {@code oneTask} (a table that {@link
     * #fitsOneTask}): a run with other tables to solve beside it keeps every core busy that way, without a Spark
     * stage a ply (KRNKR: 68 s in one task against 59 s over 2 partitions, the cores two thirds busy).
     */
    public SolvedTable solve(Material material, SmallerTables subs, String workDir, boolean oneTask) throws IOException {
        if (oneTask && !fitsOneTask(material)) throw new IllegalArgumentException(material.name() + " does not fit one task");
        long start = System.nanoTime();
        LiveHeap heap = new LiveHeap(sampleLiveHeap);
        PositionIndex index = new PositionIndex(material);
        MoveGenerator gen = new MoveGenerator(material);
        int partitions = oneTask ? 1 : partitions(index, this.partitions, entriesPerPartition);
        long[] starts = IndexedTable.kingPairStarts(index, partitions);
        int[] partitionOfKingPair = new int[index.kingPairs()];
        for (int p = 0; p < partitions; p++)
            for (long kp = starts[p] / index.restSize(); kp < starts[p + 1] / index.restSize(); kp++) partitionOfKingPair[(int) kp] = p;
        List<Integer> ids = IntStream.range(0, partitions).boxed().toList();
        WorkFolder work = workDir == null || partitions == 1 ? null : WorkFolder.open(WorkFolder.ofTable(workDir, material), material, partitions, jsc.hadoopConfiguration());
        int resumeAt = work == null ? -1 : work.lastLevel();
        if (workDir != null && partitions == 1)
            progress.note(String.format("%s: solved in one task, so --work saves none of its plies (a stopped run solves it again)",
                    material.name()));
        ExecutorHeaps executorHeaps = new ExecutorHeaps(jsc);
        int bytePlies = Integer.parseInt(setting(jsc, BYTE_PLIES, Integer.toString(SolvedTable.MAX_PLY)));
        if (bytePlies < 1 || bytePlies > SolvedTable.MAX_PLY)
            throw new IllegalArgumentException(BYTE_PLIES + " is " + bytePlies + "; a result byte holds 1 to " + SolvedTable.MAX_PLY + " plies");
        try (FailFast failFast = new FailFast(jsc.sc())) {
            JavaRDD<ResultBlock> blocks;
            long decided = 0;
            if (partitions == 1) {
                label(material.name() + ": init and every ply in one task");
                blocks = checkpointed(jsc.parallelize(ids, 1).map(p -> executorHeaps.after(TableSlice.solveAlone(index, gen, subs, starts[p], starts[p + 1], bytePlies))));
                stopping(failFast, blocks::count);
            } else {
                label(material.name() + ": " + (resumeAt >= 0 ? "ply " + resumeAt + " read back" : "init"));
                JavaRDD<TableSlice> slices = checkpointed(resumeAt >= 0 ? work.load(jsc, WorkFolder.TABLE_SLICES, resumeAt)
                        : jsc.parallelize(ids, partitions).map(p -> executorHeaps.after(TableSlice.init(index, gen, subs, starts[p], starts[p + 1], bytePlies))));
                if (resumeAt >= 0) progress.note(String.format("%s: resuming from ply %d saved in %s", material.name(), resumeAt, work.location()));
                long frontier = stopping(failFast, () -> frontier(slices));
                decided = resumeAt >= 0 ? slices.map(TableSlice::decided).reduce(Long::sum) : frontier;
                int lastEvent = slices.map(TableSlice::lastEventPly).reduce(Math::max);
                heap.sample();
                if (resumeAt < 0)
                    progress.note(String.format("%s: %,d entries, moves, captures and promotions (%d other tables) in %.1f s; ply  0: %,d checkmates",
                            material.name(), 2 * index.size(), subs.count(), (System.nanoTime() - start) / 1e9, frontier));
                JavaRDD<TableSlice> solved = solvePlies(material, index, gen, slices, partitions, partitionOfKingPair, frontier, decided, lastEvent, work,
                        resumeAt + 1, heap, failFast, executorHeaps);
                heap.sample();
                blocks = checkpointed(solved.map(TableSlice::block));
                stopping(failFast, blocks::count);
                solved.unpersist(false);
            }
            heap.sample();
            label(material.name() + ": figures of the results");
            TableFigures figures = stopping(failFast, () -> blocks.map(b -> TableFigures.of(index, b.lo(), b.results(), b.late())).reduce(TableFigures::plus));
            if (partitions == 1) {
                long checkmates = figures.entries()[0][1] + figures.entries()[1][1];
                progress.note(String.format("%s: %,d entries, moves, captures and promotions (%d other tables), then every ply, in one task in %.1f s;"
                        + " ply  0: %,d checkmates", material.name(), 2 * index.size(), subs.count(), (System.nanoTime() - start) / 1e9, checkmates));
                decided = checkmates;
                for (int q = 1; q <= figures.maxPly(); q++) {
                    long found = figures.entries()[0][q + 1] + figures.entries()[1][q + 1];
                    decided += found;
                    progress.ply(material, q, decided, 2 * index.size(), false,
                            String.format("%s: ply %2d: %,d %s  (one task)", material.name(), q, found, q % 2 == 1 ? "wins" : "losses"));
                }
            }
            heap.sample();
            double seconds = (System.nanoTime() - start) / 1e9;
            long positions = figures.canonicalPositions();
            long peak = heap.peak(), sampled = heap.sampled();
            progress.note(String.format("%s: solved %,d positions in %.2f s, %,.0f positions a second; %s%s%s",
                    material.name(), positions, seconds, positions / seconds, heapFigures(peak, index.size()),
                    sampleLiveHeap ? String.format("; live heap by full GCs %,d MB, %.1f bytes per index entry", sampled >> 20, (double) sampled / index.size()) : "",
                    executorHeaps.describe()));
            return new SolvedTable(material, blocks, figures, seconds);
        } finally {
            heap.close();
            jsc.clearCallSite();
            jsc.setJobDescription(null);
        }
    }

    /** Indexes below which the heap is mostly Spark's and the JVM's own, not the table's: no figure per index. */
    static final long HEAP_PER_INDEX_FROM = 1L << 22;

    /**
     * The solve line's heap: the peak after any collection, and per index when the table is large enough for that
     * to say something of it; none when no collection ran while it solved.
     */
    static String heapFigures(long peak, long indexes) {
        if (peak == 0) return "no garbage collection while it solved";
        String mb = String.format("peak live heap (after GC) %,d MB", peak >> 20);
        return indexes < HEAP_PER_INDEX_FROM ? mb : mb + String.format(", %.1f bytes per index entry", (double) peak / indexes);
    }

    /** Names the jobs and stages that follow in Spark's UI and logs: which table, which ply. */
    private void label(String what) {
        jsc.setJobDescription(what);
        jsc.setCallSite(what);
    }

    /**
     * Keeps an RDD's partitions on the executors that make them (memory, else their disk) and cuts its lineage there
     * once the next job has made them: no ply is ever made again from the ones before it.
     */
    static <T> JavaRDD<T> checkpointed(JavaRDD<T> rdd) {
        rdd.rdd().localCheckpoint();
        return rdd;
    }

    /** What a Spark action computes, or the reason {@link FailFast} stopped it. */
    private interface Action<T> {
        T run() throws Exception;
    }

    private static <T> T stopping(FailFast failFast, Action<T> action) throws IOException {
        try {
            return action.run();
        } catch (Exception e) {
            if (failFast.cause() != null) throw new IOException(failFast.cause(), e);
            if (e instanceof IOException io) throw io;
            if (e instanceof RuntimeException r) throw r;
            throw new IOException(e); // SparkException, checked, comes through Scala undeclared
        }
    }

    /** The plies over the partitions, each a Spark stage that shuffles the kings' un-moves; returns the last slices, kept. */
    private JavaRDD<TableSlice> solvePlies(Material material, PositionIndex index, MoveGenerator gen, JavaRDD<TableSlice> slices, int partitions,
                                           int[] partitionOfKingPair, long frontier, long decided, int lastEvent, WorkFolder work, int firstPly, LiveHeap heap,
                                           FailFast failFast, ExecutorHeaps executorHeaps) throws IOException {
        ShuffleMeter meter = new ShuffleMeter(jsc.sc());
        int failOnceAt = Integer.parseInt(setting(jsc, FAIL_ONCE_AT_PLY, "-1"));
        SaveClock saving = new SaveClock(System.nanoTime());
        try {
            int failures = 0;
            for (int q = Math.max(firstPly, 1); frontier > 0 || q <= lastEvent; q++) {
                long plyStart = System.nanoTime();
                ShuffleMeter.Reading before = meter.read();
                int ply = q;
                boolean failOnce = q == failOnceAt;
                label(String.format("%s: ply %d", material.name(), q));
                JavaRDD<TableSlice> next = checkpointed(slices.zipPartitions(
                        slices.mapPartitionsToPair(own -> own.next().kingUnmoves(ply - 1, index, gen, partitionOfKingPair))
                                .partitionBy(new ToPartition(partitions)).values(),
                        (own, kingKeys) -> List.of(executorHeaps.after(own.next().next(ply, index, gen, failOnce ? failingFirstAttempt(kingKeys) : kingKeys))).iterator()));
                try {
                    frontier = frontier(next);
                    if (work != null && saving.due(System.nanoTime())) {
                        long saveStart = System.nanoTime();
                        work.save(next, WorkFolder.TABLE_SLICES, q);
                        work.finish(q, Map.of("endgame", material.name(), "ply", q));
                        saving.saved(saveStart, System.nanoTime());
                    }
                    failures = 0;
                } catch (Exception e) { // SparkException, checked, comes through Scala undeclared
                    if (failFast.cause() != null) throw new IOException(failFast.cause(), e);
                    // an executor lost with the slices it kept: go back to the last ply saved
                    int saved = work == null ? -1 : work.lastLevel();
                    if (saved < 0) throw new IOException(material.name() + ": ply " + q + " failed (" + firstLine(e) + ")"
                            + (work == null ? "; give --work DIR to continue from the last ply saved instead" : ""), e);
                    if (++failures > 3) throw e;
                    progress.note(String.format("%s: ply %d failed (%s); continuing from ply %d saved in %s", material.name(), q,
                            firstLine(e), saved, work.location()));
                    next.unpersist(false);
                    slices.unpersist(false);
                    label(String.format("%s: ply %d read back", material.name(), saved));
                    slices = checkpointed(work.load(jsc, WorkFolder.TABLE_SLICES, saved));
                    frontier = frontier(slices);
                    decided = slices.map(TableSlice::decided).reduce(Long::sum);
                    q = saved;
                    continue;
                }
                slices.unpersist(false);
                slices = next;
                if (q % 10 == 0) heap.sample();
                ShuffleMeter.Reading moved = meter.read().minus(before);
                decided += frontier;
                progress.ply(material, q, decided, 2 * index.size(), true, String.format("%s: ply %2d: %,d %s  (%.2f s, shuffled %,d bytes)", material.name(), q,
                        frontier, q % 2 == 1 ? "wins" : "losses", (System.nanoTime() - plyStart) / 1e9, moved.bytes()));
            }
            return slices;
        } finally {
            meter.close();
        }
    }

    /**
     * When a ply's slices are saved to the work folder: the first ply, then any ply once the solving since the last
     * save took at least {@link #SOLVE_PER_SAVE} times what that save took. A table whose saves are quick (up to 5
     * pieces: tens of MB) saves every ply; a 6-piece table's (gigabytes) every few minutes, so that saving costs at
     * most a tenth of the run and a crash costs at most ten saves' time of plies.
     */
    static final class SaveClock {
        static final double SOLVE_PER_SAVE = 10;
        private long lastEnd, lastTook;
        private boolean first = true;

        SaveClock(long now) { lastEnd = now; }

        boolean due(long now) { return first || now - lastEnd >= SOLVE_PER_SAVE * lastTook; }

        void saved(long start, long end) {
            first = false;
            lastTook = end - start;
            lastEnd = end;
        }
    }

    private static String firstLine(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
    }

    /** The kings' un-moves of a task that fails as it starts to read them, on its first attempt only. */
    private static Iterator<long[]> failingFirstAttempt(Iterator<long[]> kingKeys) {
        return new Iterator<>() {
            @Override public boolean hasNext() {
                TaskContext task = TaskContext.get();
                if (task.attemptNumber() == 0 && task.stageAttemptNumber() == 0)
                    throw new IllegalStateException("injected failure (" + FAIL_ONCE_AT_PLY + ") in partition " + task.partitionId());
                return kingKeys.hasNext();
            }

            @Override public long[] next() { return kingKeys.next(); }
        };
    }

    private static long frontier(JavaRDD<TableSlice> slices) {
        return slices.map(s -> (long) s.frontierSize).reduce(Long::sum);
    }

    /**
     * The peak heap after GC of each executor, since it started, as its tasks report it: on a cluster, what the
     * executors hold (the driver's own is {@link LiveHeap}); in local mode the executor is the driver.
     */
    static final class ExecutorHeaps implements java.io.Serializable {
        private final org.apache.spark.util.CollectionAccumulator<scala.Tuple2<String, Long>> reports;

        ExecutorHeaps(JavaSparkContext jsc) { reports = jsc.sc().collectionAccumulator("executors' peak heap"); }

        /** Reports this executor's peak, at the end of a task's kernel; returns what the kernel made. */
        <T> T after(T made) {
            reports.add(new scala.Tuple2<>(org.apache.spark.SparkEnv.get().executorId(), JvmHeap.WATCH.peak()));
            return made;
        }

        /** "; executors' peak live heap (after GC): 0 1,234 MB, 1 1,100 MB", or nothing in local mode. */
        String describe() {
            java.util.TreeMap<String, Long> peaks = new java.util.TreeMap<>();
            for (scala.Tuple2<String, Long> r : reports.value()) peaks.merge(r._1(), r._2(), Math::max);
            peaks.remove("driver");
            if (peaks.isEmpty()) return "";
            StringBuilder b = new StringBuilder("; executors' peak live heap (after GC):");
            peaks.forEach((id, bytes) -> b.append(String.format(" %s %,d MB,", id, bytes >> 20)));
            return b.substring(0, b.length() - 1);
        }
    }

    /** The peak heap after GC of this JVM since it started: an executor's, watched from its first task on. */
    static final class JvmHeap {
        static final LiveHeap WATCH = new LiveHeap(false); // never closed: it lives as long as the JVM
    }

    /**
     * The largest heap left after any garbage collection while it listens: the live data at its peak (the driver and,
     * in local mode, its executors), not the garbage a heap's peak use also counts.
     */
    static final class LiveHeap implements NotificationListener, AutoCloseable {
        private final AtomicLong peak = new AtomicLong();
        private final boolean sampling;
        private long sampled;

        LiveHeap(boolean sampling) {
            this.sampling = sampling;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
                if (gc instanceof NotificationEmitter emitter) emitter.addNotificationListener(this, null, null);
        }

        @Override public void handleNotification(Notification notification, Object handback) {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) return;
            GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo();
            long used = info.getMemoryUsageAfterGc().values().stream().mapToLong(MemoryUsage::getUsed).sum();
            peak.accumulateAndGet(used, Math::max);
        }

        long peak() { return peak.get(); }

        /**
         * With sampling on, a full collection and the heap left after it: the live data at this point, none of the
         * garbage that a young collection leaves in the old generation (and so counts in {@link #peak}).
         */
        void sample() {
            if (!sampling) return;
            System.gc();
            sampled = Math.max(sampled, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }

        /** The largest live heap sampled, 0 without sampling. */
        long sampled() { return sampled; }

        @Override public void close() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                try {
                    if (gc instanceof NotificationEmitter emitter) emitter.removeNotificationListener(this);
                } catch (ListenerNotFoundException e) {
                    // not listening there
                }
            }
        }
    }
}
