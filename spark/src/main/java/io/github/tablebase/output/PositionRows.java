package io.github.tablebase.output;

import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.LatePlies;
import io.github.tablebase.probe.Result;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A solved table as Parquet rows, one schema for every endgame: one row per canonical legal position and side to
 * move, draws included, in small integer columns sorted by key (what a row holds, not how SQL shows it: the views of
 * {@link TableView} compute the squares, result, DTM, UCI move and FEN from them).
 *
 * <p>Columns: {@code key} (the {@link PositionIndex} index), {@code squares} (the same position as plain integers: piece
 * {@code k} of the material's order, White's king, White's other pieces, Black's king, Black's others, on square
 * {@code squares >> 6 * k & 63}, a1 = 0, b1 = 1, ..., h8 = 63), {@code side} (0 White to move, 1 Black), {@code ply}
 * (null for a draw; else even when the side to move is lost, mated after {@code ply / 2} moves, odd when it mates in
 * {@code (ply + 1) / 2}), {@code move} (the best move's {@link #moveCode}, null for none), {@code positions}, how
 * many positions the row stands for (its distinct images under the board's symmetries), and for a table made with
 * DTZ (else null) {@code dtz}, python-chess's signed DTZ ({@link Dtz#signed}), and {@code wdl}, the five-valued result
 * under the 50-move rule ({@link Dtz#wdl}; -2 with a {@code dtz} of 0 is checkmate).
 */
public final class PositionRows {
    private PositionRows() {}

    /** The stored schema, the same for every endgame. */
    public static StructType schema() {
        return new StructType()
                .add("key", DataTypes.LongType, false)
                .add("squares", DataTypes.LongType, false)
                .add("side", DataTypes.ByteType, false)
                .add("ply", DataTypes.ShortType, true)
                .add("move", DataTypes.ShortType, true)
                .add("positions", DataTypes.ByteType, false)
                .add("dtz", DataTypes.ShortType, true)
                .add("wdl", DataTypes.ByteType, true);
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

    /** Takes the rows of a block one by one: {@code ply} -1 for a draw, {@code move} -1 for none, {@code dtz} a {@link Dtz} code. */
    interface RowSink {
        void row(long key, long squares, int side, int ply, int move, int positions, int dtz) throws java.io.IOException;
    }

    /**
     * The rows of a block of a table from index {@code lo}, in key order: every canonical legal position, both sides,
     * with its result from {@code results} and {@code late}, its best move from {@code bestMoves} (the block's result
     * bytes and {@link #moveCode}s, {@code 2 * (index - lo) + side}, and its plies past a byte's) and its {@link Dtz}
     * code from {@code dtz} by entry {@code 2 * index + side} ({@link Dtz#NONE} where {@code dtz} is null).
     */
    static void forEach(PositionIndex index, long lo, byte[] results, LatePlies late, short[] bestMoves, EntryResults dtz, RowSink sink)
            throws java.io.IOException {
        int[] squares = new int[index.material().size()];
        for (long i = lo; i < lo + bestMoves.length / 2; i++) {
            int at = (int) (2 * (i - lo));
            if (results[at] == (byte) Result.NONE && results[at + 1] == (byte) Result.NONE) continue;
            int positions = index.positions(i, squares);
            index.decode(i, squares);
            long packed = 0;
            for (int k = squares.length - 1; k >= 0; k--) packed = packed << 6 | squares[k];
            for (int s = 0; s < 2; s++) {
                int result = late.result(2 * i + s, results[at + s] & 0xFF);
                if (result == Result.NONE) continue;
                sink.row(i, packed, s, result == Result.DRAW ? -1 : result - 1, bestMoves[at + s], positions, dtz == null ? Dtz.NONE : dtz.result(2 * i + s));
            }
        }
    }
}
