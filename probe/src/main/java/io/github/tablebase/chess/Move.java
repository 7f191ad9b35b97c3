package io.github.tablebase.chess;

/**
 * A move of piece {@code piece} (its index in the position's material); {@code captured} is the taken piece's index,
 * or -1 (en passant: the pawn beside, not on {@code to}); {@code promotion} the piece a pawn becomes, or null.
 */
public record Move(int piece, int from, int to, int captured, PieceType promotion) {
    public Move(int piece, int from, int to, int captured) { this(piece, from, to, captured, null); }

    public boolean isCapture() { return captured >= 0; }

    @Override public boolean equals(Object o) { // see MaterialChange.Key
        return o instanceof Move m && m.piece == piece && m.from == from && m.to == to && m.captured == captured && m.promotion == promotion;
    }

    @Override public int hashCode() {
        return (((piece * 64 + from) * 64 + to) * 16 + captured + 1) * 8 + (promotion == null ? 7 : promotion.ordinal());
    }

    /** UCI notation: "b1c3", "e7e8q". */
    public String uci() { return uci(from, to, promotion); }

    /** The move in UCI ({@link #uci}), as a chess program prints it; the pieces' indexes are this record's fields. */
    @Override public String toString() { return uci(); }

    /** The UCI notation of a move from {@code from} to {@code to}, promoting to {@code promotion} or null. */
    public static String uci(int from, int to, PieceType promotion) {
        String uci = Square.name(from) + Square.name(to);
        return promotion == null ? uci : uci + Character.toLowerCase(promotion.letter());
    }
}
