package tablebase.chess;

import java.io.Serializable;

/**
 * Moves and un-moves of one material on plain square arrays (material order, as {@link PositionIndex#decode}
 * writes them), without allocating: the per-position work of a generator, which makes them by the billion.
 * {@link Position} is the readable form of the same rules; the tests hold the two to each other.
 *
 * <p>A move is coded {@code piece << 12 | from << 6 | to}, {@code piece} the mover's index in the material.
 */
public final class MoveGenerator implements Serializable {
    private final Material material;
    private final PieceType[] types;
    private final int[] colors;
    private final int[] kings = new int[2];

    public MoveGenerator(Material material) {
        if (material.hasPawns()) throw new IllegalArgumentException("the tables' move generator has no pawns yet: " + material);
        this.material = material;
        int n = material.size();
        types = new PieceType[n];
        colors = new int[n];
        for (int i = 0; i < n; i++) {
            types[i] = material.piece(i).type();
            colors[i] = material.piece(i).color() == Color.WHITE ? 0 : 1;
        }
        kings[0] = material.kingIndex(Color.WHITE);
        kings[1] = material.kingIndex(Color.BLACK);
    }

    public Material material() { return material; }

    public static int piece(int move) { return move >>> 12; }

    public static int from(int move) { return move >>> 6 & 63; }

    public static int to(int move) { return move & 63; }

    /** The side (0 White, 1 Black) of piece {@code i}. */
    public int side(int i) { return colors[i]; }

    public boolean isKing(int i) { return types[i] == PieceType.KING; }

    public int king(int side) { return kings[side]; }

    public static long occupied(int[] squares) {
        long occ = 0;
        for (int sq : squares) occ |= 1L << sq;
        return occ;
    }

    /** The index of the piece on {@code sq}, or -1. */
    public static int pieceAt(int[] squares, int sq) {
        for (int i = 0; i < squares.length; i++) if (squares[i] == sq) return i;
        return -1;
    }

    /** Whether a piece of {@code side}, other than piece {@code skip} (a captured one, or -1), attacks {@code target}. */
    public boolean attacked(int[] squares, long occupied, int target, int side, int skip) {
        for (int i = 0; i < squares.length; i++)
            if (colors[i] == side && i != skip && Attacks.attacks(types[i], squares[i], target, occupied)) return true;
        return false;
    }

    /** Whether the side not to move is in check (the position cannot occur); the kings never touch in an index. */
    public boolean opponentInCheck(int[] squares, int sideToMove) {
        return attacked(squares, occupied(squares), squares[kings[1 - sideToMove]], sideToMove, -1);
    }

    public boolean inCheck(int[] squares, int sideToMove) {
        return attacked(squares, occupied(squares), squares[kings[sideToMove]], 1 - sideToMove, -1);
    }

    /** Writes the legal moves of {@code side} into {@code out} (room for 256) and returns how many; the position must be legal. */
    public int legalMoves(int[] squares, int side, int[] out) {
        long occ = occupied(squares);
        int n = 0;
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] != side) continue;
            int from = squares[i];
            for (long t = Attacks.of(types[i], from, occ); t != 0; t &= t - 1) {
                int to = Long.numberOfTrailingZeros(t);
                int victim = (occ & 1L << to) == 0 ? -1 : pieceAt(squares, to);
                if (victim >= 0 && (colors[victim] == side || types[victim] == PieceType.KING)) continue;
                long after = occ ^ 1L << from | 1L << to;
                int king = i == kings[side] ? to : squares[kings[side]];
                squares[i] = to;
                boolean safe = !attacked(squares, after, king, 1 - side, victim);
                squares[i] = from;
                if (safe) out[n++] = i << 12 | from << 6 | to;
            }
        }
        return n;
    }

    /** {@link #legalMoves} sorted by from-square, then to-square: the order in which a packed file ranks a best move. */
    public int sortedLegalMoves(int[] squares, int side, int[] out) {
        int n = legalMoves(squares, side, out);
        for (int k = 0; k < n; k++) out[k] = (out[k] & 0xFFF) << 4 | piece(out[k]);
        java.util.Arrays.sort(out, 0, n);
        for (int k = 0; k < n; k++) out[k] = (out[k] & 15) << 12 | out[k] >>> 4;
        return n;
    }

    /**
     * Writes the un-moves into {@code out} (room for 256): every legal position one non-capturing half-move
     * earlier, where a piece of the side that just moved (not {@code sideToMove}) steps back to an empty square
     * it attacks (pawnless moves are reversible). Each is coded as a move from the earlier position:
     * {@code piece << 12 | origin << 6 | square now}. With {@code kingsToo} false the kings' un-moves are left out,
     * with {@code others} false the other pieces'.
     */
    public int unmoves(int[] squares, int sideToMove, boolean kingsToo, boolean others, int[] out) {
        int mover = 1 - sideToMove;
        long occ = occupied(squares);
        int waitingKing = squares[kings[sideToMove]], n = 0;
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] != mover || (i == kings[mover] ? !kingsToo : !others)) continue;
            int now = squares[i];
            for (long o = Attacks.of(types[i], now, occ) & ~occ; o != 0; o &= o - 1) {
                int origin = Long.numberOfTrailingZeros(o);
                if (i == kings[mover] && Square.distance(origin, waitingKing) <= 1) continue;
                squares[i] = origin;
                // earlier, the mover was to move: the waiting side's king must not have been in check
                boolean legal = !attacked(squares, occ ^ 1L << now | 1L << origin, waitingKing, mover, -1);
                squares[i] = now;
                if (legal) out[n++] = i << 12 | origin << 6 | now;
            }
        }
        return n;
    }
}
