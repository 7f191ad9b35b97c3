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
import tablebase.chess.Color;
import tablebase.chess.Fen;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.MoveGenerator;
import tablebase.chess.PositionIndex;
import tablebase.chess.Square;
import tablebase.table.SolvedTable;

/**
 * A solved table as Parquet rows, the same schema for every endgame: one row per canonical legal position and side
 * to move, draws included.
 *
 * <p>Columns: {@code key} (the {@link PositionIndex} index), {@code stm} ("w"/"b"), one column per piece with its
 * square name ({@code wk, wb, wn, bk} for KBNK, named by {@link Material#columnNames()}), {@code result} ("win",
 * "loss", "draw" for the side to move), {@code dtm} (moves of the side that mates; null for a draw),
 * {@code best_move} (UCI), {@code fen}, and {@code positions}: how many positions the row stands for, its distinct
 * images under the board's symmetries, so that {@code sum(positions)} counts positions.
 */
public final class PositionRows {
    private PositionRows() {}

    public static StructType schema(Material material) {
        StructType schema = new StructType()
                .add("key", DataTypes.LongType, false)
                .add("stm", DataTypes.StringType, false);
        for (String piece : material.columnNames()) schema = schema.add(piece, DataTypes.StringType, false);
        return schema
                .add("result", DataTypes.StringType, false)
                .add("dtm", DataTypes.IntegerType, true)
                .add("best_move", DataTypes.StringType, true)
                .add("fen", DataTypes.StringType, false)
                .add("positions", DataTypes.IntegerType, false);
    }

    /**
     * A best move in 15 bits for a block of rows: {@link MoveGenerator}'s from- and to-square bits as they are,
     * then its {@link MoveGenerator#promotionCode} (the moving piece left out).
     */
    static short moveCode(int move) {
        return (short) (MoveGenerator.from(move) << 6 | MoveGenerator.to(move) | MoveGenerator.promotionCode(move) << 12);
    }

    /** The {@code stm} column's values, White to move then Black. */
    private static final String[] SIDES = {String.valueOf(Color.WHITE.fenLetter()), String.valueOf(Color.BLACK.fenLetter())};

    /** The {@link #moveCode} of no move. */
    static final short NO_MOVE = -1;

    /** A {@link #moveCode} in UCI: {@code e7e8q}. */
    static String uci(short code) {
        return Move.uci(MoveGenerator.from(code), MoveGenerator.to(code), MoveGenerator.promotedPiece(code >>> 12));
    }

    /**
     * The rows of a block of a table from index {@code lo}: every canonical legal position, both sides, with its
     * result from {@code results} and its best move from {@code bestMoves} (the block's result bytes and
     * {@link #moveCode}s, {@code 2 * (index - lo) + side}).
     */
    public static Iterator<Row> of(PositionIndex index, long lo, byte[] results, short[] bestMoves) {
        Material material = index.material();
        int n = material.size();
        int[] squares = new int[n];
        return LongStream.range(lo, lo + bestMoves.length / 2).boxed().flatMap(i -> {
            int at = (int) (2 * (i - lo));
            if ((results[at] & 0xFF) == SolvedTable.NONE && (results[at + 1] & 0xFF) == SolvedTable.NONE) return Stream.empty();
            index.decode(i, squares);
            int positions = index.positions(i, squares); // decodes again into squares only on a symmetric king pair
            List<Row> rows = new ArrayList<>(2);
            for (int s = 0; s < 2; s++) {
                int result = results[at + s] & 0xFF, ply = result - 1;
                short move = bestMoves[at + s];
                if (result == SolvedTable.NONE) continue;
                Object[] values = new Object[n + 7];
                values[0] = i;
                values[1] = SIDES[s];
                for (int k = 0; k < n; k++) values[2 + k] = Square.name(squares[k]);
                values[n + 2] = result == SolvedTable.DRAW ? "draw" : ply % 2 == 1 ? "win" : "loss";
                values[n + 3] = result == SolvedTable.DRAW ? null : (ply + 1) / 2;
                if (move != NO_MOVE) values[n + 4] = uci(move);
                values[n + 5] = Fen.of(material, squares, s == 0 ? Color.WHITE : Color.BLACK);
                values[n + 6] = positions;
                rows.add(RowFactory.create(values));
            }
            return rows.stream();
        }).iterator();
    }
}
