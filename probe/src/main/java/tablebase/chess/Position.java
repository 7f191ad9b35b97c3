package tablebase.chess;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A pawnless position: one square per piece of its {@link Material} (same order) and the side to
 * move. Identical pieces keep their squares in ascending order, so equal positions are equal objects
 * and have equal keys.
 *
 * <p>The key is a {@code long}: piece {@code i}'s square in bits {@code 6i .. 6i+5}, then one bit
 * for the side to move (1 = Black) at bit {@code 6n}, n = number of pieces. Up to ten pieces fit.
 */
public final class Position {
    private final Material material;
    private final int[] squares;
    private final Color sideToMove;

    public Position(Material material, int[] squares, Color sideToMove) {
        if (squares.length != material.size())
            throw new IllegalArgumentException(material + " has " + material.size() + " pieces, not " + squares.length);
        for (int sq : squares) if (sq < 0 || sq > 63) throw new IllegalArgumentException("not a square: " + sq);
        this.material = material;
        this.squares = squares.clone();
        this.sideToMove = sideToMove;
        sortIdenticalPieces();
    }

    public static Position fromKey(Material material, long key) {
        int n = material.size();
        int[] squares = new int[n];
        for (int i = 0; i < n; i++) squares[i] = (int) (key >>> (6 * i)) & 63;
        return new Position(material, squares, ((key >>> (6 * n)) & 1) == 0 ? Color.WHITE : Color.BLACK);
    }

    /** A uniformly random legal position of {@code material} with {@code side} to move (for tests, fuzzing and benchmarks). */
    public static Position randomLegal(Material material, Color side, Random random) {
        int[] squares = new int[material.size()];
        while (true) {
            for (int i = 0; i < squares.length; i++) squares[i] = random.nextInt(64);
            Position p = new Position(material, squares, side);
            if (p.isLegal()) return p;
        }
    }

    public long key() {
        long key = sideToMove == Color.BLACK ? 1L << (6 * squares.length) : 0;
        for (int i = 0; i < squares.length; i++) key |= (long) squares[i] << (6 * i);
        return key;
    }

    public Material material() { return material; }

    public Color sideToMove() { return sideToMove; }

    public int square(int piece) { return squares[piece]; }

    public int[] squares() { return squares.clone(); }

    /** The squares themselves, not a copy, for readers in this package that do not change them (the index of a probe). */
    int[] squaresUnchanged() { return squares; }

    public Piece piece(int index) { return material.piece(index); }

    /** The index of the piece on {@code sq}, or -1. */
    public int pieceAt(int sq) {
        for (int i = 0; i < squares.length; i++) if (squares[i] == sq) return i;
        return -1;
    }

    public long occupied() {
        long occ = 0;
        for (int sq : squares) occ |= Attacks.bit(sq);
        return occ;
    }

    /** Every square the pieces of {@code color} attack. */
    public long attacksBy(Color color) {
        long occ = occupied(), attacks = 0;
        for (int i = 0; i < squares.length; i++)
            if (piece(i).color() == color) attacks |= Attacks.of(piece(i).type(), squares[i], occ);
        return attacks;
    }

    public int kingSquare(Color color) { return squares[material.kingIndex(color)]; }

    public boolean inCheck() {
        return (attacksBy(sideToMove.opponent()) & Attacks.bit(kingSquare(sideToMove))) != 0;
    }

    /** No two pieces on one square: the cheapest part of {@link #illegalReason()}. */
    public boolean piecesApart() { return Long.bitCount(occupied()) == squares.length; }

    public boolean kingsTouch() { return Square.distance(kingSquare(Color.WHITE), kingSquare(Color.BLACK)) <= 1; }

    /** Why the position cannot occur, or null when it is legal. */
    public String illegalReason() {
        for (int i = 0; i < squares.length; i++)
            for (int j = i + 1; j < squares.length; j++)
                if (squares[i] == squares[j]) return "two pieces on " + Square.name(squares[i]);
        if (kingsTouch()) return "the kings touch";
        Color waiting = sideToMove.opponent();
        if ((attacksBy(sideToMove) & Attacks.bit(kingSquare(waiting))) != 0)
            return (waiting == Color.WHITE ? "White" : "Black") + " is in check but it is "
                    + (sideToMove == Color.WHITE ? "White" : "Black") + "'s move";
        return null;
    }

    public boolean isLegal() { return illegalReason() == null; }

    /** Legal moves of the side to move (the position itself must be legal). */
    public List<Move> legalMoves() {
        List<Move> moves = new ArrayList<>();
        long occ = occupied();
        for (int i = 0; i < squares.length; i++) {
            Piece p = piece(i);
            if (p.color() != sideToMove) continue;
            long targets = Attacks.of(p.type(), squares[i], occ);
            for (long t = targets; t != 0; t &= t - 1) {
                int to = Long.numberOfTrailingZeros(t);
                int victim = pieceAt(to);
                if (victim >= 0 && (piece(victim).color() == sideToMove || piece(victim).type() == PieceType.KING)) continue;
                Move m = new Move(i, squares[i], to, victim);
                if (!play(m).leavesMoverInCheck()) moves.add(m);
            }
        }
        return moves;
    }

    public boolean isCheckmate() { return inCheck() && legalMoves().isEmpty(); }

    public boolean isStalemate() { return !inCheck() && legalMoves().isEmpty(); }

    /** The position after {@code move}; a capture removes the taken piece from the material. */
    public Position play(Move move) {
        int[] next = squares.clone();
        next[move.piece()] = move.to();
        if (!move.isCapture()) return new Position(material, next, sideToMove.opponent());
        int[] rest = new int[next.length - 1];
        for (int i = 0, j = 0; i < next.length; i++) if (i != move.captured()) rest[j++] = next[i];
        return new Position(material.without(move.captured()), rest, sideToMove.opponent());
    }

    /**
     * Every legal position one non-capturing half-move earlier: a piece of the side that just moved
     * steps back to a square it could have come from. (Pawnless moves are reversible, so the squares
     * it came from are the squares it attacks.)
     */
    public List<Position> unmoves() {
        List<Position> before = new ArrayList<>();
        Color mover = sideToMove.opponent();
        long occ = occupied();
        for (int i = 0; i < squares.length; i++) {
            if (piece(i).color() != mover) continue;
            long origins = Attacks.of(piece(i).type(), squares[i], occ) & ~occ;
            for (long o = origins; o != 0; o &= o - 1) {
                int[] prev = squares.clone();
                prev[i] = Long.numberOfTrailingZeros(o);
                Position p = new Position(material, prev, mover);
                if (p.isLegal()) before.add(p);
            }
        }
        return before;
    }

    /** The position with every square moved by one of the eight board symmetries (see {@link Square#transform}). */
    public Position transform(int symmetry) {
        int[] t = new int[squares.length];
        for (int i = 0; i < t.length; i++) t[i] = Square.transform(squares[i], symmetry);
        return new Position(material, t, sideToMove);
    }

    /**
     * The symmetries, smallest first, whose images of this position are distinct (the first of each equal pair):
     * how many positions one canonical entry of a pawnless table stands for, fewer than eight when the position is
     * its own mirror image.
     */
    public int[] distinctImages() {
        List<Position> images = new ArrayList<>(8);
        int[] symmetries = new int[8];
        for (int s = 0; s < 8; s++) {
            Position image = transform(s);
            if (images.contains(image)) continue;
            symmetries[images.size()] = s;
            images.add(image);
        }
        return Arrays.copyOf(symmetries, images.size());
    }

    private boolean leavesMoverInCheck() {
        Color mover = sideToMove.opponent();
        return (attacksBy(sideToMove) & Attacks.bit(kingSquare(mover))) != 0;
    }

    private void sortIdenticalPieces() {
        int start = 0;
        for (int i = 1; i <= squares.length; i++) {
            if (i == squares.length || !piece(i).equals(piece(start))) {
                Arrays.sort(squares, start, i);
                start = i;
            }
        }
    }

    @Override public boolean equals(Object o) {
        return o instanceof Position p && p.material.equals(material) && p.sideToMove == sideToMove
                && Arrays.equals(p.squares, squares);
    }

    @Override public int hashCode() { return Long.hashCode(key()) * 31 + material.hashCode(); }

    @Override public String toString() { return Fen.of(this); }
}
