package io.github.tablebase.probe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One byte per entry of a table, entry {@code 2 * index + side}, mapped from files that each hold a range of the
 * entries: a packed table's result or move plane over its part files, or the result planes the generator's
 * partitions write before the best moves are found. Each range is mapped on its own, in buffers of at most {@link
 * #MAP_BYTES}, so no file or plane is bounded by one buffer's 2 GB. It only reads: any number of threads may share one.
 */
public final class EntryPlane {
    /** Where entries {@code first .. end - 1} are: at {@code offset} of {@code file}, one byte each. */
    public record Range(Path file, long offset, long first, long end) {}

    private final long entries;
    /** Buffer k holds the entries from {@code first[k]}; ascending, then {@code entries}. */
    private final long[] first;
    private final ByteBuffer[] parts;
    /** The one part when there is one: the lookups' fast path. */
    private final ByteBuffer single;

    private EntryPlane(long entries, long[] first, ByteBuffer[] parts) {
        this.entries = entries;
        this.first = first;
        this.parts = parts;
        this.single = parts.length == 1 ? parts[0] : null;
    }

    /** The most bytes one buffer maps: a range of more (a part file past 1 GB a plane) is mapped in several. */
    static final long MAP_BYTES = 1L << 30;

    /** Maps ranges (in any order) that together cover entries {@code 0 .. entries - 1} once each. */
    public static EntryPlane map(List<Range> ranges, long entries) throws IOException {
        return map(ranges, entries, MAP_BYTES);
    }

    /** ... in buffers of at most {@code mapBytes} each. */
    static EntryPlane map(List<Range> ranges, long entries, long mapBytes) throws IOException {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(Range::first));
        List<Long> firsts = new ArrayList<>();
        List<ByteBuffer> buffers = new ArrayList<>();
        long next = 0;
        for (Range r : sorted) {
            if (r.first() != next) throw new CorruptTableException(r.file() + " holds entries from " + r.first() + ", not from " + next + " as the parts before it end");
            long length = r.end() - r.first();
            if (length <= 0) throw new CorruptTableException(r.file() + " holds " + length + " entries");
            try (FileChannel channel = FileChannel.open(r.file(), StandardOpenOption.READ)) {
                if (channel.size() < r.offset() + length) throw new CorruptTableException(r.file() + " ends before its " + length + " entries");
                for (long at = 0; at < length; at += mapBytes) {
                    buffers.add(channel.map(FileChannel.MapMode.READ_ONLY, r.offset() + at, Math.min(mapBytes, length - at)));
                    firsts.add(r.first() + at);
                }
            }
            next = r.end();
        }
        if (next != entries) throw new CorruptTableException("the parts hold entries up to " + next + " of " + entries);
        long[] first = new long[buffers.size() + 1];
        for (int k = 0; k < buffers.size(); k++) first[k] = firsts.get(k);
        first[buffers.size()] = entries;
        return new EntryPlane(entries, first, buffers.toArray(new ByteBuffer[0]));
    }

    /** The entries of one array, read where they are: a table solved in one task, in the task that writes it. */
    public static EntryPlane of(byte[] entries) {
        return new EntryPlane(entries.length, new long[] {0, entries.length}, new ByteBuffer[] {ByteBuffer.wrap(entries).asReadOnlyBuffer()});
    }

    public long entries() { return entries; }

    /** The byte of an entry, 0..255. */
    public int get(long entry) {
        if (single != null) return single.get((int) entry) & 0xFF;
        int k = part(entry);
        return parts[k].get((int) (entry - first[k])) & 0xFF;
    }

    /** Copies entries {@code from .. from + length - 1} into {@code into}, across parts. */
    public void copy(long from, byte[] into, int at, int length) {
        while (length > 0) {
            int k = part(from), offset = (int) (from - first[k]);
            int n = (int) Math.min(length, first[k + 1] - from);
            parts[k].get(offset, into, at, n);
            from += n;
            at += n;
            length -= n;
        }
    }

    /** The part holding an entry: the last whose first entry is not above it. */
    private int part(long entry) {
        int a = 0, b = parts.length - 1;
        while (a < b) {
            int mid = (a + b + 1) >>> 1;
            if (first[mid] <= entry) a = mid; else b = mid - 1;
        }
        return a;
    }
}
