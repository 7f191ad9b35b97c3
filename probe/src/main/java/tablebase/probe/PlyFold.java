package tablebase.probe;

/**
 * The ply of a position (see {@link IndexedTable}, -1 a draw) from the plies of the positions its moves lead to:
 * a win one ply after the quickest loss among them, else a draw if any is drawn, else a loss one ply after the
 * longest win. A position with no move is checkmate or stalemate, which the caller decides.
 */
final class PlyFold {
    private int quickestLoss = Integer.MAX_VALUE, longestWin = -1;
    private boolean drawn;

    /** One move's ply after it, for the opponent to move. */
    void add(int after) {
        if (after < 0) drawn = true;
        else if (after % 2 == 0) quickestLoss = Math.min(quickestLoss, after);
        else longestWin = Math.max(longestWin, after);
    }

    int ply() {
        if (quickestLoss != Integer.MAX_VALUE) return quickestLoss + 1;
        return drawn ? -1 : longestWin + 1;
    }
}
