package tablebase.output;

import java.util.Iterator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import tablebase.chess.Attacks;
import tablebase.chess.Color;
import tablebase.chess.Fen;
import tablebase.chess.Material;
import tablebase.chess.MoveGenerator;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;
import tablebase.chess.Square;
import tablebase.table.SolvedTable;
import tablebase.generate.LoneKingRules;
import tablebase.generate.PlacementBlock;

/**
 * The solved table as one row per decided position, the form of the Parquet export: every won
 * White-to-move and every lost Black-to-move position.
 *
 * <p>Columns: {@code key} (the position key), {@code stm} ("w"/"b"), one column per piece with its
 * square name ({@code wk, wb, wn, bk} for KBNK, named by {@link Material#columnNames()}), {@code dtm},
 * {@code best_move} (UCI; for Black the reply that holds out longest, null when mated) and {@code fen}.
 */
public final class PositionRows {
    private PositionRows() {}

    public static StructType schema(Material material) { return columns(material, false); }

    /**
     * The schema of an indexed table's export (any endgame): one row per canonical position and side to move,
     * {@code key} its {@link PositionIndex} index, and {@code result} ("win", "loss", "draw") before {@code dtm},
     * which counts the moves of the side that mates (null for a draw).
     */
    public static StructType indexedSchema(Material material) { return columns(material, true); }

    private static StructType columns(Material material, boolean withResult) {
        StructType schema = new StructType()
                .add("key", DataTypes.LongType, false)
                .add("stm", DataTypes.StringType, false);
        for (String piece : material.columnNames()) schema = schema.add(piece, DataTypes.StringType, false);
        if (withResult) schema = schema.add("result", DataTypes.StringType, false);
        return schema
                .add("dtm", DataTypes.IntegerType, withResult)
                .add("best_move", DataTypes.StringType, true)
                .add("fen", DataTypes.StringType, false);
    }

    /** The rows of an indexed table's entries from index {@code lo} (packed-file layout): every canonical legal position, both sides. */
    public static Iterator<Row> of(PositionIndex index, long lo, byte[] entries) {
        Material material = index.material();
        MoveGenerator gen = new MoveGenerator(material);
        int n = material.size();
        return java.util.stream.IntStream.range(0, entries.length / 2)
                .filter(e -> (entries[2 * e] & 0xFF) != SolvedTable.NONE)
                .mapToObj(e -> {
                    long i = lo + e / 2;
                    int s = e & 1, result = entries[2 * e] & 0xFF, rank = entries[2 * e + 1] & 0xFF, ply = result - 1;
                    Position p = index.position(i, s == 0 ? Color.WHITE : Color.BLACK);
                    Object[] values = new Object[n + 6];
                    values[0] = i;
                    values[1] = String.valueOf(p.sideToMove().fenLetter());
                    for (int k = 0; k < n; k++) values[2 + k] = Square.name(p.square(k));
                    values[n + 2] = result == SolvedTable.DRAW ? "draw" : ply % 2 == 1 ? "win" : "loss";
                    values[n + 3] = result == SolvedTable.DRAW ? null : (ply + 1) / 2;
                    if (rank != IndexedTable.NO_MOVE) {
                        int[] moves = new int[256];
                        gen.sortedLegalMoves(p.squares(), s, moves);
                        values[n + 4] = Square.name(MoveGenerator.from(moves[rank])) + Square.name(MoveGenerator.to(moves[rank]));
                    }
                    values[n + 5] = Fen.of(p);
                    return RowFactory.create(values);
                }).iterator();
    }

    /** The rows of one partition's block, made one at a time as the writer asks (a block holds millions). */
    public static Iterator<Row> of(LoneKingRules rules, PlacementBlock block) {
        return new Iterator<>() {
            private final int whites = rules.whitePieces();
            private final int[] squares = new int[whites + 1];
            /** Next cell to look at: (row * 64 + Black king square) * 2 + side. */
            private long cell;
            private Row next = advance();

            @Override public boolean hasNext() { return next != null; }

            @Override public Row next() {
                if (next == null) throw new java.util.NoSuchElementException();
                Row row = next;
                next = advance();
                return row;
            }

            private Row advance() {
                for (; cell < (long) block.size() * 128; cell++) {
                    int i = (int) (cell >>> 7), bk = (int) (cell >>> 1) & 63;
                    Color side = (cell & 1) == 0 ? Color.WHITE : Color.BLACK;
                    long placement = block.placement(i);
                    if (side == Color.WHITE) {
                        int dtm = block.whiteDtm(i, bk);
                        if (dtm == 0) continue;
                        place(placement, bk);
                        int move = block.whiteMove(i, bk);
                        cell++;
                        return row(rules, squares, placement, side, dtm, Square.name(squares[move >>> 6]) + Square.name(move & 63));
                    }
                    int lost = block.blackDtm(i, bk);
                    if (lost < 0) continue;
                    place(placement, bk);
                    int reply = lost == 0 ? -1 : longestDefence(rules, block, i, bk);
                    cell++;
                    return row(rules, squares, placement, side, lost, reply < 0 ? null : Square.name(bk) + Square.name(reply));
                }
                return null;
            }

            private void place(long placement, int bk) {
                for (int p = 0; p < whites; p++) squares[p] = rules.square(placement, p);
                squares[whites] = bk;
            }
        };
    }

    /** Black's reply from a lost position that leaves White the longest mate (lowest square on ties). */
    static int longestDefence(LoneKingRules rules, PlacementBlock block, int i, int bk) {
        long placement = block.placement(i);
        int best = -1, bestDtm = -1;
        for (long t = Attacks.king(bk) & rules.blackKingTargets(placement); t != 0; t &= t - 1) {
            int to = Long.numberOfTrailingZeros(t);
            int dtm = block.whiteDtm(i, to);
            if (dtm > bestDtm) { bestDtm = dtm; best = to; }
        }
        return best;
    }

    private static Row row(LoneKingRules rules, int[] squares, long placement, Color side, int dtm, String move) {
        Object[] values = new Object[squares.length + 5];
        values[0] = rules.positionKey(placement, squares[squares.length - 1], side);
        values[1] = String.valueOf(side.fenLetter());
        for (int p = 0; p < squares.length; p++) values[2 + p] = Square.name(squares[p]);
        values[squares.length + 2] = dtm;
        values[squares.length + 3] = move;
        values[squares.length + 4] = Fen.of(rules.material(), squares, side);
        return RowFactory.create(values);
    }
}
