package io.github.tablebase.table;

import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.LatePlies;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.util.LongAccumulator;

/**
 * A smaller table's results read from its packed part files a king pair at a time, with positioned reads on any
 * Hadoop file system, for a table too large for every executor to map (or copy) whole. A capture or a promotion
 * keeps both kings where they stand but for a king's own capture, so a task that works through its king pairs in
 * order needs only a few of a smaller table's king pairs at a time: at most {@code held} windows (each a king pair's
 * results, both sides to move) are kept, the one loaded first dropped first. Any number of threads may share one: a
 * window once read is never changed, and a lookup that still holds a dropped one reads the same bytes.
 */
public final class KingPairWindows implements EntryResults {
    private final String table;
    private final Configuration hadoop;
    private final long restSize;
    /** The part files, by their first index, ascending, and the offset of each part's result plane. */
    private final Path[] files;
    private final long[] firsts;
    private final LatePlies late;
    private final AtomicReferenceArray<byte[]> windows;
    private final ArrayDeque<Integer> loaded = new ArrayDeque<>();
    private final int held;
    /** Where the bytes read are counted (a Spark accumulator of the run; null: nowhere), and how many windows this one read. */
    private final LongAccumulator bytesRead;
    private long loads;

    private KingPairWindows(String table, Configuration hadoop, PositionIndex index, Path[] files, long[] firsts, LatePlies late, int held,
                            LongAccumulator bytesRead) {
        this.table = table;
        this.hadoop = hadoop;
        this.restSize = index.restSize();
        this.files = files;
        this.firsts = firsts;
        this.late = late;
        this.windows = new AtomicReferenceArray<>(index.kingPairs());
        this.held = held;
        this.bytesRead = bytesRead;
    }

    /** The bytes of one window: a king pair's entries, both sides to move. */
    static long windowBytes(PositionIndex index) { return 2 * index.restSize(); }

    /**
     * Opens a table's part files (headers and late plies read, no results), holding at most {@code budget} bytes of
     * windows (one at least), the bytes it reads added to {@code bytesRead} (may be null).
     */
    static KingPairWindows open(TableFiles table, Configuration hadoop, long budget, LongAccumulator bytesRead) throws IOException {
        PositionIndex index = new PositionIndex(table.material());
        long window = windowBytes(index);
        if (window > Integer.MAX_VALUE) throw new IllegalArgumentException(table.material().name() + "'s king pairs hold more than 2 GB each");
        List<PartFile> parts = new ArrayList<>();
        for (String name : table.parts()) parts.add(PartFile.read(new Path(table.folder(), name), table, hadoop));
        parts.sort(java.util.Comparator.comparingLong(f -> f.part().lo()));
        long next = 0;
        for (PartFile f : parts) {
            if (f.part().lo() != next) throw new CorruptTableException(f.file() + " holds indexes from " + f.part().lo() + ", not " + next);
            next = f.part().hi();
        }
        if (next != index.size()) throw new CorruptTableException("the parts of " + table.folder() + " hold indexes up to " + next + " of " + index.size());
        int held = (int) Math.max(1, Math.min(index.kingPairs(), budget / window));
        return new KingPairWindows(table.material().name(), hadoop, index, parts.stream().map(PartFile::file).toArray(Path[]::new),
                parts.stream().mapToLong(f -> f.part().lo()).toArray(), LatePlies.union(parts.stream().map(f -> f.part().late()).toList()), held,
                bytesRead);
    }

    /** A part file on any file system, and its header and late plies, checked. */
    private record PartFile(Path file, IndexedTable.Part part) {
        static PartFile read(Path file, TableFiles table, Configuration hadoop) throws IOException {
            FileSystem fs = file.getFileSystem(hadoop);
            long length = fs.getFileStatus(file).getLen();
            byte[] head = new byte[IndexedTable.HEADER];
            try (FSDataInputStream in = fs.open(file)) {
                in.readFully(0, head);
                IndexedTable.Part part = IndexedTable.readHeader(ByteBuffer.wrap(head), java.nio.file.Path.of(file.getName()));
                long planes = IndexedTable.partSize(part.lo(), part.hi());
                if (!part.material().equals(table.material()) || length < planes)
                    throw new CorruptTableException(file + " holds " + part.material().name() + " in " + length + " bytes, not a part of the "
                            + table.material().name() + " table");
                byte[] tail = new byte[Math.toIntExact(length - planes)];
                in.readFully(planes, tail);
                return new PartFile(file, new IndexedTable.Part(part.file(), part.material(), part.indexSize(), part.lo(), part.hi(),
                        LatePlies.parse(tail, file.toString(), 2 * part.lo(), 2 * part.hi())));
            }
        }
    }

    @Override public int result(long entry) {
        int pair = (int) ((entry >>> 1) / restSize);
        byte[] window = windows.get(pair);
        if (window == null) window = load(pair);
        return late.result(entry, window[(int) (entry - 2 * pair * restSize)] & 0xFF);
    }

    /** Reads king pair {@code pair}'s results, dropping the oldest window past {@link #held}. */
    private synchronized byte[] load(int pair) {
        byte[] window = windows.get(pair);
        if (window != null) return window;
        long first = pair * restSize;
        int part = Arrays.binarySearch(firsts, first);
        if (part < 0) part = -part - 2; // the last part starting before it
        window = new byte[(int) (2 * restSize)];
        Path file = files[part];
        try (FSDataInputStream in = file.getFileSystem(hadoop).open(file)) {
            in.readFully(IndexedTable.HEADER + 2 * (first - firsts[part]), window);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read king pair " + pair + " of the " + table + " table from " + file + ": " + e.getMessage(), e);
        }
        windows.set(pair, window);
        loaded.add(pair);
        while (loaded.size() > held) windows.set(loaded.poll(), null);
        loads++;
        if (bytesRead != null) bytesRead.add(window.length);
        return window;
    }

    /** How many windows this one has read. */
    synchronized long loads() { return loads; }
}
