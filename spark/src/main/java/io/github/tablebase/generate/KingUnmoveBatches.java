package io.github.tablebase.generate;

import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import scala.Tuple2;

/**
 * The map side of a ply over partitions: the kings' un-moves of a slice's frontier, the only un-moves that can reach
 * another partition (another king pair), as (partition, batch of keys), made lazily batch by batch: a buffer for each
 * partition the frontier reaches, handed on when full or at the end. A key is {@code (2 * index + side) * 8 + weight -
 * 1} (see {@link TableSlice#unmove}), then whatever {@link Tag} adds of the frontier entry it came from.
 */
final class KingUnmoveBatches implements Iterator<Tuple2<Integer, long[]>> {
    /** Un-move keys per shuffled batch. */
    static final int BATCH = 1 << 15;

    /** What a key carries of the frontier entry {@code e} (of the slice) it came from: the key as shuffled. */
    interface Tag {
        long tagged(int e, long key);
    }

    private final PositionIndex index;
    private final MoveGenerator gen;
    private final int[] partitionOfKingPair, filled, squares, unmoves = new int[256], entries;
    private final long lo;
    private final int count, tableEntries;
    private final Tag tag;
    private final long[][] buffers;
    private final ArrayDeque<Tuple2<Integer, long[]>> ready = new ArrayDeque<>();
    private int next;

    /** The batches of the first {@code count} {@code entries} of the slice from index {@code lo}, its table's entries below {@code tableEntries}. */
    KingUnmoveBatches(PositionIndex index, MoveGenerator gen, int[] partitionOfKingPair, long lo, int tableEntries, int[] entries, int count, Tag tag) {
        this.index = index;
        this.gen = gen;
        this.partitionOfKingPair = partitionOfKingPair;
        this.lo = lo;
        this.tableEntries = tableEntries;
        this.entries = entries;
        this.count = count;
        this.tag = tag;
        int parts = Arrays.stream(partitionOfKingPair).max().orElse(0) + 1;
        buffers = new long[parts][];
        filled = new int[parts];
        squares = new int[index.material().size()];
    }

    @Override public boolean hasNext() {
        while (ready.isEmpty() && next < count) add(entries[next++]);
        if (ready.isEmpty() && next == count) for (int p = 0; p < buffers.length; p++) if (filled[p] > 0) flush(p);
        return !ready.isEmpty();
    }

    /** The kings' un-moves of frontier entry {@code e}, each into its partition's buffer. */
    private void add(int e) {
        if (e >= tableEntries) return; // an en-passant entry's only un-move is its pawn's double push
        int side = e & 1;
        long i = lo + (e >>> 1);
        index.decode(i, squares);
        int selfSymmetries = index.symmetricKingPair(i) ? index.canonicalSymmetries(squares) : 1;
        int n = gen.unmoves(squares, side, true, false, unmoves);
        for (int k = 0; k < n; k++) {
            long key = TableSlice.unmove(index, squares, side, selfSymmetries, unmoves[k]);
            if (key < 0) continue;
            int p = partitionOfKingPair[(int) ((key >>> 4) / index.restSize())];
            if (buffers[p] == null) buffers[p] = new long[BATCH];
            buffers[p][filled[p]++] = tag.tagged(e, key);
            if (filled[p] == BATCH) flush(p);
        }
    }

    private void flush(int p) {
        ready.add(new Tuple2<>(p, Arrays.copyOf(buffers[p], filled[p])));
        filled[p] = 0;
    }

    @Override public Tuple2<Integer, long[]> next() {
        if (!hasNext()) throw new NoSuchElementException();
        return ready.poll();
    }
}
