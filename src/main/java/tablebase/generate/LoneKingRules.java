package tablebase.generate;

import java.io.Serializable;
import java.util.List;
import tablebase.chess.Attacks;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.PieceType;
import tablebase.chess.Square;

/**
 * The chess rules of an endgame of White pieces against a lone Black king, worked on a whole
 * <em>placement</em> at once: the squares of White's pieces (the low bits of the position key) and
 * the set of Black king squares as a 64-bit mask. One bitwise step answers a question for all 64
 * Black king squares together, which is what keeps the Spark job's rows few and small.
 *
 * <p>Supported: material where any capture by the Black king leaves a draw (White has one piece, or
 * two minor pieces), so a capture is always an escape and no smaller table is needed. White moves are
 * coded {@code piece << 6 | to}, which fits the byte {@link PlacementBlock} stores them in.
 */
public final class LoneKingRules implements Serializable {
    private final Material material;
    private final PieceType[] white;
    /** sameAsNext[i]: piece i and i+1 are identical, so their squares are kept ascending. */
    private final boolean[] sameAsNext;

    public LoneKingRules(Material material) {
        String why = unsupportedReason(material);
        if (why != null) throw new IllegalArgumentException(why);
        this.material = material;
        int n = material.count(Color.WHITE);
        white = new PieceType[n];
        sameAsNext = new boolean[n];
        for (int i = 0; i < n; i++) {
            white[i] = material.piece(i).type();
            sameAsNext[i] = i + 1 < n && material.piece(i).equals(material.piece(i + 1));
        }
    }

    /** Endgames this generator solves today, for error messages. */
    public static final List<String> SUPPORTED = List.of("KQK", "KRK", "KBK", "KNK", "KBBK", "KBNK", "KNNK");

    /** Why this material cannot be generated yet, or null when it can. */
    public static String unsupportedReason(Material material) {
        long minors = material.pieces().stream().filter(p -> p.color() == Color.WHITE && p.type().isMinor()).count();
        int whitePieces = material.count(Color.WHITE) - 1;
        boolean ok = material.count(Color.BLACK) == 1 && (whitePieces == 1 || (whitePieces == 2 && minors == 2));
        return ok ? null : "endgame " + material.name() + " is not supported yet; supported: " + String.join(", ", SUPPORTED);
    }

    public Material material() { return material; }

    public int whitePieces() { return white.length; }

    /** Number of placement codes: 64 to the power of White's piece count. */
    public long placementSpace() { return 1L << (6 * white.length); }

    public int square(long placement, int piece) { return (int) (placement >>> (6 * piece)) & 63; }

    /** A placement is valid when White's pieces stand on distinct squares, identical pieces in ascending order. */
    public boolean isValid(long placement) {
        long occ = 0;
        for (int i = 0; i < white.length; i++) {
            int sq = square(placement, i);
            if ((occ & Attacks.bit(sq)) != 0) return false;
            if (sameAsNext[i] && sq > square(placement, i + 1)) return false;
            occ |= Attacks.bit(sq);
        }
        return true;
    }

    public long occupied(long placement) {
        long occ = 0;
        for (int i = 0; i < white.length; i++) occ |= Attacks.bit(square(placement, i));
        return occ;
    }

    /** Squares White attacks; the Black king never blocks, since it is the one being attacked or moving away. */
    public long attacks(long placement) {
        long occ = occupied(placement), attacks = 0;
        for (int i = 0; i < white.length; i++) attacks |= Attacks.of(white[i], square(placement, i), occ);
        return attacks;
    }

    /** Black king squares giving a legal White-to-move position: empty and not attacked (so not next to White's king). */
    public long whiteToMoveLegal(long placement) {
        return ~(occupied(placement) | attacks(placement));
    }

    /** Black king squares giving a legal Black-to-move position: empty and not next to White's king. */
    public long blackToMoveLegal(long placement) {
        return ~(occupied(placement) | Attacks.king(square(placement, 0)));
    }

    /** Squares the Black king may step to: not attacked; an undefended piece's square is a capture, hence a draw. */
    public long blackKingTargets(long placement) { return ~attacks(placement); }

    public long checkmates(long placement) {
        long targets = blackKingTargets(placement);
        return blackToMoveLegal(placement) & attacks(placement) & ~Attacks.kingNeighbours(targets);
    }

    public long stalemates(long placement) {
        long targets = blackKingTargets(placement);
        return blackToMoveLegal(placement) & ~attacks(placement) & ~Attacks.kingNeighbours(targets);
    }

    /**
     * Black-to-move squares with at least one legal move where every move enters {@code won}
     * (White-to-move positions already won). Captures never enter {@code won}: they escape.
     */
    public long everyMoveLoses(long placement, long won) {
        long targets = blackKingTargets(placement);
        return blackToMoveLegal(placement) & Attacks.kingNeighbours(targets) & ~Attacks.kingNeighbours(targets & ~won);
    }

    /** Receives one White un-move: the earlier placement, the forward move's code, the Black king squares it applies to. */
    public interface UnmoveSink {
        void accept(long before, int moveCode, long kings);
    }

    /**
     * Every White un-move from the Black-to-move positions {@code (placement, kings)}: a White piece steps
     * back to a square it could have come from. Kept for a king square only when the earlier position is a
     * legal White-to-move position and the king stood neither on the origin nor on the path.
     */
    public void whiteUnmoves(long placement, long kings, UnmoveSink sink) {
        long occ = occupied(placement);
        int[] squares = new int[white.length];
        for (int i = 0; i < white.length; i++) squares[i] = square(placement, i);
        for (int i = 0; i < white.length; i++) {
            int to = squares[i];
            for (long o = Attacks.of(white[i], to, occ) & ~occ; o != 0; o &= o - 1) {
                int from = Long.numberOfTrailingZeros(o);
                long open = kings & ~Attacks.bit(from) & ~Attacks.between(from, to);
                if (open == 0) continue;
                squares[i] = from;
                int mover = canonicalOrder(squares, i);
                long before = encode(squares);
                long legal = open & whiteToMoveLegal(before);
                if (legal != 0) sink.accept(before, mover << 6 | to, legal);
                restore(squares, placement);
            }
        }
    }

    /**
     * How equally good White moves are ordered: the smallest {@code code ^ tieBreakFlip(placement)} is
     * preferred. The flip (7) reads the target square through the file mirror when the first bishop stands
     * on a dark square, so a position and its mirror image prefer mirrored moves, as the packed file's
     * mirror lookup expects; otherwise it is 0 and the smallest code wins.
     */
    public int tieBreakFlip(long placement) {
        for (int i = 0; i < white.length; i++)
            if (white[i] == PieceType.BISHOP) return Square.isLight(square(placement, i)) ? 0 : 7;
        return 0;
    }

    /** The placement after White's move {@code code} from {@code placement}. */
    public long play(long placement, int code) {
        int[] squares = new int[white.length];
        for (int i = 0; i < white.length; i++) squares[i] = square(placement, i);
        squares[code >>> 6] = code & 63;
        canonicalOrder(squares, code >>> 6);
        return encode(squares);
    }

    private void restore(int[] squares, long placement) {
        for (int i = 0; i < white.length; i++) squares[i] = square(placement, i);
    }

    /** Re-sorts identical pieces after piece {@code moved} changed square; returns where it ended up. */
    private int canonicalOrder(int[] squares, int moved) {
        int i = moved;
        while (i + 1 < squares.length && sameAsNext[i] && squares[i] > squares[i + 1]) { swap(squares, i, i + 1); i++; }
        while (i > 0 && sameAsNext[i - 1] && squares[i - 1] > squares[i]) { swap(squares, i - 1, i); i--; }
        return i;
    }

    private static void swap(int[] a, int i, int j) { int t = a[i]; a[i] = a[j]; a[j] = t; }

    private static long encode(int[] squares) {
        long key = 0;
        for (int i = 0; i < squares.length; i++) key |= (long) squares[i] << (6 * i);
        return key;
    }

    /** The full position key (see {@link tablebase.chess.Position}) of a placement, a Black king square and a side to move. */
    public long positionKey(long placement, int blackKing, Color sideToMove) {
        int n = white.length + 1;
        return placement | (long) blackKing << (6 * white.length) | (sideToMove == Color.BLACK ? 1L << (6 * n) : 0);
    }
}
