package tablebase.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import tablebase.chess.Color;

/**
 * Retrograde analysis on Spark. The table is a dataset of {@code long} placement keys (the squares of
 * White's pieces), each carrying the 64 Black king squares as bit masks ({@link LoneKingRules}); a mask
 * bit is one position. It is hash-partitioned by placement and each partition is one
 * {@link PlacementBlock} of sorted primitive arrays.
 *
 * <p>From the checkmates (the Black frontier at depth 0), each iteration makes two half-moves:
 * <ol>
 *   <li><b>White</b>: un-move White from the Black frontier, shuffle the un-moves to the partition of
 *       their earlier placement and join them there with the White solved set; the anti-join is per
 *       Black king square ({@code kings & ~won}). What is left is won in depth + 1, with its move.</li>
 *   <li><b>Black</b>: a Black-to-move square is lost in depth + 1 once every Black king move from it
 *       enters the White solved set. A Black king move never changes the placement, so this is decided
 *       inside the partition: no shuffle, nothing collected to the driver.</li>
 * </ol>
 * It stops when the Black frontier is empty. Each half-move's blocks are persisted and locally
 * checkpointed, so the lineage stays one level deep over the ~66 half-moves; with a {@link WorkFolder}
 * they are saved there instead and read back, which survives lost executors and a lost driver.
 *
 * <p>Why blocks in an RDD rather than rows in a Spark SQL Dataset: the iteration's joins must find the
 * table already partitioned by placement, level after level; Catalyst loses that across checkpoints or,
 * where it keeps it, carries join size estimates that multiply at every level until planning itself
 * stalls. Here the partitioning is explicit and each half-move costs one shuffle at most.
 */
public final class RetrogradeJob {
    private final JavaSparkContext jsc;
    private final LoneKingRules rules;
    private final int partitions;

    /**
     * @param partitions number of partitions. All data is hash-partitioned by placement into this many;
     *     about the number of cores is right, since rows are few: on 2 cores 2-4 partitions beat Spark's
     *     default of 200 several times over.
     */
    public RetrogradeJob(JavaSparkContext jsc, LoneKingRules rules, int partitions) {
        this.jsc = jsc;
        this.rules = rules;
        this.partitions = partitions;
    }

    /** The solved table (one {@link PlacementBlock} per partition) and every half-move's figures. */
    public record Solved(LoneKingRules rules, JavaRDD<PlacementBlock> blocks, List<HalfMove> halfMoves) {
        public int maxDepth(Color side) {
            return halfMoves.stream().filter(h -> h.side() == side && h.newPositions() > 0)
                    .mapToInt(HalfMove::depth).max().orElse(0);
        }

        public long total(Color side) {
            return halfMoves.stream().filter(h -> h.side() == side).mapToLong(HalfMove::newPositions).sum();
        }
    }

    /** Solves the table in memory, each half-move locally checkpointed. */
    public Solved run(Consumer<HalfMove> progress) {
        try {
            return run(progress, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // no work folder, no file access
        }
    }

    /**
     * Solves the table; with a work folder, every finished half-move is saved there and the next one reads
     * it back from there, and a folder holding finished half-moves is continued from the last of them.
     */
    public Solved run(Consumer<HalfMove> progress, WorkFolder work) throws IOException {
        ShuffleMeter meter = new ShuffleMeter(jsc.sc());
        try {
            return iterate(progress, meter, work);
        } finally {
            meter.close();
        }
    }

    private Solved iterate(Consumer<HalfMove> progress, ShuffleMeter meter, WorkFolder work) throws IOException {
        Partitioner byPlacement = new HashPartitioner(partitions);
        List<HalfMove> halfMoves = new ArrayList<>(work == null ? List.of() : work.finished());
        JavaRDD<PlacementBlock> blocks;
        if (halfMoves.isEmpty()) {
            long start = System.nanoTime();
            blocks = keep(checkmates(byPlacement), work, 0);
            long mates = frontierSizes(blocks)[1];
            halfMoves.add(report(progress, new HalfMove(Color.BLACK, 0, mates, 0, mates, seconds(start), 0, 0)));
            blocks = settle(blocks, work, halfMoves);
        } else {
            blocks = work.load(jsc, WorkFolder.PLACEMENT_BLOCKS, halfMoves.size() - 1).persist(StorageLevel.MEMORY_AND_DISK());
        }
        while (true) {
            HalfMove last = halfMoves.get(halfMoves.size() - 1);
            if (last.side() == Color.BLACK && last.newPositions() == 0) break; // the Black frontier is empty
            boolean white = last.side() == Color.BLACK;
            int depth = white ? last.depth() + 1 : last.depth();
            long start = System.nanoTime();
            ShuffleMeter.Reading before = meter.read();
            JavaRDD<PlacementBlock> next = keep(white ? whiteHalfMove(blocks, byPlacement, depth) : blackHalfMove(blocks, depth),
                    work, halfMoves.size());
            long[] fresh = frontierSizes(next);
            long shuffledBytes = meter.read().minus(before).bytes();
            halfMoves.add(report(progress, white
                    ? new HalfMove(Color.WHITE, depth, fresh[0], last.whiteWonTotal() + fresh[0], last.blackLostTotal(),
                            seconds(start), fresh[2], shuffledBytes)
                    : new HalfMove(Color.BLACK, depth, fresh[1], last.whiteWonTotal(), last.blackLostTotal() + fresh[1],
                            seconds(start), 0, shuffledBytes)));
            blocks.unpersist(false);
            blocks = settle(next, work, halfMoves);
        }
        return new Solved(rules, blocks, halfMoves);
    }

    /**
     * Depth 0: each partition builds its own block, the placements that hash to it with their checkmates,
     * so the table starts partitioned without a shuffle.
     */
    private JavaRDD<PlacementBlock> checkmates(Partitioner byPlacement) {
        LoneKingRules r = rules;
        List<Integer> ids = IntStream.range(0, partitions).boxed().toList();
        return jsc.parallelize(ids, partitions).map(part -> {
            long[] placements = java.util.stream.LongStream.range(0, r.placementSpace())
                    .filter(p -> r.isValid(p) && byPlacement.getPartition(p) == part).toArray();
            long[] mates = new long[placements.length];
            for (int i = 0; i < placements.length; i++) mates[i] = r.checkmates(placements[i]);
            return PlacementBlock.ofCheckmates(placements, mates);
        });
    }

    /**
     * White's half-move to {@code depth}: un-moves from the Black frontier go to the partition of their
     * earlier placement (the one shuffle), where the anti-join with the solved set keeps the new wins.
     */
    private JavaRDD<PlacementBlock> whiteHalfMove(JavaRDD<PlacementBlock> blocks, Partitioner byPlacement, int depth) {
        LoneKingRules r = rules;
        int n = partitions;
        JavaPairRDD<Integer, UnmoveBatch> unmoves = blocks.flatMapToPair(b -> {
            UnmoveBatch[] batches = new UnmoveBatch[n];
            for (int i = 0; i < n; i++) batches[i] = new UnmoveBatch();
            for (int i = 0; i < b.size(); i++) {
                if (b.blackFrontier[i] == 0) continue;
                r.whiteUnmoves(b.placements[i], b.blackFrontier[i],
                        (earlier, move, kings) -> batches[byPlacement.getPartition(earlier)].add(earlier, move, kings));
            }
            List<Tuple2<Integer, UnmoveBatch>> out = new ArrayList<>();
            for (int i = 0; i < n; i++) if (batches[i].size() > 0) out.add(new Tuple2<>(i, batches[i].trimmed()));
            return out.iterator();
        }).partitionBy(new HashPartitioner(n));
        return blocks.zipPartitions(unmoves.values(), (own, arriving) -> List.of(joinWhiteWins(r, own.next(), arriving, depth)).iterator());
    }

    /** The join of arriving un-moves with this partition's White solved set, and the per-square anti-join. */
    static PlacementBlock joinWhiteWins(LoneKingRules rules, PlacementBlock b, Iterator<UnmoveBatch> arriving, int depth) {
        int size = b.size();
        long[] fresh = new long[size];
        byte[] moves = b.whiteMove.clone();
        long joined = 0;
        while (arriving.hasNext()) {
            UnmoveBatch batch = arriving.next();
            joined += batch.size();
            for (int k = 0; k < batch.size(); k++) {
                int i = b.indexOf(batch.placement(k));
                long wins = batch.kings(k) & ~b.won[i];
                if (wins == 0) continue;
                fresh[i] |= wins;
                int move = batch.move(k);
                int flip = rules.tieBreakFlip(b.placements[i]);
                // Every move found at this depth is optimal; a fixed preference among them makes the
                // choice the same whatever order the un-moves arrive in.
                for (long s = wins; s != 0; s &= s - 1) {
                    int at = i * 64 + Long.numberOfTrailingZeros(s);
                    if (moves[at] == PlacementBlock.NO_MOVE || (move ^ flip) < ((moves[at] & 0xFF) ^ flip))
                        moves[at] = (byte) move;
                }
            }
        }
        long[] won = b.won.clone();
        byte[] dtm = b.whiteDtm.clone();
        for (int i = 0; i < size; i++) {
            won[i] |= fresh[i];
            stamp(dtm, i, fresh[i], depth);
        }
        return new PlacementBlock(b.placements, won, b.lost, fresh, new long[size], dtm, moves, b.blackDtm, joined);
    }

    /** Black's half-move to {@code depth}, inside each partition: squares whose every move enters the solved set. */
    private JavaRDD<PlacementBlock> blackHalfMove(JavaRDD<PlacementBlock> blocks, int depth) {
        LoneKingRules r = rules;
        return blocks.map(b -> markBlackLosses(r, b, depth));
    }

    static PlacementBlock markBlackLosses(LoneKingRules rules, PlacementBlock b, int depth) {
        int size = b.size();
        long[] lost = b.lost.clone();
        long[] fresh = new long[size];
        byte[] dtm = b.blackDtm.clone();
        for (int i = 0; i < size; i++) {
            if (b.whiteFrontier[i] == 0) continue; // nothing new to lose into
            fresh[i] = rules.everyMoveLoses(b.placements[i], b.won[i]) & ~lost[i];
            lost[i] |= fresh[i];
            stamp(dtm, i, fresh[i], depth);
        }
        return new PlacementBlock(b.placements, b.won, lost, b.whiteFrontier, fresh, b.whiteDtm, b.whiteMove, dtm, 0);
    }

    private static void stamp(byte[] depths, int row, long squares, int depth) {
        for (long s = squares; s != 0; s &= s - 1) depths[row * 64 + Long.numberOfTrailingZeros(s)] = (byte) depth;
    }

    /**
     * Computes a half-move's blocks once. Without a work folder their lineage is cut by a local checkpoint;
     * with one they are written there (and read back by {@link #settle}).
     */
    private static JavaRDD<PlacementBlock> keep(JavaRDD<PlacementBlock> blocks, WorkFolder work, int level) {
        blocks.persist(StorageLevel.MEMORY_AND_DISK());
        if (work == null) {
            blocks.rdd().localCheckpoint();
            blocks.count();
        } else {
            work.save(blocks, WorkFolder.PLACEMENT_BLOCKS, level);
        }
        return blocks;
    }

    /**
     * With a work folder: marks the level just saved finished and continues from its files, so a lost
     * executor's partitions are read again rather than lost.
     */
    private JavaRDD<PlacementBlock> settle(JavaRDD<PlacementBlock> blocks, WorkFolder work, List<HalfMove> halfMoves)
            throws IOException {
        if (work == null) return blocks;
        int level = halfMoves.size() - 1;
        work.finish(level, halfMoves);
        JavaRDD<PlacementBlock> saved = work.load(jsc, WorkFolder.PLACEMENT_BLOCKS, level).persist(StorageLevel.MEMORY_AND_DISK());
        blocks.unpersist(false);
        return saved;
    }

    /** {new White wins, new Black losses, White un-move rows joined} of the last half-moves. */
    private static long[] frontierSizes(JavaRDD<PlacementBlock> blocks) {
        return blocks.map(b -> new long[] {b.newWhite(), b.newBlack(), b.unmovesJoined})
                .reduce((x, y) -> new long[] {x[0] + y[0], x[1] + y[1], x[2] + y[2]});
    }

    private static HalfMove report(Consumer<HalfMove> progress, HalfMove halfMove) {
        progress.accept(halfMove);
        return halfMove;
    }

    private static double seconds(long startNanos) { return (System.nanoTime() - startNanos) / 1e9; }
}
