package tablebase.table;

/**
 * The result (see {@link SolvedTable}) of a position from those its moves lead to: a win one ply after the
 * quickest loss of the opponent, else a draw if a move draws, else a loss one ply after the opponent's longest win.
 */
public final class ResultFold {
    private int quickestLoss = Integer.MAX_VALUE, longestWin = -1;
    private boolean drawn;

    /** Adds a move that leads to a position of result {@code after}, the opponent to move there. */
    public void add(int after) {
        if (after == SolvedTable.DRAW) drawn = true;
        else if ((after - 1) % 2 == 0) quickestLoss = Math.min(quickestLoss, after); // the opponent is lost there
        else longestWin = Math.max(longestWin, after);
    }

    /** Adds the moves of a position whose own result (the same side to move) is {@code result}. */
    public void addBest(int result) { add(result == SolvedTable.DRAW ? SolvedTable.DRAW : result - 1); }

    /** Whether some move wins. */
    public boolean wins() { return quickestLoss != Integer.MAX_VALUE; }

    public boolean draws() { return drawn; }

    /** Whether some move loses. */
    public boolean loses() { return longestWin >= 0; }

    /** The byte after the quickest winning move: the ply it wins at. */
    public int winPly() { return quickestLoss; }

    /** The ply the longest losing move loses at. */
    public int lossPly() { return longestWin; }

    /** The result, the moves added being all of the position's (at least one). */
    public int result() {
        if (wins()) return quickestLoss + 1;
        if (drawn) return SolvedTable.DRAW;
        return longestWin + 1;
    }
}
