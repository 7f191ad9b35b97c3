package tablebase.chess;

/** A move of piece {@code piece} (its index in the position's material); {@code captured} is the taken piece's index, or -1. */
public record Move(int piece, int from, int to, int captured) {
    public boolean isCapture() { return captured >= 0; }

    /** UCI notation: "b1c3". */
    public String uci() { return Square.name(from) + Square.name(to); }
}
