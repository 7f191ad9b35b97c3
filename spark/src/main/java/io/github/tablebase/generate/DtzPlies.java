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
 * pair. Pawn levels are rounds, highest first: a set-up stage, then the level's plies; a ply after which nothing is
 * left to follow jumps to {@code rule + 1}, where the zeroing moves past the rule come in. Each step's slices are kept
 * by the executors and checkpointed there, the step before's dropped as the next is made; the driver holds counts.
 */
final class DtzPlies {
    private DtzPlies() {}

    /** How a task opens the lookups of the zeroing moves that leave the table, in the smaller tables' DTZ. */
    interface Exits extends Serializable {
        Successors open();

        /** The smaller tables' DTZ as a run reads them from their files. */
        static Exits of(Material material, SmallerTables smaller) { return () -> new Successors(material, null, smaller.openDtz()); }
    }

    /**
     * The DTZ of {@code layout}'s table under a rule of {@code rule} plies, its exits read through {@code exits}: a DTZ
     * code an entry in solved partitions ({@link SolvedPartition#ofDtz}), kept. Ply {@code failOnceAt} of each level
     * (0: none) fails in each of its tasks' first attempt, as the tests ask ({@link RunSettings#FAIL_ONCE_AT_PLY}).
     */
    static JavaRDD<SolvedPartition> solve(JavaSparkContext jsc, TableSolver.Layout layout, Exits exits, int rule, StorageLevel storage,
                                          int failOnceAt, SolveProgress progress) throws IOException {
        Material material = layout.material();
        PositionIndex index = layout.index();
        MoveGenerator gen = layout.gen();
        boolean ownCopy = !storage.deserialized();
        long start = System.nanoTime();
        try (FailFast failFast = new FailFast(jsc.sc()); SliceRelease release = new SliceRelease(jsc.sc())) {
            TableSolver.label(jsc, material.name() + ": DTZ init");
            JavaRDD<DtzSlice> slices = PlyLineage.kept(jsc.parallelize(IntStream.range(0, layout.partitions()).boxed().toList(), layout.partitions())
                    .map(p -> DtzSlice.init(index, gen, new ZeroingMoves(index, gen, exits.open(), rule), layout.starts()[p],
                            layout.starts()[p + 1], rule)), storage);
            JavaRDD<DtzSlice> initial = slices;
            int top = TableSolver.stopping(failFast, () -> initial.map(DtzSlice::topLevel).reduce(Math::max));
            long plies = 0;
            for (int level = top; level >= 0; level--) {
                int at = level;
                TableSolver.label(jsc, String.format("%s: DTZ level %d set up", material.name(), level));
                JavaRDD<DtzSlice> before = slices;
                JavaRDD<DtzSlice> set = PlyLineage.kept(before.map(s -> s.setUp(at, index, gen,
                        new ZeroingMoves(index, gen, exits.open(), rule), ownCopy)), storage);
                long frontier = TableSolver.stopping(failFast, () -> release.releasing(before, () -> frontierOf(set)));
                before.unpersist(false);
                slices = set;
                int d = 1, last = 0;
                while (frontier > 0 || d <= rule + 1) {
                    JavaRDD<DtzSlice> done = slices;
                    JavaRDD<DtzSlice> next = ply(jsc, layout, done, d, ownCopy, d == failOnceAt, storage);
                    frontier = TableSolver.stopping(failFast, () -> release.releasing(done, () -> frontierOf(next)));
                    done.unpersist(false);
                    slices = next;
                    plies++;
                    if (frontier > 0) last = d;
                    d = frontier == 0 && d < rule + 1 ? rule + 1 : d + 1;
                }
                progress.note(String.format("%s: DTZ of pawn level %d: its last win or loss at ply %d", material.name(), level, last));
            }
            TableSolver.label(jsc, material.name() + ": DTZ codes");
            JavaRDD<DtzSlice> solved = slices;
            JavaRDD<SolvedPartition> codes = TableSolver.checkpointed(solved.map(DtzSlice::solvedPartition).persist(StorageLevel.MEMORY_AND_DISK()));
            TableSolver.stopping(failFast, () -> release.releasing(solved, codes::count));
            solved.unpersist(false);
            progress.note(String.format("%s: DTZ over %d partitions in %.1f s, %d levels, %d Spark stages of plies", material.name(),
                    layout.partitions(), (System.nanoTime() - start) / 1e9, top + 1, plies));
            return codes;
        } finally {
            jsc.clearCallSite();
            jsc.setJobDescription(null);
        }
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

    private static long frontierOf(JavaRDD<DtzSlice> slices) { return slices.map(s -> (long) s.frontierSize).reduce(Long::sum); }
}
