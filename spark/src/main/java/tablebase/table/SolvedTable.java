package tablebase.table;

import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;
import tablebase.probe.IndexedTable;

/**
 * A solved table as the engine hands it to the exports, the probe and bigger tables: one result byte per
 * index and side to move, at {@code 2 * index + side} (side 0 White to move, 1 Black), coded as in the packed
 * file: {@link #DRAW}, {@link #NONE} (no canonical legal position), or {@code ply + 1}, where {@code ply} is even
 * when the side to move is lost (mated after {@code ply / 2} moves of the opponent) and odd when it wins (mates
 * in {@code (ply + 1) / 2}).
 */
public record SolvedTable(Material material, byte[] results, double seconds) {
    public static final int DRAW = IndexedTable.DRAW, NONE = IndexedTable.NONE;
    /** The deepest ply a result byte holds. */
    public static final int MAX_PLY = 253;

    public PositionIndex index() { return new PositionIndex(material); }

    /** The result byte of an entry, 0..255. */
    public int result(long index, int side) { return results[(int) (2 * index + side)] & 0xFF; }

    /** The ply of an entry: even the side to move is lost, odd it wins; -1 a draw, -2 no canonical legal position. */
    public int ply(long index, int side) {
        int r = result(index, side);
        return r == NONE ? -2 : r == DRAW ? -1 : r - 1;
    }

    /** Entries per side (0 White, 1 Black) and ply; the draws in slot {@code MAX_PLY + 1}. */
    public long[][] plyCounts() { return counts(false); }

    /**
     * Like {@link #plyCounts}, but counting positions: each canonical entry weighted by the positions it stands for
     * ({@link PositionIndex#positions}).
     */
    public long[][] positionCounts() { return counts(true); }

    private long[][] counts(boolean weighted) {
        PositionIndex index = index();
        int[] squares = new int[material.size()];
        long[][] counts = new long[2][MAX_PLY + 2];
        for (int k = 0; k < results.length; k++) {
            int r = results[k] & 0xFF;
            if (r != NONE) counts[k & 1][r == DRAW ? MAX_PLY + 1 : r - 1] += weighted ? index.positions(k >>> 1, squares) : 1;
        }
        return counts;
    }

    /** The canonical legal positions, both sides to move. */
    public long positions() {
        long n = 0;
        for (byte r : results) if ((r & 0xFF) != NONE) n++;
        return n;
    }

    /** The deepest ply decided. */
    public int maxPly() {
        int max = 0;
        for (byte r : results) if ((r & 0xFF) != NONE && (r & 0xFF) != DRAW) max = Math.max(max, (r & 0xFF) - 1);
        return max;
    }

    /** The longest win of {@code side} to move, in its own moves (mate in 1 = 1), 0 when it never wins. */
    public int longestWin(Color side) {
        long[] counts = plyCounts()[side == Color.WHITE ? 0 : 1];
        for (int ply = MAX_PLY; ply >= 1; ply -= 1) if (ply % 2 == 1 && counts[ply] > 0) return (ply + 1) / 2;
        return 0;
    }
}
