package io.github.tablebase.table;

import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A table's {@link Dtz} codes, a {@code short} an entry ({@code 2 * index + side}), in arrays of at most
 * 2^{@link #SEGMENT_BITS} entries each, so that a table past Java's int range (every 6-piece table with four or more
 * kinds of piece) is held as the smaller ones are. An entry may be set once by compare and set from any thread.
 */
public final class DtzCodes implements EntryResults, Serializable {
    /** Entries an array holds, as a power of two: 2 GB arrays, which the collector places in a heap of a few. */
    public static final int SEGMENT_BITS = 30;
    private static final VarHandle CODE = MethodHandles.arrayElementVarHandle(short[].class);

    private final long size;
    private final int bits;
    private final long mask;
    private final short[][] segments;

    /** {@code size} entries, every code 0, in arrays of 2^{@code bits} entries. */
    public DtzCodes(long size, int bits) {
        if (bits < 1 || bits > SEGMENT_BITS) throw new IllegalArgumentException("segments of 2^" + bits + " entries");
        this.size = size;
        this.bits = bits;
        mask = (1L << bits) - 1;
        int n = (int) ((size + mask) >>> bits);
        segments = new short[n][];
        for (int s = 0; s < n; s++) segments[s] = new short[(int) Math.min(1L << bits, size - ((long) s << bits))];
    }

    public DtzCodes(long size) { this(size, SEGMENT_BITS); }

    public long size() { return size; }

    /** The code of entry {@code e}. */
    public int get(long e) { return segments[(int) (e >>> bits)][(int) (e & mask)]; }

    @Override public int result(long entry) { return get(entry); }

    /** Sets entry {@code e}'s code (a value of a short). */
    public void set(long e, int code) { segments[(int) (e >>> bits)][(int) (e & mask)] = (short) code; }

    /** Sets entry {@code e} to {@code code} where it still holds {@code expected}, atomically; whether it did. */
    public boolean compareAndSet(long e, int expected, int code) {
        return CODE.compareAndSet(segments[(int) (e >>> bits)], (int) (e & mask), (short) expected, (short) code);
    }
}
