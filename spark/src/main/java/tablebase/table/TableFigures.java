package tablebase.table;

import java.io.Serializable;
import tablebase.chess.Color;
import tablebase.chess.PositionIndex;

/**
 * What the driver keeps of a solved table: its counts by side to move (0 White, 1 Black) and ply, the draws in slot
 * {@code MAX_PLY + 1}, of canonical entries and of the positions they stand for ({@link PositionIndex#positions}),
 * summed from each block's on the executors.
 */
public record TableFigures(long[][] entries, long[][] positions) implements Serializable {
    /** The figures of a block of result bytes from index {@code lo} ({@code 2 * (index - lo) + side}): a kernel of the hand-off. */
    public static TableFigures of(PositionIndex index, long lo, byte[] results) {
        long[][] entries = new long[2][SolvedTable.MAX_PLY + 2], positions = new long[2][SolvedTable.MAX_PLY + 2];
        int[] squares = new int[index.material().size()];
        for (int k = 0; k < results.length; k++) {
            int r = results[k] & 0xFF;
            if (r == SolvedTable.NONE) continue;
            int slot = r == SolvedTable.DRAW ? SolvedTable.MAX_PLY + 1 : r - 1;
            entries[k & 1][slot]++;
            positions[k & 1][slot] += index.positions(lo + (k >>> 1), squares);
        }
        return new TableFigures(entries, positions);
    }

    /** The figures of two blocks together. */
    public TableFigures plus(TableFigures other) {
        long[][] e = new long[2][], p = new long[2][];
        for (int s = 0; s < 2; s++) {
            e[s] = entries[s].clone();
            p[s] = positions[s].clone();
            for (int q = 0; q < e[s].length; q++) {
                e[s][q] += other.entries[s][q];
                p[s][q] += other.positions[s][q];
            }
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
        for (long[] side : entries) for (int q = 0; q <= SolvedTable.MAX_PLY; q++) if (side[q] > 0) max = Math.max(max, q);
        return max;
    }

    /** The longest win of {@code side} to move, in its own moves (mate in 1 = 1), 0 when it never wins. */
    public int longestWin(Color side) {
        long[] counts = entries[side == Color.WHITE ? 0 : 1];
        for (int ply = SolvedTable.MAX_PLY; ply >= 1; ply--) if (ply % 2 == 1 && counts[ply] > 0) return (ply + 1) / 2;
        return 0;
    }
}
