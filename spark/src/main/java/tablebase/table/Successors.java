package tablebase.table;

import java.util.Map;
import tablebase.chess.Material;
import tablebase.chess.MoveGenerator;
import tablebase.chess.PieceType;
import tablebase.chess.PositionIndex;

/**
 * What each move of a position leads to: the result byte (see {@link SolvedTable}) of the position after it, in
 * this table for a quiet move or in the smaller table for a capture (bare kings: a draw). One per thread: it keeps
 * scratch space.
 */
public final class Successors {
    private final PositionIndex index;
    private final MoveGenerator gen;
    private final byte[] own;
    private final PositionIndex[] afterCapture;
    private final byte[][] capturedResults;
    private final int[] after;

    /** {@code own} may be null when only captures are asked; {@code smaller} maps each smaller material to its results. */
    public Successors(Material material, byte[] own, Map<Material, byte[]> smaller) {
        index = new PositionIndex(material);
        gen = new MoveGenerator(material);
        this.own = own;
        afterCapture = new PositionIndex[material.size()];
        capturedResults = new byte[material.size()][];
        for (int i = 0; i < material.size(); i++) {
            Material m = material.without(i);
            if (material.piece(i).type() == PieceType.KING || m.size() == 2) continue;
            capturedResults[i] = smaller.get(m);
            if (capturedResults[i] == null) throw new IllegalArgumentException(material.name() + " needs the " + m.name() + " table");
            afterCapture[i] = new PositionIndex(m);
        }
        after = new int[material.size() - 1];
    }

    /** The result byte, for {@code side} to move there, of the position after {@code move} (a {@link MoveGenerator} code). */
    public int resultAfter(int[] squares, int move, int side) {
        int mover = MoveGenerator.piece(move), to = MoveGenerator.to(move), victim = MoveGenerator.pieceAt(squares, to);
        if (victim < 0) {
            int from = squares[mover];
            squares[mover] = to;
            long i = index.index(squares);
            squares[mover] = from;
            return own[(int) (2 * i + side)] & 0xFF;
        }
        if (capturedResults[victim] == null) return SolvedTable.DRAW;
        for (int k = 0, j = 0; k < squares.length; k++) if (k != victim) after[j++] = k == mover ? to : squares[k];
        long i = afterCapture[victim].index(after);
        int r = capturedResults[victim][(int) (2 * i + side)] & 0xFF;
        if (r == SolvedTable.NONE)
            throw new IllegalStateException("the " + afterCapture[victim].material().name() + " table has no entry " + i + " for a legal position");
        return r;
    }

    /**
     * The rank among {@link MoveGenerator#sortedLegalMoves} of the best move of a position whose result byte is {@code result}, or -1
     * (a draw, checkmate). The winner's first move into a position lost one ply earlier (a fastest mate); the
     * loser's first move into a position won one ply earlier (the longest defence).
     */
    public int bestMoveRank(int[] squares, int side, int result, int[] moves) {
        if (result == SolvedTable.DRAW || result == SolvedTable.NONE || result == 1) return -1;
        int n = gen.sortedLegalMoves(squares, side, moves);
        for (int k = 0; k < n; k++) if (resultAfter(squares, moves[k], 1 - side) == result - 1) return k;
        throw new IllegalStateException("no move of " + index.material().name() + " entry " + index.index(squares)
                + " side " + side + " leads to the ply before its result " + result);
    }
}
