package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolveFigures;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.SolvedTable;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableFigures;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;

/**
 * The engine: retrograde analysis of one table on Spark, given the smaller tables its captures and promotions lead to.
 * The table is an RDD of {@link TableSlice}s, one per partition, each a range of whole king pairs of the
 * {@link PositionIndex}, one state byte per position and side to move (its result, or its moves left), made anew each ply.
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
     * 710 million the largest), about 4 bytes of heap an index while it solves (KRNKN: 3.9 at the peak after GC).
     */
    static final long MAX_ONE_TASK_ENTRIES = 1L << 30;
    private final JavaSparkContext jsc;
    private final int partitions;
    private final SolveProgress progress;
    private final long entriesPerPartition;

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
    }

    public TableSolver(JavaSparkContext jsc, int partitions, SolveProgress progress) {
        this(jsc, partitions, RunSettings.DEFAULT_ENTRIES_PER_PARTITION, progress);
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

    /**
     * A table solved on the calling thread ({@link #solveHere}), with the seconds its init and its plies took, and the
     * thread's processor seconds in each (which other work on the machine disturbs less).
     */
    public record Solved(SolvedPartition results, double initSeconds, double pliesSeconds, double initCpuSeconds, double pliesCpuSeconds,
                         int plies) {}

    /**
     * A whole table solved on the calling thread, outside Spark, by the kernels of a table solved in one task (init,
     * then every ply in place), its captures and promotions read through {@code exits}, its result bytes holding
     * {@code filePlies} plies: what jobs/bench-kernel times.
     */
    public static Solved solveHere(Material material, Successors exits, int filePlies) {
        PositionIndex index = new PositionIndex(material);
        MoveGenerator gen = new MoveGenerator(material);
        if (!fitsOneTask(material)) throw new IllegalArgumentException(material.name() + " does not fit one task");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime(), startCpu = threads.getCurrentThreadCpuTime();
        TableSlice slice = TableSlice.init(index, gen, exits, 0, index.size(), TableSlice.bytePlies(gen, filePlies), filePlies);
        long initDone = System.nanoTime(), initCpu = threads.getCurrentThreadCpuTime();
        SolvedPartition results = slice.solvedInPlace(index, gen);
        return new Solved(results, (initDone - start) / 1e9, (System.nanoTime() - initDone) / 1e9, (initCpu - startCpu) / 1e9,
                (threads.getCurrentThreadCpuTime() - initCpu) / 1e9, slice.ply);
    }

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
     * Solves {@code material}, saving each ply's slices under {@code workDir} (any Hadoop filesystem path, or null
     * for none) and continuing from the last ply saved there. A table solved in one task saves nothing: it takes
     * seconds. The caller deletes the table's work folder ({@link WorkFolder#deleteTable}) once its outputs are written,
     * and releases the table's blocks ({@link SolvedTable#release}).
     *
     * <p>Each ply's slices are kept by the executors (as {@code spark.tablebase.sliceStorage} says, see {@link
     * PlyLineage#kept}) and checkpointed there, so that the lineage stays one ply long and the ply before's shuffle
     * files can go. A lost executor loses its
     * slices: the run goes back to the last ply saved in the work folder, or stops with that message.
     */
    public SolvedTable solve(Material material, SmallerTables subs, String workDir) throws IOException {
        return solve(material, subs, workDir, false);
    }

    /**
     * {@link #solve(Material, SmallerTables, String)}, in one task when {@code oneTask} (a table that {@link
     * #fitsOneTask}): a run with other tables to solve beside it keeps every core busy that way, without a Spark
     * stage a ply, whose cost would be more than a small ply's work.
     */
    public SolvedTable solve(Material material, SmallerTables subs, String workDir, boolean oneTask) throws IOException {
        if (oneTask && !fitsOneTask(material)) throw new IllegalArgumentException(material.name() + " does not fit one task");
        long start = System.nanoTime();
        PositionIndex index = new PositionIndex(material);
        Layout layout = new Layout(material, index, new MoveGenerator(material), oneTask ? 1 : partitions(index, this.partitions, entriesPerPartition));
        RunSettings settings = RunSettings.of(jsc);
        int filePlies = settings.bytePlies(), bytePlies = TableSlice.bytePlies(layout.gen(), filePlies);
        try (LiveHeap heap = new LiveHeap(settings.sampleLiveHeap()); FailFast failFast = new FailFast(jsc.sc());
             PlyMeters meters = new PlyMeters(jsc.sc(), heap, progress, material, 2 * index.size());
             SliceRelease release = new SliceRelease(jsc.sc())) {
            ExecutorHeaps executorHeaps = new ExecutorHeaps(jsc);
            JavaRDD<SolvedPartition> blocks;
            if (layout.partitions() == 1) {
                if (workDir != null) progress.note(String.format("%s: solved in one task, so --work saves none of its plies (a stopped run"
                        + " solves it again)", material.name()));
                label(material.name() + ": init and every ply in one task");
                blocks = checkpointed(jsc.parallelize(List.of(0), 1).map(p -> executorHeaps.after(TableSlice.solveAlone(index, layout.gen(), subs.exits(),
                        0, index.size(), bytePlies, filePlies))));
                stopping(failFast, blocks::count);
            } else {
                blocks = solveOverPartitions(layout, subs, workDir, settings, start, heap, meters, failFast, release, executorHeaps);
            }
            heap.sample();
            label(material.name() + ": figures of the results");
            TableFigures figures = stopping(failFast, () -> blocks.map(b -> TableFigures.of(index, b.lo(), b.results(), b.late())).reduce(TableFigures::plus));
            if (layout.partitions() == 1) noteOneTaskPlies(material, index, subs, figures, start);
            heap.sample();
            SolveFigures solve = new SolveFigures((System.nanoTime() - start) / 1e9, figures.canonicalPositions(), heap.peak(), heap.sampled(),
                    executorHeaps.peaks(), layout.partitions() == 1 ? figures.maxPly() : meters.lastPly(), meters.shuffled(), meters.largestPly());
            noteSolved(material, index, solve, settings.sampleLiveHeap(), executorHeaps);
            return new SolvedTable(material, blocks, figures, solve);
        } finally {
            jsc.clearCallSite();
            jsc.setJobDescription(null);
        }
    }

    /**
     * The DTZ of a table whose DTM this solver solved ({@code solved}), under the game's rule, its smaller tables'
     * DTZ read through {@code subs}: over the same partitions ({@link DtzPlies}), its steps saved in the table's work
     * folder under {@code workDir} (or null for none), or, for a table solved in one task, in the one task that reads
     * it ({@link DtzSolve#plane}). Codes by solved partition ({@link SolvedPartition#ofDtz}).
     */
    public JavaRDD<SolvedPartition> solveDtz(SolvedTable solved, SmallerTables subs, String workDir) throws IOException {
        Material material = solved.material();
        int partitions = solved.partitions().getNumPartitions();
        if (partitions == 1) return DtzSolve.plane(jsc, material, subs);
        PositionIndex index = new PositionIndex(material);
        return DtzPlies.solve(jsc, new Layout(material, index, new MoveGenerator(material), partitions), DtzPlies.Exits.of(material, subs),
                io.github.tablebase.probe.Dtz.RULE_PLIES, RunSettings.of(jsc).sliceStorage(),
                workDir == null ? null : new org.apache.hadoop.fs.Path(WorkFolder.ofTable(workDir, material), "dtz").toString(),
                RunSettings.of(jsc).failOnceAtPly(), progress);
    }

    /** A table cut into partitions: whole king pairs each, and the partition that owns each king pair. */
    record Layout(Material material, PositionIndex index, MoveGenerator gen, int partitions, long[] starts, int[] partitionOfKingPair)
            implements java.io.Serializable {
        Layout(Material material, PositionIndex index, MoveGenerator gen, int partitions) {
            this(material, index, gen, partitions, IndexedTable.kingPairStarts(index, partitions), new int[index.kingPairs()]);
            for (int p = 0; p < partitions; p++)
                for (long kp = starts[p] / index.restSize(); kp < starts[p + 1] / index.restSize(); kp++) partitionOfKingPair[(int) kp] = p;
        }
    }

    /** The solve line: positions, time, and the heap. */
    private void noteSolved(Material material, PositionIndex index, SolveFigures solve, boolean sampled, ExecutorHeaps executorHeaps) {
        progress.note(String.format("%s: solved %,d positions in %.2f s, %,.0f positions a second; %s%s%s", material.name(), solve.positions(),
                solve.seconds(), solve.positions() / solve.seconds(), LiveHeap.figures(solve.peakHeapBytes(), index.size()),
                sampled ? String.format("; live heap by full GCs %,d MB, %.1f bytes per index entry", solve.liveHeapBytes() >> 20,
                        (double) solve.liveHeapBytes() / index.size()) : "",
                executorHeaps.describe()));
    }

    /** A table solved in one task reports its plies once it is done, from its figures. */
    private void noteOneTaskPlies(Material material, PositionIndex index, SmallerTables subs, TableFigures figures, long start) {
        long decided = figures.entries()[0][1] + figures.entries()[1][1];
        progress.note(String.format("%s: %,d entries, moves, captures and promotions (%d other tables), then every ply, in one task in %.1f s;"
                + " ply  0: %,d checkmates", material.name(), 2 * index.size(), subs.count(), (System.nanoTime() - start) / 1e9, decided));
        for (int q = 1; q <= figures.maxPly(); q++) {
            long found = figures.entries()[0][q + 1] + figures.entries()[1][q + 1];
            decided += found;
            progress.ply(material, q, decided, 2 * index.size(), false,
                    String.format("%s: ply %2d: %,d %s  (one task)", material.name(), q, found, q % 2 == 1 ? "wins" : "losses"));
        }
    }

    /** Init (or the last ply saved in {@code workDir}), then every ply over the partitions; the solved partitions, kept. */
    private JavaRDD<SolvedPartition> solveOverPartitions(Layout layout, SmallerTables subs, String workDir, RunSettings settings, long start, LiveHeap heap,
                                                     PlyMeters meters, FailFast failFast, SliceRelease release, ExecutorHeaps executorHeaps)
            throws IOException {
        Material material = layout.material();
        PositionIndex index = layout.index();
        int filePlies = settings.bytePlies(), bytePlies = TableSlice.bytePlies(layout.gen(), filePlies);
        WorkFolder work = workDir == null ? null : WorkFolder.open(WorkFolder.ofTable(workDir, material), material, layout.partitions(),
                jsc.hadoopConfiguration());
        int resumeAt = work == null ? -1 : work.lastLevel();
        label(material.name() + ": " + (resumeAt >= 0 ? "ply " + resumeAt + " read back" : "init"));
        JavaRDD<TableSlice> slices = PlyLineage.kept(resumeAt >= 0 ? work.load(jsc, WorkFolder.TABLE_SLICES, resumeAt)
                : jsc.parallelize(IntStream.range(0, layout.partitions()).boxed().toList(), layout.partitions()).map(p -> executorHeaps.after(
                        TableSlice.init(index, layout.gen(), subs.exits(), layout.starts()[p], layout.starts()[p + 1], bytePlies, filePlies))),
                settings.sliceStorage());
        if (resumeAt >= 0) progress.note(String.format("%s: resuming from ply %d saved in %s", material.name(), resumeAt, work.location()));
        long frontier = stopping(failFast, () -> frontier(slices));
        long decided = resumeAt >= 0 ? TABLE_SLICES.decided(slices) : frontier;
        int lastEvent = slices.map(TableSlice::lastEventPly).reduce(Math::max);
        heap.sample();
        if (resumeAt < 0) progress.note(String.format("%s: %,d entries, moves, captures and promotions (%d other tables) in %.1f s; ply  0: %,d checkmates",
                material.name(), 2 * index.size(), subs.count(), (System.nanoTime() - start) / 1e9, frontier));
        PlyLineage<TableSlice> lineage = new PlyLineage<>(jsc, TABLE_SLICES, material, work, settings.sliceStorage(), failFast, progress);
        JavaRDD<TableSlice> solved = solvePlies(layout, new PlyLineage.PlyState<>(slices, Math.max(resumeAt, 0), frontier, decided), lastEvent, lineage,
                settings.failOnceAtPly(), settings.sliceStorage(), meters, release, executorHeaps);
        heap.sample();
        JavaRDD<SolvedPartition> blocks = checkpointed(solved.map(TableSlice::solvedPartition));
        stopping(failFast, () -> release.releasing(solved, blocks::count));
        solved.unpersist(false);
        return blocks;
    }

    /** Names the jobs and stages that follow in Spark's UI and logs: which table, which ply. */
    private void label(String what) { label(jsc, what); }

    static void label(JavaSparkContext jsc, String what) {
        jsc.setJobDescription(what);
        jsc.setCallSite(what);
    }

    static <T> JavaRDD<T> checkpointed(JavaRDD<T> rdd) { return PlyLineage.checkpointed(rdd); }

    /** What a Spark action computes, or the reason {@link FailFast} stopped it. */
    interface Action<T> {
        T run() throws Exception;
    }

    static <T> T stopping(FailFast failFast, Action<T> action) throws IOException {
        try {
            return action.run();
        } catch (Exception e) {
            if (failFast.cause() != null) throw new IOException(failFast.cause(), e);
            if (e instanceof IOException io) throw io;
            if (e instanceof RuntimeException r) throw r;
            throw new IOException(e); // SparkException, checked, comes through Scala undeclared
        }
    }

    /**
     * The plies after {@code state}'s, each a Spark stage that shuffles the kings' un-moves, until a ply decides
     * nothing and no capture's result lies ahead ({@code lastEvent}); returns the last slices, kept.
     */
    private JavaRDD<TableSlice> solvePlies(Layout layout, PlyLineage.PlyState<TableSlice> state, int lastEvent, PlyLineage<TableSlice> lineage,
                                           int failOnceAt, StorageLevel storage, PlyMeters meters, SliceRelease release, ExecutorHeaps executorHeaps)
            throws IOException {
        for (int q = state.ply() + 1; state.frontier() > 0 || q <= lastEvent; q++) {
            meters.plyStarts();
            JavaRDD<TableSlice> next = nextPly(layout, state.slices(), q, q == failOnceAt, storage, executorHeaps);
            long found;
            try {
                found = release.releasing(state.slices(), () -> frontier(next)); // the action that makes the ply
                lineage.made(next, q);
            } catch (Exception e) { // SparkException, checked, comes through Scala undeclared
                next.unpersist(false);
                state.slices().unpersist(false);
                state = restored(lineage, q, e);
                q = state.ply();
                continue;
            }
            state.slices().unpersist(false);
            state = new PlyLineage.PlyState<>(next, q, found, state.decided() + found);
            meters.plyDone(q, found, state.decided());
        }
        return state.slices();
    }

    static <S> PlyLineage.PlyState<S> restored(PlyLineage<S> lineage, int q, Exception failure) throws IOException {
        try {
            return lineage.restore(q, failure);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /**
     * Ply {@code q}'s slices, made from the slices before: each partition's own un-moves, and the kings' un-moves of
     * every partition shuffled to the partition that owns their king pair; kept at {@code storage} and checkpointed
     * once an action makes them. A slice kept serialized is each task's own copy: it is plied in place.
     */
    private static JavaRDD<TableSlice> nextPly(Layout layout, JavaRDD<TableSlice> slices, int q, boolean failOnce, StorageLevel storage,
                                               ExecutorHeaps executorHeaps) {
        PositionIndex index = layout.index();
        MoveGenerator gen = layout.gen();
        int[] partitionOfKingPair = layout.partitionOfKingPair();
        boolean ownCopy = !storage.deserialized();
        return PlyLineage.kept(slices.zipPartitions(
                slices.mapPartitionsToPair(own -> own.next().kingUnmoves(q - 1, index, gen, partitionOfKingPair))
                        .partitionBy(new ToPartition(layout.partitions())).values(),
                (own, kingKeys) -> List.of(executorHeaps.after(own.next().next(q, index, gen, ownCopy,
                        failOnce ? failingFirstAttempt(kingKeys) : kingKeys))).iterator()), storage);
    }

    /** The kings' un-moves of a task that fails as it starts to read them, on its first attempt only. */
    static Iterator<long[]> failingFirstAttempt(Iterator<long[]> kingKeys) {
        return new Iterator<>() {
            @Override public boolean hasNext() {
                TaskContext task = TaskContext.get();
                if (task.attemptNumber() == 0 && task.stageAttemptNumber() == 0)
                    throw new IllegalStateException("injected failure (" + RunSettings.FAIL_ONCE_AT_PLY + ") in partition " + task.partitionId());
                return kingKeys.hasNext();
            }

            @Override public long[] next() { return kingKeys.next(); }
        };
    }


    static long frontier(JavaRDD<TableSlice> slices) { return TABLE_SLICES.frontier(slices); }

    /** The DTM's slices: saved as {@link TableSlice#writeTo} writes them. */
    static final PlyLineage.Slices<TableSlice> TABLE_SLICES = new PlyLineage.Slices<>() {
        @Override public WorkFolder.Codec<TableSlice> codec() { return WorkFolder.TABLE_SLICES; }

        @Override public long frontier(JavaRDD<TableSlice> slices) { return slices.map(s -> (long) s.frontierSize).reduce(Long::sum); }

        @Override public long decided(JavaRDD<TableSlice> slices) { return slices.map(TableSlice::decided).reduce(Long::sum); }
    };
}
