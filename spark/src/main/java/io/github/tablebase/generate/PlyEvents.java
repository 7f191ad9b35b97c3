package io.github.tablebase.generate;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A slice's entries grouped by the ply of their capture event ({@link TableSlice}): each ply's entries kept as the
 * steps from one to the next (signed, zigzag-coded: init adds the table's entries ascending, an en-passant entry
 * after them now and then) in variable-length bytes (seven bits a byte, low bits first), about one byte an event
 * where an {@code int} took four. Filled once by init, then only read: the slices of every ply share it.
 */
final class PlyEvents implements Serializable {
    /** Per ply, its steps' bytes (the first step from 0), and how many of them are used. */
    private byte[][] steps = new byte[0][];
    private int[] used = new int[0];
    /** Per ply, the last entry added (while init adds them). */
    private int[] last = new int[0];

    /** Adds {@code entry} to ply {@code ply}. */
    void add(int ply, int entry) {
        if (last.length < steps.length) throw new IllegalStateException("the events are only read once trimmed");
        if (ply >= steps.length) {
            int n = Math.max(ply + 1, 2 * steps.length);
            steps = Arrays.copyOf(steps, n);
            used = Arrays.copyOf(used, n);
            last = Arrays.copyOf(last, n);
        }
        int step = entry - last[ply], gap = step << 1 ^ step >> 31;
        last[ply] = entry;
        byte[] bytes = steps[ply];
        if (bytes == null) bytes = steps[ply] = new byte[64];
        if (used[ply] + 5 > bytes.length) bytes = steps[ply] = Arrays.copyOf(bytes, 2 * bytes.length);
        int at = used[ply];
        while ((gap & ~0x7F) != 0) {
            bytes[at++] = (byte) (gap | 0x80);
            gap >>>= 7;
        }
        bytes[at++] = (byte) gap;
        used[ply] = at;
    }

    /** Drops the room left for more: init has added every event. */
    PlyEvents trimmed() {
        int n = lastPly() + 1;
        steps = Arrays.copyOf(steps, n);
        used = Arrays.copyOf(used, n);
        last = new int[0];
        for (int q = 0; q < n; q++) if (steps[q] != null) steps[q] = Arrays.copyOf(steps[q], used[q]);
        return this;
    }

    /** The last ply with an event, or -1. */
    int lastPly() {
        for (int q = used.length - 1; q >= 0; q--) if (used[q] > 0) return q;
        return -1;
    }

    /** Gives each entry of ply {@code ply} to {@code entry}, ascending. */
    void forEach(int ply, IntConsumer entry) {
        if (ply >= used.length) return;
        byte[] bytes = steps[ply];
        int e = 0;
        for (int at = 0; at < used[ply]; ) {
            int gap = 0;
            for (int shift = 0; ; shift += 7) {
                int b = bytes[at++];
                gap |= (b & 0x7F) << shift;
                if (b >= 0) break;
            }
            e += gap >>> 1 ^ -(gap & 1);
            entry.accept(e);
        }
    }

    void writeTo(DataOutputStream out) throws IOException {
        int n = lastPly() + 1;
        out.writeInt(n);
        for (int q = 0; q < n; q++) {
            out.writeInt(used[q]);
            if (used[q] > 0) out.write(steps[q], 0, used[q]);
        }
    }

    static PlyEvents readFrom(DataInputStream in) throws IOException {
        PlyEvents events = new PlyEvents();
        int n = in.readInt();
        events.steps = new byte[n][];
        events.used = new int[n];
        for (int q = 0; q < n; q++) {
            events.used[q] = in.readInt();
            events.steps[q] = new byte[events.used[q]];
            in.readFully(events.steps[q]);
        }
        return events;
    }
}
