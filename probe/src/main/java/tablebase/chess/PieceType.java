package tablebase.chess;

/** The six piece types, in the order a material lists them; the letter is FEN's (upper case) and SAN's. */
public enum PieceType {
    KING('K'), QUEEN('Q'), ROOK('R'), BISHOP('B'), KNIGHT('N'), PAWN('P');

    /** What a pawn may promote to, in the order moves list them. */
    public static final PieceType[] PROMOTIONS = {QUEEN, ROOK, BISHOP, KNIGHT};

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
