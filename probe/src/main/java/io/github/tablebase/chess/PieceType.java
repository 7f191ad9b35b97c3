package io.github.tablebase.chess;

/** The six piece types, in the order a material lists them; the letter is FEN's (upper case) and SAN's. */
public enum PieceType {
    KING('K'), QUEEN('Q'), ROOK('R'), BISHOP('B'), KNIGHT('N'), PAWN('P');

    /** What a pawn may promote to, in the order moves list them. */
    public static final PieceType[] PROMOTIONS = {QUEEN, ROOK, BISHOP, KNIGHT};

    /** A promotion's code: 0 none (null), else 1 + its place in {@link #PROMOTIONS} (queen 1 ... knight 4). */
    public static int promotionCode(PieceType promotion) {
        return promotion == null ? 0 : promotion.ordinal(); // QUEEN .. KNIGHT are ordinals 1 .. 4, in PROMOTIONS' order
    }

    private final char letter;

    PieceType(char letter) { this.letter = letter; }

    public char letter() { return letter; }

    /** Minor pieces: a lone one (or two knights) cannot force mate. */
    public boolean isMinor() { return this == BISHOP || this == KNIGHT; }

    public static PieceType fromLetter(char c) {
        for (PieceType t : values()) if (t.letter == Character.toUpperCase(c)) return t;
        throw new IllegalArgumentException("not a piece letter: '" + c + "' (K, Q, R, B, N, P)");
    }
}
