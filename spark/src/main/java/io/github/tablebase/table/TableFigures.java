package io.github.tablebase.table;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.LatePlies;
import io.github.tablebase.probe.Result;
import java.io.Serializable;

/**
 * What the driver keeps of a solved table: its counts by side to move (0 White, 1 Black) and result (by its code,
 * {@link Result}: a draw in slot 0, ply + 1 in slot ply + 1), of canonical entries and of the positions they stand for
 * ({@link PositionIndex#positions}), summed from each block's on the executors.
 */
public record TableFigures(long[][] entries, long[][] positions) implements Serializable {
    /** The figures of a block of result bytes from index {@code lo} ({@code 2 * (index - lo) + side}) and its late plies: a kernel of the hand-off. */
    public static TableFigures of(PositionIndex index, long lo, byte[] results, LatePlies late) {
        int slots = Math.max(Result.MAX_PLY, late.maxPly()) + 2;
        long[][] entries = new long[2][slots], positions = new long[2][slots];
        int[] squares = new int[index.material().size()];
        for (int k = 0; k < results.length; k++) {
            int r = late.result(2 * lo + k, results[k] & 0xFF);
            if (r == Result.NONE) continue;
            entries[k & 1][r]++;
            positions[k & 1][r] += index.positions(lo + (k >>> 1), squares);
        }
        return new TableFigures(entries, positions);
    }

    /** The figures of two blocks together. */
    public TableFigures plus(TableFigures other) {
        int slots = Math.max(entries[0].length, other.entries[0].length);
        long[][] e = new long[2][slots], p = new long[2][slots];
        for (TableFigures f : new TableFigures[] {this, other})
            for (int s = 0; s < 2; s++)
                for (int r = 0; r < f.entries[s].length; r++) {
                    e[s][r] += f.entries[s][r];
                    p[s][r] += f.positions[s][r];
                }
        return new TableFigures(e, p);
    }

    /** The canonical legal positions, both sides to move. */
    public long canonicalPositions() {
        long n = 0;
        for (long[] side : entries) for (long c : side) n += c;
        return n;
    }

    /** The deepest ply decided. */
    public int maxPly() {
        int max = 0;
        for (long[] side : entries) for (int r = 1; r < side.length; r++) if (side[r] > 0) max = Math.max(max, r - 1);
        return max;
    }

    /** The longest win of {@code side} to move, in its own moves (mate in 1 = 1), 0 when it never wins. */
    public int longestWin(Color side) {
        long[] counts = entries[side == Color.WHITE ? 0 : 1];
        for (int r = counts.length - 1; r >= 1; r--) if ((r - 1) % 2 == 1 && counts[r] > 0) return r / 2;
        return 0;
    }
}
