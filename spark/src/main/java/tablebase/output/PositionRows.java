package tablebase.output;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import tablebase.chess.Move;
import tablebase.chess.MoveGenerator;
import tablebase.chess.PositionIndex;
import tablebase.table.SolvedTable;

/**
 * A solved table as Parquet rows, one schema for every endgame: one row per canonical legal position and side to
 * move, draws included, in small integer columns sorted by key (what a row holds, not how SQL shows it: the views of
 * {@link TableView} compute the squares, result, DTM, UCI move and FEN from them).
 *
 * <p>Columns: {@code key} (the {@link PositionIndex} index), {@code side} (0 White to move, 1 Black), {@code ply}
 * (null for a draw; else even when the side to move is lost, mated after {@code ply / 2} moves, odd when it mates in
 * {@code (ply + 1) / 2}), {@code move} (the best move's {@link #moveCode}, null for none) and {@code positions}, how
 * many positions the row stands for (its distinct images under the board's symmetries).
 */
public final class PositionRows {
    private PositionRows() {}

    /** The stored schema, the same for every endgame. */
    public static StructType schema() {
        return new StructType()
                .add("key", DataTypes.LongType, false)
                .add("side", DataTypes.ByteType, false)
                .add("ply", DataTypes.ShortType, true)
                .add("move", DataTypes.ShortType, true)
                .add("positions", DataTypes.ByteType, false);
    }

    /**
     * A best move in 15 bits: {@link MoveGenerator}'s from- and to-square bits as they are, then its
     * {@link MoveGenerator#promotionCode} (the moving piece left out).
     */
    static short moveCode(int move) {
        return (short) (MoveGenerator.from(move) << 6 | MoveGenerator.to(move) | MoveGenerator.promotionCode(move) << 12);
    }

    /** The {@link #moveCode} of no move. */
    static final short NO_MOVE = -1;

    /** A {@link #moveCode} in UCI: {@code e7e8q}. */
    static String uci(short code) {
        return Move.uci(MoveGenerator.from(code), MoveGenerator.to(code), MoveGenerator.promotedPiece(code >>> 12));
    }

    private static final Byte[] SIDES = {(byte) 0, (byte) 1};

    /**
     * The rows of a block of a table from index {@code lo}: every canonical legal position, both sides, with its
     * result from {@code results} and its best move from {@code bestMoves} (the block's result bytes and
     * {@link #moveCode}s, {@code 2 * (index - lo) + side}).
     */
    public static Iterator<Row> of(PositionIndex index, long lo, byte[] results, short[] bestMoves) {
        int[] squares = new int[index.material().size()];
        return LongStream.range(lo, lo + bestMoves.length / 2).boxed().flatMap(i -> {
            int at = (int) (2 * (i - lo));
            if ((results[at] & 0xFF) == SolvedTable.NONE && (results[at + 1] & 0xFF) == SolvedTable.NONE) return Stream.empty();
            index.decode(i, squares);
            byte positions = (byte) index.positions(i, squares);
            List<Row> rows = new ArrayList<>(2);
            for (int s = 0; s < 2; s++) {
                int result = results[at + s] & 0xFF;
                short move = bestMoves[at + s];
                if (result == SolvedTable.NONE) continue;
                rows.add(RowFactory.create(i, SIDES[s], result == SolvedTable.DRAW ? null : (short) (result - 1), move == NO_MOVE ? null : move, positions));
            }
            return rows.stream();
        }).iterator();
    }
}
