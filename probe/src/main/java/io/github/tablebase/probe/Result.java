package io.github.tablebase.probe;

/**
 * A position's result, spelled one way in the engine, the files, the readers, the exports and the tests.
 *
 * <p>As a <em>code</em> (the packed file's result byte, the engine's slices and blocks): {@link #NONE} (no
 * canonical legal position), {@link #DRAW}, or {@code ply + 1}. As a <em>ply</em> (the readers' answers): -1 for a
 * draw, else the plies to mate, even when the side to move is lost (checkmated after {@code ply / 2} moves of the
 * opponent; 0, checkmated now) and odd when it wins (it mates in {@code (ply + 1) / 2}). A code is its ply plus one,
 * a draw's included. A byte holds codes up to {@code MAX_PLY + 1}; later plies are listed beside the bytes
 * ({@link LatePlies}).
 */
public final class Result {
    /** No canonical legal position (the byte 255), and a draw. */
    public static final int NONE = -1, DRAW = 0;
    /** The deepest ply a result byte holds. */
    public static final int MAX_PLY = 253;

    private Result() {}

    /** The code of a ply (-1, a draw, is {@link #DRAW}). */
    public static int code(int ply) { return ply + 1; }

    /** The ply of a code (a draw's is -1). */
    public static int ply(int code) { return code - 1; }

    /**
     * A position's result from those its moves lead to, the opponent to move there: a win one ply after the
     * opponent's quickest loss, else a draw if a move draws, else a loss one ply after the opponent's longest win.
     * Moves are added as codes ({@link #add}) or as plies ({@link #addPly}); the answer reads either way.
     */
    public static final class Fold {
        private int quickestLoss = Integer.MAX_VALUE, longestWin = -1; // codes
        private boolean drawn;

        /** Adds a move that leads to a position of result code {@code after}. */
        public void add(int after) {
            if (after == DRAW) drawn = true;
            else if ((after - 1) % 2 == 0) quickestLoss = Math.min(quickestLoss, after); // the opponent is lost there
            else longestWin = Math.max(longestWin, after);
        }

        /** Adds a move that leads to a position of ply {@code after} (-1, a draw). */
        public void addPly(int after) { add(code(after)); }

        /** Adds the moves of a position whose own result code (the same side to move) is {@code result}. */
        public void addBest(int result) { add(result == DRAW ? DRAW : result - 1); }

        /** Whether some move wins. */
        public boolean wins() { return quickestLoss != Integer.MAX_VALUE; }

        public boolean draws() { return drawn; }

        /** Whether some move loses. */
        public boolean loses() { return longestWin >= 0; }

        /** The code after the quickest winning move: the ply it wins at. */
        public int winPly() { return quickestLoss; }

        /** The ply the longest losing move loses at. */
        public int lossPly() { return longestWin; }

        /** The result code, the moves added being all of the position's (at least one). */
        public int result() {
            if (wins()) return quickestLoss + 1;
            if (drawn) return DRAW;
            return longestWin + 1;
        }

        /** The result as a ply. */
        public int ply() { return Result.ply(result()); }
    }
}
