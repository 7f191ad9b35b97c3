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
import tablebase.chess.MoveGenerator;
import tablebase.chess.PositionIndex;
import tablebase.chess.Square;
import tablebase.probe.IndexedTable;
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
     * The rows of a block of a table from index {@code lo}: every canonical legal position, both sides, with its
     * result from {@code results} (the whole table's, {@code 2 * index + side}) and its best move from {@code bestMoves}
     * (the block's, {@code 2 * (index - lo) + side}).
     */
    public static Iterator<Row> of(PositionIndex index, long lo, byte[] results, byte[] bestMoves) {
        Material material = index.material();
        MoveGenerator gen = new MoveGenerator(material);
        int n = material.size();
        int[] squares = new int[n], moves = new int[256];
        return LongStream.range(lo, lo + bestMoves.length / 2).boxed().flatMap(i -> {
            int at = (int) (2 * i);
            if ((results[at] & 0xFF) == SolvedTable.NONE && (results[at + 1] & 0xFF) == SolvedTable.NONE) return Stream.empty();
            index.decode(i, squares);
            int positions = index.positions(i, squares); // decodes again into squares only on a symmetric king pair
            List<Row> rows = new ArrayList<>(2);
            for (int s = 0; s < 2; s++) {
                int result = results[at + s] & 0xFF, rank = bestMoves[(int) (2 * (i - lo)) + s] & 0xFF, ply = result - 1;
                if (result == SolvedTable.NONE) continue;
                Object[] values = new Object[n + 7];
                values[0] = i;
                values[1] = String.valueOf(s == 0 ? Color.WHITE.fenLetter() : Color.BLACK.fenLetter());
                for (int k = 0; k < n; k++) values[2 + k] = Square.name(squares[k]);
                values[n + 2] = result == SolvedTable.DRAW ? "draw" : ply % 2 == 1 ? "win" : "loss";
                values[n + 3] = result == SolvedTable.DRAW ? null : (ply + 1) / 2;
                if (rank != IndexedTable.NO_MOVE) {
                    gen.sortedLegalMoves(squares, s, moves);
                    tablebase.chess.PieceType promotion = MoveGenerator.promotion(moves[rank]);
                    values[n + 4] = Square.name(MoveGenerator.from(moves[rank])) + Square.name(MoveGenerator.to(moves[rank]))
                            + (promotion == null ? "" : String.valueOf(Character.toLowerCase(promotion.letter())));
                }
                values[n + 5] = Fen.of(material, squares, s == 0 ? Color.WHITE : Color.BLACK);
                values[n + 6] = positions;
                rows.add(RowFactory.create(values));
            }
            return rows.stream();
        }).iterator();
    }
}
