package tablebase.generate;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One partition of a general table: the canonical indexes {@code lo..hi-1} of its {@link tablebase.chess.PositionIndex},
 * for both sides to move (side 0 White, 1 Black). Per entry: the ply at which it was decided (even: the side
 * to move is lost, mated after ply / 2 of the opponent's moves; odd: it wins, mating in (ply + 1) / 2), or
 * {@link #UNDECIDED} (a draw once nothing changes any more), or {@link #NONE} (no canonical legal position);
 * the best move as {@code from * 64 + to} in the canonical frame; and what its captures lead to.
 */
public final class IndexBlock implements Serializable {
    public static final short NONE = -2, UNDECIDED = -1, NO_MOVE = -1;

    final long lo, hi;
    final short[][] ply, move;
    /** Smallest ply + 1 over captures reaching a lost position of the smaller table (a win), or -1. */
    final short[][] captureWin, captureWinMove;
    /** Largest ply + 1 over captures reaching a won position of the smaller table, or -1. */
    final short[][] captureLoss, captureLossMove;
    /** Some capture reaches a drawn position (or bare kings): this entry can never be lost. */
    final boolean[][] captureDraw;
    /** Non-capture moves not yet known to reach a position won for the opponent. */
    final short[][] remaining;

    IndexBlock(long lo, long hi) {
        this.lo = lo;
        this.hi = hi;
        int n = (int) (hi - lo);
        ply = new short[2][n];
        move = new short[2][n];
        captureWin = new short[2][n];
        captureWinMove = new short[2][n];
        captureLoss = new short[2][n];
        captureLossMove = new short[2][n];
        captureDraw = new boolean[2][n];
        remaining = new short[2][n];
        for (int s = 0; s < 2; s++) {
            Arrays.fill(move[s], NO_MOVE);
            Arrays.fill(captureWin[s], (short) -1);
            Arrays.fill(captureLoss[s], (short) -1);
        }
    }

    /** A copy whose decisions can change; the capture facts are shared, they never change. */
    private IndexBlock(IndexBlock b) {
        lo = b.lo;
        hi = b.hi;
        ply = new short[][] {b.ply[0].clone(), b.ply[1].clone()};
        move = new short[][] {b.move[0].clone(), b.move[1].clone()};
        remaining = new short[][] {b.remaining[0].clone(), b.remaining[1].clone()};
        captureWin = b.captureWin;
        captureWinMove = b.captureWinMove;
        captureLoss = b.captureLoss;
        captureLossMove = b.captureLossMove;
        captureDraw = b.captureDraw;
    }

    IndexBlock copy() { return new IndexBlock(this); }

    /** A copy with capture facts of its own, to be filled in once (cached blocks are never changed in place). */
    IndexBlock withOwnCaptureFacts() {
        IndexBlock b = new IndexBlock(lo, hi);
        for (int s = 0; s < 2; s++) {
            b.ply[s] = ply[s].clone();
            b.move[s] = move[s].clone();
            b.captureDraw[s] = captureDraw[s].clone();
            b.remaining[s] = remaining[s].clone();
        }
        return b;
    }

    /** A block that knows only its plies, as read back from a packed file: enough to answer captures into it. */
    public static IndexBlock ofPlies(long lo, long hi, short[][] ply) {
        IndexBlock b = new IndexBlock(lo, hi);
        b.ply[0] = ply[0];
        b.ply[1] = ply[1];
        return b;
    }

    public long lo() { return lo; }

    public long hi() { return hi; }

    /** The ply an entry was decided at, {@link #UNDECIDED} or {@link #NONE}. */
    public int ply(long index, int side) { return ply[side][(int) (index - lo)]; }

    public int move(long index, int side) { return move[side][(int) (index - lo)]; }

    long count(int side, int atPly) {
        long n = 0;
        for (short p : ply[side]) if (p == atPly) n++;
        return n;
    }
}
