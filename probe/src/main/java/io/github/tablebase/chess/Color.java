package io.github.tablebase.chess;

/** A side: White or Black, the side to move or the owner of a piece; its ordinal (0 White, 1 Black) indexes per-side arrays. */
public enum Color {
    WHITE('w'), BLACK('b');

    private final char fenLetter;

    Color(char fenLetter) { this.fenLetter = fenLetter; }

    /** "w" or "b", as in FEN's side-to-move field. */
    public char fenLetter() { return fenLetter; }

    /** The other side. */
    public Color opponent() { return this == WHITE ? BLACK : WHITE; }
}
