package tablebase.generate;

import tablebase.chess.Color;

/**
 * What one half-move of the retrograde iteration found: positions of {@code side} to move first decided
 * at {@code depth} (White wins in {@code depth}, or Black is lost in {@code depth}), the running totals,
 * the time it took and what it shuffled (White un-move rows, and bytes).
 */
public record HalfMove(Color side, int depth, long newPositions, long whiteWonTotal, long blackLostTotal,
                       double seconds, long shuffledRows, long shuffledBytes) {
    public String progressLine() {
        return String.format("%-5s depth %2d  new %,10d  won(w) %,11d  lost(b) %,11d  %6.2f s  shuffled %,d rows",
                side == Color.WHITE ? "white" : "black", depth, newPositions, whiteWonTotal, blackLostTotal,
                seconds, shuffledRows);
    }
}
