package io.github.tablebase.chess;

/** A coloured piece; its FEN letter is upper case for White, lower case for Black. */
public record Piece(Color color, PieceType type) implements java.io.Serializable {
    @Override public boolean equals(Object o) { return o instanceof Piece p && p.color == color && p.type == type; } // see MaterialChange.Key

    @Override public int hashCode() { return color.ordinal() << 3 | type.ordinal(); }

    public char fenLetter() {
        return color == Color.WHITE ? type.letter() : Character.toLowerCase(type.letter());
    }

    public static Piece fromFenLetter(char c) {
        PieceType type = PieceType.fromLetter(c);
        return new Piece(Character.isUpperCase(c) ? Color.WHITE : Color.BLACK, type);
    }
}
