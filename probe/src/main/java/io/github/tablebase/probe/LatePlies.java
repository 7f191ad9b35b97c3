package io.github.tablebase.probe;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The plies a result byte cannot hold, beside the bytes: every entry ({@code 2 * index + side}) whose byte is the
 * marker ({@code bytePlies + 1}: 254 unless a test lowers it) and whose ply is past {@code bytePlies}, with its ply.
 * A marker byte whose entry is not listed is ply {@code bytePlies} itself, so a table that ends by ply 253 has no
 * list, and its files are as they were. A packed or compressed part file whose plies go further ends with the list
 * of its entries ({@link #writeTo}); long mates have few such entries. Immutable: any number of threads share one.
 * <pre>
 *   0      8 bytes  magic "TBLATE01"
 *   8      int32    the marker byte
 *  12      int64    L, the entries listed
 *  20     12 L      per entry, ascending: int64 entry (2 * index + side), int32 its ply
 *  20+12L  int32    CRC-32 of the bytes before it
 * </pre>
 */
public final class LatePlies implements Serializable {
    static final byte[] MAGIC = "TBLATE01".getBytes(StandardCharsets.US_ASCII);
    private static final int HEAD = 20, RECORD = 12, NONE_BYTE = 0xFF;
    /** No ply past what the bytes hold. */
    public static final LatePlies NONE = new LatePlies(NONE_BYTE, new long[0], new int[0]);

    private final int marker;
    private final long[] entries;
    private final int[] plies;

    private LatePlies(int marker, long[] entries, int[] plies) {
        this.marker = marker;
        this.entries = entries;
        this.plies = plies;
    }

    /** Entries (ascending) and their plies, all past {@code bytePlies}, whose bytes hold {@code bytePlies + 1}. */
    public static LatePlies of(int bytePlies, long[] entries, int[] plies) {
        if (entries.length == 0) return NONE;
        if (bytePlies < 1 || bytePlies + 1 >= NONE_BYTE) throw new IllegalArgumentException("a result byte holds 1 to " + (NONE_BYTE - 2) + " plies, not " + bytePlies);
        if (plies.length != entries.length) throw new IllegalArgumentException(entries.length + " entries and " + plies.length + " plies");
        for (int k = 0; k < entries.length; k++) {
            if (k > 0 && entries[k] <= entries[k - 1]) throw new IllegalArgumentException("late entries not ascending at " + entries[k]);
            if (plies[k] <= bytePlies) throw new IllegalArgumentException("entry " + entries[k] + " at ply " + plies[k] + " fits a result byte");
        }
        return new LatePlies(bytePlies + 1, entries.clone(), plies.clone());
    }

    public boolean isEmpty() { return entries.length == 0; }

    public int size() { return entries.length; }

    /** The entry of the k-th listed ply, ascending. */
    public long entry(int k) { return entries[k]; }

    public int ply(int k) { return plies[k]; }

    /**
     * The result of an entry whose byte is {@code b} (0..255): {@link IndexedTable#NONE} for 255, else the ply + 1
     * this list gives a marker byte, else the byte (a {@link Result} code: {@link Result#DRAW} or ply + 1).
     */
    public int result(long entry, int b) {
        if (b == NONE_BYTE) return Result.NONE;
        if (b != marker) return b;
        int k = Arrays.binarySearch(entries, entry);
        return k >= 0 ? plies[k] + 1 : b;
    }

    /** The entries of this list from {@code first} to {@code end - 1}. */
    public LatePlies within(long first, long end) {
        int a = insertion(first), b = insertion(end);
        if (a == 0 && b == entries.length) return this;
        if (a == b) return NONE;
        return new LatePlies(marker, Arrays.copyOfRange(entries, a, b), Arrays.copyOfRange(plies, a, b));
    }

    /** The first place whose entry is not below {@code entry}. */
    private int insertion(long entry) {
        int k = Arrays.binarySearch(entries, entry);
        return k >= 0 ? k : -k - 1;
    }

    /** The entries of one side to move ({@code entry % 2 == side}). */
    public LatePlies side(int side) {
        int n = 0;
        for (long e : entries) if ((e & 1) == side) n++;
        if (n == 0) return NONE;
        long[] e = new long[n];
        int[] p = new int[n];
        n = 0;
        for (int k = 0; k < entries.length; k++) if ((entries[k] & 1) == side) { e[n] = entries[k]; p[n++] = plies[k]; }
        return new LatePlies(marker, e, p);
    }

    /** The lists of disjoint ranges of one table, in any order, as one. */
    public static LatePlies union(List<LatePlies> lists) {
        List<LatePlies> some = lists.stream().filter(l -> !l.isEmpty()).sorted(java.util.Comparator.comparingLong(l -> l.entries[0])).toList();
        if (some.isEmpty()) return NONE;
        int n = some.stream().mapToInt(LatePlies::size).sum(), marker = some.get(0).marker;
        long[] e = new long[n];
        int[] p = new int[n];
        int at = 0;
        for (LatePlies l : some) {
            if (l.marker != marker) throw new CorruptTableException("the parts of a table mark late plies with bytes " + marker + " and " + l.marker);
            if (at > 0 && l.entries[0] <= e[at - 1]) throw new CorruptTableException("the late plies of two parts overlap at entry " + l.entries[0]);
            System.arraycopy(l.entries, 0, e, at, l.size());
            System.arraycopy(l.plies, 0, p, at, l.size());
            at += l.size();
        }
        return new LatePlies(marker, e, p);
    }

    /** The deepest ply listed, or -1. */
    public int maxPly() { return Arrays.stream(plies).max().orElse(-1); }

    /** The bytes {@link #writeTo} writes: none for an empty list. */
    public long bytes() { return isEmpty() ? 0 : HEAD + (long) RECORD * entries.length + 4; }

    /** Writes the list as a part file's last section; nothing when it is empty. */
    public void writeTo(OutputStream out) throws IOException {
        if (isEmpty()) return;
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(bytes())).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(MAGIC).putInt(marker).putLong(entries.length);
        for (int k = 0; k < entries.length; k++) buffer.putLong(entries[k]).putInt(plies[k]);
        CRC32 crc = new CRC32();
        crc.update(buffer.array(), 0, buffer.position());
        buffer.putInt((int) crc.getValue());
        out.write(buffer.array());
    }

    /**
     * Reads the list a part file holds from {@code offset} to its end (none when it ends there), checked as {@link
     * #parse} checks it.
     */
    public static LatePlies read(FileChannel channel, long offset, Path file, long first, long end) throws IOException {
        long length = channel.size() - offset;
        if (length == 0) return NONE;
        if (length > Integer.MAX_VALUE) throw new CorruptTableException(file + " has " + length + " bytes after its entries: not a list of late plies");
        ByteBuffer buffer = ByteBuffer.allocate((int) length);
        FileReads.readFully(channel, buffer, offset, file + " ends inside its late plies");
        return parse(buffer.array(), file.toString(), first, end);
    }

    /**
     * The list in {@code bytes} (none when empty), from the file {@code where}, checked: it lists entries of {@code
     * first .. end - 1} only, ascending, each past its marker's ply, and matches its CRC-32.
     */
    public static LatePlies parse(byte[] bytes, String where, long first, long end) {
        int length = bytes.length;
        if (length == 0) return NONE;
        if (length < HEAD + 4 || (length - HEAD - 4) % RECORD != 0)
            throw new CorruptTableException(where + " has " + length + " bytes after its entries: not a list of late plies");
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[MAGIC.length];
        buffer.get(magic);
        int marker = buffer.getInt();
        long count = buffer.getLong();
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, length - 4);
        if (!Arrays.equals(magic, MAGIC) || count != (length - HEAD - 4) / RECORD || buffer.getInt(length - 4) != (int) crc.getValue())
            throw new CorruptTableException(where + ": its late plies do not match their header or CRC-32");
        long[] entries = new long[(int) count];
        int[] plies = new int[(int) count];
        for (int k = 0; k < count; k++) {
            entries[k] = buffer.getLong();
            plies[k] = buffer.getInt();
            if (entries[k] < first || entries[k] >= end || k > 0 && entries[k] <= entries[k - 1] || plies[k] < marker || marker < 2 || marker >= NONE_BYTE)
                throw new CorruptTableException(where + ": late ply " + k + " (entry " + entries[k] + ", ply " + plies[k] + ") is not one of this part's");
        }
        return new LatePlies(marker, entries, plies);
    }
}
