package tablebase.generate;

import java.io.Serializable;
import java.util.Arrays;

/**
 * White un-moves bound for one partition, as parallel primitive arrays: the earlier placement, the forward
 * move's code and the Black king squares. Shipping one batch per (source, target) partition pair keeps the
 * shuffle to a few large records that serialize as flat arrays.
 */
final class UnmoveBatch implements Serializable {
    private long[] placements = new long[1024];
    private int[] moves = new int[1024];
    private long[] kings = new long[1024];
    private int size;

    void add(long placement, int move, long kingSquares) {
        if (size == placements.length) {
            placements = Arrays.copyOf(placements, size * 2);
            moves = Arrays.copyOf(moves, size * 2);
            kings = Arrays.copyOf(kings, size * 2);
        }
        placements[size] = placement;
        moves[size] = move;
        kings[size] = kingSquares;
        size++;
    }

    int size() { return size; }

    long placement(int i) { return placements[i]; }

    int move(int i) { return moves[i]; }

    long kings(int i) { return kings[i]; }

    /** Drops the unused tail before the batch is serialized. */
    UnmoveBatch trimmed() {
        placements = Arrays.copyOf(placements, size);
        moves = Arrays.copyOf(moves, size);
        kings = Arrays.copyOf(kings, size);
        return this;
    }
}
