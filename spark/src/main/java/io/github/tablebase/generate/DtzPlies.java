package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.Successors;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;

/**
 * The DTZ of a table over partitions, as the engine solves its DTM ({@link TableSolver}): the table's {@link DtzSlice}s,
 * one a partition, whole king pairs each, the kings' un-moves shuffled each ply to the partition that owns their king
 * pair. Pawn levels are rounds, highest first: a set-up stage, then the level's plies; after a ply that decides nothing
 * the next is {@code rule + 1}, where the zeroing moves past the rule come in. Each step's slices are kept by the
 * executors and checkpointed there, the step before's dropped as the next is made, and saved to the work folder when
 * saving is due ({@link PlyLineage}): a stopped run, or one that lost an executor, goes on from the last step saved.
 * The driver holds counts; the slices say where the solve is (their level and ply).
 */
final class DtzPlies {
    private DtzPlies() {}

    /** How a task opens the lookups of the zeroing moves that leave the table, in the smaller tables' DTZ. */
    interface Exits extends Serializable {
        Successors open();

        /** The smaller tables' DTZ as a run reads them from their files. */
        static Exits of(Material material, SmallerTables smaller) { return () -> new Successors(material, null, smaller.openDtz()); }
    }

    /** The DTZ slices: saved as {@link DtzSlice#writeTo} writes them. */
    static final PlyLineage.Slices<DtzSlice> DTZ_SLICES = new PlyLineage.Slices<>() {
        @Override public WorkFolder.Codec<DtzSlice> codec() { return WorkFolder.DTZ_SLICES; }

        @Override public long frontier(JavaRDD<DtzSlice> slices) { return slices.map(s -> (long) s.frontierSize).reduce(Long::sum); }

        @Override public long decided(JavaRDD<DtzSlice> slices) { return slices.map(DtzSlice::decided).reduce(Long::sum); }
    };

    /** What a solve does now, and has done. */
    private record Where(int level, int ply) implements Serializable {}

    /**
     * The DTZ of {@code layout}'s table under a rule of {@code rule} plies, its exits read through {@code exits}: a DTZ
     * code an entry in solved partitions ({@link SolvedPartition#ofDtz}), kept. Its steps are saved under {@code
     * workDir} (any Hadoop filesystem path, or null for none), and it goes on from the last one saved there. Ply {@code
     * failOnceAt} of each level (0: none) fails in each of its tasks' first attempt, as the tests ask ({@link
     * RunSettings#FAIL_ONCE_AT_PLY}).
     */
    static JavaRDD<SolvedPartition> solve(JavaSparkContext jsc, TableSolver.Layout layout, Exits exits, int rule, StorageLevel storage,
                                          String workDir, int failOnceAt, SolveProgress progress) throws IOException {
        Material material = layout.material();
        PositionIndex index = layout.index();
        MoveGenerator gen = layout.gen();
        boolean ownCopy = !storage.deserialized();
        long start = System.nanoTime();
        try (FailFast failFast = new FailFast(jsc.sc()); SliceRelease release = new SliceRelease(jsc.sc())) {
            WorkFolder work = workDir == null ? null : WorkFolder.open(workDir, material, layout.partitions(), jsc.hadoopConfiguration());
            int saved = work == null ? -1 : work.lastLevel();
            TableSolver.label(jsc, material.name() + ": DTZ " + (saved >= 0 ? "step " + saved + " read back" : "init"));
            JavaRDD<DtzSlice> first = PlyLineage.kept(saved >= 0 ? work.load(jsc, DTZ_SLICES.codec(), saved)
                    : jsc.parallelize(IntStream.range(0, layout.partitions()).boxed().toList(), layout.partitions())
                            .map(p -> DtzSlice.init(index, gen, new ZeroingMoves(index, gen, exits.open(), rule), layout.starts()[p],
                                    layout.starts()[p + 1], rule)), storage);
            int top = TableSolver.stopping(failFast, () -> first.map(DtzSlice::topLevel).reduce(Math::max));
            PlyLineage<DtzSlice> lineage = new PlyLineage<>(jsc, DTZ_SLICES, material, work, storage, failFast, progress);
            PlyLineage.PlyState<DtzSlice> state = new PlyLineage.PlyState<>(first, Math.max(saved, 0), DTZ_SLICES.frontier(first), 0);
            Where at = where(first);
            if (saved >= 0) progress.note(String.format("%s: DTZ resuming from step %d (pawn level %d, ply %d) saved in %s", material.name(), saved,
                    at.level(), at.ply(), work.location()));
            int lastFound = 0;
            while (true) {
                Where next = next(at, state.frontier(), top, rule);
                if (next == null) break;
                if (next.level() != at.level() && at.level() >= 0) levelDone(progress, material, at.level(), lastFound);
                int step = state.ply() + 1;
                JavaRDD<DtzSlice> made = next.ply() == 0 ? setUp(jsc, layout, state.slices(), next.level(), exits, rule, ownCopy, storage)
                        : ply(jsc, layout, state.slices(), next.ply(), ownCopy, next.ply() == failOnceAt, storage);
                long found;
                try {
                    JavaRDD<DtzSlice> before = state.slices();
                    found = TableSolver.stopping(failFast, () -> release.releasing(before, () -> DTZ_SLICES.frontier(made)));
                    lineage.made(made, step);
                } catch (Exception e) {
                    made.unpersist(false);
                    state.slices().unpersist(false);
                    state = TableSolver.restored(lineage, step, e);
                    at = where(state.slices());
                    continue;
                }
                state.slices().unpersist(false);
                state = new PlyLineage.PlyState<>(made, step, found, 0);
                if (next.level() != at.level()) lastFound = 0;
                if (found > 0) lastFound = next.ply();
                at = next;
            }
            levelDone(progress, material, at.level(), lastFound);
            TableSolver.label(jsc, material.name() + ": DTZ codes");
            JavaRDD<DtzSlice> solved = state.slices();
            JavaRDD<SolvedPartition> codes = TableSolver.checkpointed(solved.map(DtzSlice::solvedPartition).persist(StorageLevel.MEMORY_AND_DISK()));
            TableSolver.stopping(failFast, () -> release.releasing(solved, codes::count));
            solved.unpersist(false);
            progress.note(String.format("%s: DTZ over %d partitions in %.1f s, %d Spark steps%s", material.name(), layout.partitions(),
                    (System.nanoTime() - start) / 1e9, state.ply(), material.hasPawns() ? String.format(" (%d pawn levels)", top + 1) : ""));
            return codes;
        } finally {
            jsc.clearCallSite();
            jsc.setJobDescription(null);
        }
    }

    /**
     * The step after {@code at} ({@code frontier} entries decided in it), or null when the solve is done: the top
     * level's set-up after init; a level's plies while they find entries, or until {@code rule + 1} (ply 1 always;
     * from a ply that found none, straight to {@code rule + 1}); then the next level's set-up.
     */
    private static Where next(Where at, long frontier, int top, int rule) {
        if (at.level() < 0) return new Where(top, 0);
        if (frontier > 0 || at.ply() < rule + 1) return new Where(at.level(), frontier == 0 && at.ply() >= 1 ? rule + 1 : at.ply() + 1);
        return at.level() > 0 ? new Where(at.level() - 1, 0) : null;
    }

    private static void levelDone(SolveProgress progress, Material material, int level, int lastFound) {
        progress.note(String.format("%s: DTZ of pawn level %d: its last win or loss at ply %d", material.name(), level, lastFound));
    }

    /** Where the slices are: every slice is at the same step. */
    private static Where where(JavaRDD<DtzSlice> slices) { return slices.map(s -> new Where(s.level, s.ply)).first(); }

    /** Pawn level {@code level}'s set-up: the slices with its entries set up from their zeroing moves, its mates the first frontier. */
    private static JavaRDD<DtzSlice> setUp(JavaSparkContext jsc, TableSolver.Layout layout, JavaRDD<DtzSlice> slices, int level, Exits exits,
                                           int rule, boolean ownCopy, StorageLevel storage) {
        PositionIndex index = layout.index();
        MoveGenerator gen = layout.gen();
        TableSolver.label(jsc, String.format("%s: DTZ pawn level %d set up", layout.material().name(), level));
        return PlyLineage.kept(slices.map(s -> s.setUp(level, index, gen, new ZeroingMoves(index, gen, exits.open(), rule), ownCopy)), storage);
    }

    /** Ply {@code d}'s slices: each partition's own un-moves, and the kings' un-moves of every partition shuffled to the one that owns their king pair. */
    private static JavaRDD<DtzSlice> ply(JavaSparkContext jsc, TableSolver.Layout layout, JavaRDD<DtzSlice> slices, int d, boolean ownCopy,
                                         boolean failOnce, StorageLevel storage) {
        PositionIndex index = layout.index();
        MoveGenerator gen = layout.gen();
        int[] partitionOfKingPair = layout.partitionOfKingPair();
        TableSolver.label(jsc, String.format("%s: DTZ ply %d", layout.material().name(), d));
        return PlyLineage.kept(slices.zipPartitions(
                slices.mapPartitionsToPair(own -> own.next().kingUnmoves(d - 1, index, gen, partitionOfKingPair))
                        .partitionBy(new TableSolver.ToPartition(layout.partitions())).values(),
                (own, kingKeys) -> List.of(own.next().next(d, index, gen, ownCopy, failOnce ? TableSolver.failingFirstAttempt(kingKeys) : kingKeys))
                        .iterator()), storage);
    }
}
