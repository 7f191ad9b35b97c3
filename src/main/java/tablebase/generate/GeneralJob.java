package tablebase.generate;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;
import tablebase.chess.Square;

/**
 * Retrograde analysis of any pawnless material on Spark, both sides with pieces: the entries are the
 * canonical positions of a {@link PositionIndex} (one per class of the 8 symmetries), range-partitioned
 * by index, one {@link IndexBlock} per partition. Captures lead to smaller tables, which are solved first
 * and looked up with a join. Then ply by ply from the checkmates:
 * <ul>
 *   <li>odd ply (wins): the predecessors (un-moves) of positions lost at the ply before win now, as do
 *       positions whose capture reaches a lost position of a smaller table at that ply;</li>
 *   <li>even ply (losses): the un-moves of positions just won tell each predecessor which of its moves reach
 *       them, each distinct move once; a position is lost when no move is left that does not reach a win for
 *       the opponent, and no capture holds.</li>
 * </ul>
 * It stops when a ply decides nothing and no capture result lies further ahead.
 */
public final class GeneralJob {
    /** The most pieces a table may have: an index block's arrays and the packed file's one mapping stay within int range. */
    public static final int MAX_PIECES = 5;
    private final JavaSparkContext jsc;
    private final int partitions;
    private final Consumer<String> progress;
    private final Shelf shelf;
    private final Map<Material, Table> tables = new HashMap<>();

    /** Where tables made earlier are found, and where each table is handed as soon as it is solved. */
    public interface Shelf {
        /** Reads back a table made earlier, or null when there is none (then it is generated). */
        BlockSource find(Material material) throws IOException;

        /** Takes a table just solved (to write it out) before anything bigger is solved. */
        void keep(Table table) throws IOException;
    }

    /** The plies of a table made earlier, one index range at a time (run where the partition lives). */
    public interface BlockSource extends Serializable {
        IndexBlock read(long lo, long hi) throws IOException;
    }

    /** A shelf with nothing on it that keeps nothing: every table is generated and stays in memory only. */
    public static final Shelf NO_SHELF = new Shelf() {
        @Override public BlockSource find(Material material) { return null; }

        @Override public void keep(Table table) { }
    };

    public GeneralJob(JavaSparkContext jsc, int partitions, Consumer<String> progress, Shelf shelf) {
        this.jsc = jsc;
        this.partitions = partitions;
        this.progress = progress;
        this.shelf = shelf;
    }

    /**
     * A solved table: its blocks, the deepest ply found, its canonical legal positions (both sides to move) and
     * the seconds it took to solve them (0 for a table read back).
     */
    public record Table(Material material, PositionIndex index, JavaRDD<IndexBlock> blocks, int maxPly, long positions, double seconds)
            implements Serializable {
        /** The longest win of {@code side} to move, in its own moves (mate in 1 = 1), 0 when it never wins. */
        public int longestWin(Color side) {
            int s = side(side);
            int ply = blocks.map(b -> {
                int max = -1;
                for (short v : b.ply[s]) if (v > 0 && v % 2 == 1) max = Math.max(max, v);
                return max;
            }).reduce(Math::max);
            return ply < 0 ? 0 : (ply + 1) / 2;
        }

        /** (index * 2 + side, ply) of every decided entry. */
        JavaPairRDD<Long, Short> decided() {
            return blocks.flatMapToPair(b -> {
                List<Tuple2<Long, Short>> out = new ArrayList<>();
                for (int s = 0; s < 2; s++)
                    for (int j = 0; j < b.ply[s].length; j++)
                        if (b.ply[s][j] >= 0) out.add(new Tuple2<>((b.lo + j) * 2 + s, b.ply[s][j]));
                return out.iterator();
            });
        }
    }

    /** Index ranges: entry key {@code index * 2 + side} goes to partition {@code index * parts / size}. */
    static final class IndexRange extends Partitioner {
        private final long size;
        private final int parts;

        IndexRange(long size, int parts) {
            this.size = size;
            this.parts = parts;
        }

        @Override public int numPartitions() { return parts; }

        @Override public int getPartition(Object key) { return (int) (((Long) key / 2) * parts / size); }

        /** The first index of partition {@code p} (p = parts: the end). */
        long lo(int p) { return (p * size + parts - 1) / parts; }

        @Override public boolean equals(Object o) { return o instanceof IndexRange r && r.size == size && r.parts == parts; }

        @Override public int hashCode() { return Long.hashCode(size) * 31 + parts; }
    }

    /**
     * Generates {@code material} (unless this job solved it already), first finding on the shelf or generating
     * every smaller table a capture can reach.
     */
    public Table solve(Material material) throws IOException {
        Table known = tables.get(material);
        if (known != null) return known;
        for (Material sub : captures(material)) require(sub);
        Table table = generate(material);
        tables.put(material, table);
        shelf.keep(table);
        return table;
    }

    /** A smaller table: solved in this run already, found on the shelf, or else solved now. */
    private Table require(Material material) throws IOException {
        if (tables.containsKey(material)) return tables.get(material);
        BlockSource source = shelf.find(material);
        if (source == null) return solve(material);
        PositionIndex index = new PositionIndex(material);
        JavaRDD<IndexBlock> blocks = blocks(new IndexRange(index.size(), partitions), source);
        int maxPly = blocks.map(b -> {
            int max = 0;
            for (short[] side : b.ply) for (short v : side) max = Math.max(max, v);
            return max;
        }).reduce(Math::max);
        Table table = new Table(material, index, blocks, maxPly, positions(blocks), 0);
        tables.put(material, table);
        return table;
    }

    /** The materials one capture away that have more than the two kings (bare kings are a draw). */
    public static Set<Material> captures(Material m) {
        Set<Material> subs = new LinkedHashSet<>();
        if (m.size() == 3) return subs;
        for (int i = 0; i < m.size(); i++)
            if (i != m.kingIndex(Color.WHITE) && i != m.kingIndex(Color.BLACK)) subs.add(m.without(i));
        return subs;
    }

    private static int side(Position p) { return side(p.sideToMove()); }

    private static int side(Color c) { return c == Color.WHITE ? 0 : 1; }

    private static Color color(int side) { return side == 0 ? Color.WHITE : Color.BLACK; }

    private static short code(int from, int to) { return (short) (from * 64 + to); }

    /** Why the general job cannot make this material, or null when it can. */
    public static String unsupportedReason(Material material) {
        if (material.size() < 3) return material.name() + " is two bare kings, a draw: there is nothing to generate";
        if (material.size() > MAX_PIECES)
            return material.name() + " has " + material.size() + " pieces; the general job makes pawnless endgames of up to " + MAX_PIECES;
        return null;
    }

    private static long positions(JavaRDD<IndexBlock> blocks) {
        return blocks.map(b -> {
            long n = 0;
            for (short[] side : b.ply) for (short v : side) if (v != IndexBlock.NONE) n++;
            return n;
        }).reduce(Long::sum);
    }

    /** A table's blocks, one per partition of {@code range}, made where the partition lives, and kept. */
    private JavaRDD<IndexBlock> blocks(IndexRange range, BlockSource make) {
        List<Integer> ids = IntStream.range(0, partitions).boxed().toList();
        return keep(jsc.parallelize(ids, partitions).map(p -> make.read(range.lo(p), range.lo(p + 1))));
    }

    private Table generate(Material material) {
        long start = System.nanoTime();
        PositionIndex index = new PositionIndex(material);
        IndexRange range = new IndexRange(index.size(), partitions);
        JavaRDD<IndexBlock> blocks = blocks(range, (lo, hi) -> init(index, lo, hi));

        // One pass over the captures into every smaller table, one join: keys are (key in the smaller table) * n + which table.
        List<Material> subs = List.copyOf(captures(material));
        JavaPairRDD<Long, Short> known = jsc.parallelizePairs(List.of());
        for (int t = 0; t < subs.size(); t++) {
            long which = t, n = subs.size();
            known = known.union(tables.get(subs.get(t)).decided().mapToPair(d -> new Tuple2<>(d._1 * n + which, d._2)));
        }
        JavaPairRDD<Long, Tuple2<Short, Short>> answers = blocks.flatMapToPair(b -> captureRequests(b, index, subs))
                .leftOuterJoin(known)
                .mapToPair(t -> new Tuple2<>(t._2._1._1, new Tuple2<>(t._2._2.orElse((short) -1), t._2._1._2)));
        JavaRDD<IndexBlock> withCaptures = keep(blocks.zipPartitions(answers.partitionBy(range),
                (own, arriving) -> List.of(applyCaptures(own.next(), arriving)).iterator()));
        blocks.unpersist(false);
        blocks = withCaptures;
        int scheduled = blocks.map(GeneralJob::lastScheduledPly).reduce(Math::max);

        int maxPly = 0;
        progress.accept(String.format("%s: %,d entries, their moves and captures (%d smaller tables) in %.1f s; ply  0: %,d checkmates",
                material.name(), 2 * index.size(), subs.size(), (System.nanoTime() - start) / 1e9, decidedAt(blocks, 0)));
        long frontier = decidedAt(blocks, 0);
        for (int p = 0; ; p++) {
            if (frontier == 0 && p >= scheduled) break;
            int q = p + 1;
            long plyStart = System.nanoTime();
            JavaRDD<IndexBlock> next = keep(q % 2 == 1 ? wins(blocks, index, range, p) : losses(blocks, index, range, p));
            blocks.unpersist(false);
            blocks = next;
            long found = decidedAt(blocks, q);
            if (found > 0) maxPly = q;
            frontier = found;
            progress.accept(String.format("%s: ply %2d: %,d %s  (%.2f s)", material.name(), q, found, q % 2 == 1 ? "wins" : "losses",
                    (System.nanoTime() - plyStart) / 1e9));
        }
        long positions = positions(blocks);
        double seconds = (System.nanoTime() - start) / 1e9;
        progress.accept(String.format("%s: solved %,d positions in %.1f s, %,.0f positions a second", material.name(), positions, seconds,
                positions / seconds));
        return new Table(material, index, blocks, maxPly, positions, seconds);
    }

    private static long decidedAt(JavaRDD<IndexBlock> blocks, int ply) {
        return blocks.map(b -> b.count(0, ply) + b.count(1, ply)).reduce(Long::sum);
    }

    private static int lastScheduledPly(IndexBlock b) {
        int last = 0;
        for (int s = 0; s < 2; s++)
            for (int j = 0; j < b.ply[s].length; j++) last = Math.max(last, Math.max(b.captureWin[s][j], b.captureLoss[s][j]));
        return last;
    }

    /** Canonical legal entries, checkmates at ply 0; stalemates and captures of everything but the kings can never be lost. */
    private static IndexBlock init(PositionIndex index, long lo, long hi) {
        IndexBlock b = new IndexBlock(lo, hi);
        for (long i = lo; i < hi; i++) {
            int j = (int) (i - lo);
            Position white = index.position(i, Color.WHITE);
            boolean canonical = white != null && index.index(white) == i;
            for (int s = 0; s < 2; s++) {
                Position p = s == 0 ? white : canonical ? new Position(index.material(), white.squares(), Color.BLACK) : null;
                if (!canonical || !p.isLegal()) {
                    b.ply[s][j] = IndexBlock.NONE;
                    continue;
                }
                List<Move> moves = p.legalMoves();
                b.ply[s][j] = moves.isEmpty() && p.inCheck() ? 0 : IndexBlock.UNDECIDED;
                b.remaining[s][j] = (short) moves.stream().filter(m -> !m.isCapture()).count();
                if (moves.isEmpty() && !p.inCheck()) b.captureDraw[s][j] = true; // stalemate
                for (Move m : moves)
                    if (m.isCapture() && p.play(m).material().size() == 2) b.captureDraw[s][j] = true;
            }
        }
        return b;
    }

    /**
     * (key in the smaller table * subs + which of {@code subs}, (own key, move)) for every capture into a smaller
     * table; each position's moves are made once for all of them.
     */
    private static Iterator<Tuple2<Long, Tuple2<Long, Short>>> captureRequests(IndexBlock b, PositionIndex index, List<Material> subs) {
        List<PositionIndex> subIndexes = subs.stream().map(PositionIndex::new).toList();
        List<Tuple2<Long, Tuple2<Long, Short>>> out = new ArrayList<>();
        for (long i = b.lo; i < b.hi; i++) {
            for (int s = 0; s < 2; s++) {
                if (b.ply[s][(int) (i - b.lo)] == IndexBlock.NONE) continue;
                Position p = index.position(i, color(s));
                for (Move m : p.legalMoves()) {
                    if (!m.isCapture()) continue;
                    Position after = p.play(m);
                    int which = subs.indexOf(after.material());
                    if (which < 0) continue; // bare kings: a draw, marked by init
                    long key = subIndexes.get(which).index(after) * 2 + side(after);
                    out.add(new Tuple2<>(key * subs.size() + which, new Tuple2<>(i * 2 + s, code(m.from(), m.to()))));
                }
            }
        }
        return out.iterator();
    }

    /** The block with what each capture leads to: (own key, (ply in the smaller table or -1 for a draw, move)). */
    private static IndexBlock applyCaptures(IndexBlock own, Iterator<Tuple2<Long, Tuple2<Short, Short>>> answers) {
        IndexBlock b = own.withOwnCaptureFacts();
        while (answers.hasNext()) {
            Tuple2<Long, Tuple2<Short, Short>> a = answers.next();
            long key = a._1;
            int s = (int) (key & 1), j = (int) (key / 2 - b.lo);
            short ply = a._2._1, move = a._2._2;
            if (ply < 0) {
                b.captureDraw[s][j] = true;
            } else if (ply % 2 == 0) { // the opponent is lost there: a win, one ply later
                short at = (short) (ply + 1);
                if (b.captureWin[s][j] < 0 || at < b.captureWin[s][j] || at == b.captureWin[s][j] && move < b.captureWinMove[s][j]) {
                    b.captureWin[s][j] = at;
                    b.captureWinMove[s][j] = move;
                }
            } else { // the opponent wins there: the longest such capture is the best defence
                short at = (short) (ply + 1);
                if (at > b.captureLoss[s][j] || at == b.captureLoss[s][j] && move < b.captureLossMove[s][j]) {
                    b.captureLoss[s][j] = at;
                    b.captureLossMove[s][j] = move;
                }
            }
        }
        return b;
    }

    /**
     * (canonical key of an earlier position, its move into the frontier entry, in the canonical frame) for the
     * frontier at ply {@code p}. A symmetric earlier position gets its move once per symmetry that makes it
     * canonical, so every one of its moves into the frontier's class is told, the same whichever frontier
     * entry tells it.
     */
    private static JavaPairRDD<Long, Short> unmoves(JavaRDD<IndexBlock> blocks, PositionIndex index, int p) {
        return blocks.flatMapToPair(b -> {
            List<Tuple2<Long, Short>> out = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                for (int j = 0; j < b.ply[s].length; j++) {
                    if (b.ply[s][j] != p) continue;
                    Position after = index.position(b.lo + j, color(s));
                    long afterOccupied = after.occupied();
                    for (Position before : after.unmoves()) {
                        long moved = before.occupied() ^ afterOccupied;
                        int from = Long.numberOfTrailingZeros(moved & before.occupied());
                        int to = Long.numberOfTrailingZeros(moved & afterOccupied);
                        int symmetries = index.canonicalSymmetries(before);
                        long key = index.index(before, symmetries) * 2 + side(before);
                        for (int t = 0; t < 8; t++)
                            if ((symmetries >> t & 1) != 0) out.add(new Tuple2<>(key, code(Square.transform(from, t), Square.transform(to, t))));
                    }
                }
            }
            return out.iterator();
        });
    }

    /** Odd ply q = p + 1: predecessors of the positions lost at p win, and so do captures scheduled for q. */
    private static JavaRDD<IndexBlock> wins(JavaRDD<IndexBlock> blocks, PositionIndex index, IndexRange range, int p) {
        short q = (short) (p + 1);
        return blocks.zipPartitions(unmoves(blocks, index, p).partitionBy(range), (own, arriving) -> {
            IndexBlock b = own.next().copy();
            for (int s = 0; s < 2; s++)
                for (int j = 0; j < b.ply[s].length; j++)
                    if (b.ply[s][j] == IndexBlock.UNDECIDED && b.captureWin[s][j] == q) {
                        b.ply[s][j] = q;
                        b.move[s][j] = b.captureWinMove[s][j];
                    }
            while (arriving.hasNext()) {
                Tuple2<Long, Short> a = arriving.next();
                int s = (int) (a._1 & 1), j = (int) (a._1 / 2 - b.lo);
                if (b.ply[s][j] == IndexBlock.UNDECIDED || b.ply[s][j] == q && a._2 < b.move[s][j]) {
                    b.ply[s][j] = q;
                    b.move[s][j] = a._2;
                }
            }
            return List.of(b).iterator();
        });
    }

    /**
     * Even ply q = p + 1. The un-moves of the positions just won at p reach their predecessors, each distinct
     * move once; a predecessor counts them off its moves not yet refuted. When none is left and its captures
     * allow, it is lost at q, its best move one into a position won at p. Entries whose last word is a capture
     * into a smaller table are decided at the ply that capture scheduled.
     */
    private static JavaRDD<IndexBlock> losses(JavaRDD<IndexBlock> blocks, PositionIndex index, IndexRange range, int p) {
        short q = (short) (p + 1);
        return blocks.zipPartitions(unmoves(blocks, index, p).partitionBy(range), (own, arriving) -> {
            IndexBlock b = own.next().copy();
            long[] told = new long[1024]; // (entry - 2 * lo) << 12 | move: sorted, each distinct move counts once
            int n = 0;
            while (arriving.hasNext()) {
                Tuple2<Long, Short> t = arriving.next();
                if (n == told.length) told = Arrays.copyOf(told, 2 * n);
                told[n++] = (t._1 - 2 * b.lo) << 12 | t._2;
            }
            Arrays.sort(told, 0, n);
            short[][] bestNow = new short[2][b.ply[0].length]; // best move into a position won at p
            for (short[] row : bestNow) Arrays.fill(row, Short.MAX_VALUE);
            for (int k = 0; k < n; k++) {
                if (k > 0 && told[k] == told[k - 1]) continue;
                long entry = told[k] >>> 12;
                int s = (int) (entry & 1), j = (int) (entry >>> 1);
                if (b.ply[s][j] != IndexBlock.UNDECIDED) continue;
                b.remaining[s][j]--;
                bestNow[s][j] = (short) Math.min(bestNow[s][j], told[k] & 4095);
            }
            for (int s = 0; s < 2; s++) {
                for (int j = 0; j < b.ply[s].length; j++) {
                    if (b.ply[s][j] != IndexBlock.UNDECIDED || b.remaining[s][j] != 0 || b.captureDraw[s][j] || b.captureWin[s][j] >= 0)
                        continue;
                    boolean byMove = bestNow[s][j] != Short.MAX_VALUE, byCapture = b.captureLoss[s][j] == q;
                    if (!(byMove && b.captureLoss[s][j] <= q || byCapture)) continue;
                    b.ply[s][j] = q;
                    short move = byMove ? bestNow[s][j] : Short.MAX_VALUE;
                    if (byCapture) move = (short) Math.min(move, b.captureLossMove[s][j]);
                    b.move[s][j] = move;
                }
            }
            return List.of(b).iterator();
        });
    }

    private static JavaRDD<IndexBlock> keep(JavaRDD<IndexBlock> blocks) {
        blocks.persist(StorageLevel.MEMORY_AND_DISK());
        blocks.rdd().localCheckpoint();
        blocks.count();
        return blocks;
    }
}
