package tablebase.chess;

public enum Color {
    WHITE('w'), BLACK('b');

    private final char fenLetter;

    Color(char fenLetter) { this.fenLetter = fenLetter; }

    /** "w" or "b", as in FEN's side-to-move field. */
    public char fenLetter() { return fenLetter; }

    public Color opponent() { return this == WHITE ? BLACK : WHITE; }
}
