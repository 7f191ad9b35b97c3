package io.github.tablebase.probe;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The packed table of any endgame: two bytes per canonical position and side to move, a result and a best move,
 * addressed by {@link PositionIndex}, stored in one or more part files, each holding a range of whole king pairs
 * ({@code kqkr.tbl} when one part holds the table, else {@code kqkr.00000.tbl}, {@code kqkr.00001.tbl}, ...; the
 * manifest lists them). Within a part, two planes, so that a DTM lookup reads the results alone (half the memory to
 * keep in cache). Little-endian throughout:
 * <pre>
 *   0      8 bytes  magic "TBINDEX3"
 *   8     16 bytes  material, ASCII ("KQKR"), NUL-padded
 *  24      int64    index size N of the whole table (per side to move)
 *  32      int64    first index of this part, lo
 *  40      int64    end of this part, hi (exclusive): the part holds indexes lo .. hi - 1
 *  48     16 bytes  zero
 *  64     2n bytes  results, n = hi - lo: entry (index, side) at 64 + 2 * (index - lo) + side, side 0 = White to
 *                     move, 1 = Black; 0 draw, 255 no canonical legal position, else ply + 1 where ply is even when
 *                     the side to move is lost (mated after ply / 2 moves of the opponent) and odd when it wins
 *                     (mates in (ply + 1) / 2)
 *  64+2n  2n bytes  best moves, same order: 255 none, else the move's rank among the legal moves of the
 *                     canonical position, sorted by from-square, then to-square (a1 = 0 .. h8 = 63), then
 *                     promotion (queen, rook, bishop, knight)
 *  64+4n            only in a table with plies past 253: the part's {@link LatePlies}, the entries whose result
 *                     byte 254 stands for a later ply, with their plies
 * </pre>
 * The parts of a table follow from its size and the entries per file the generator was given
 * ({@link #partStarts}), never from how many Spark partitions solved it: the same table is the same files.
 * A table's positions have no en-passant right: a position with an en-passant capture on the board is answered
 * from its moves (see {@link Tablebase}).
 * A position is looked up through its canonical form (see {@link PositionIndex}); its stored move is mapped
 * back through the inverse of the symmetry that made it canonical.
 */
public final class IndexedTable implements DtmTable, EntryResults {
    static final byte[] MAGIC = "TBINDEX3".getBytes(StandardCharsets.US_ASCII);
    /** The move byte of no stored move. */
    public static final int NO_MOVE = 255;
    public static final int HEADER = 64;
    /** The most entries a part file holds unless the generator is told otherwise: 64 MB files. */
    public static final long ENTRIES_PER_FILE = 1L << 25;

    private final PositionIndex index;
    private final Material material;
    private final ResultPlane results;
    private final EntryPlane moves;

    private IndexedTable(PositionIndex index, ResultPlane results, EntryPlane moves) {
        this.index = index;
        this.material = index.material();
        this.results = results;
        this.moves = moves;
    }

    /** The size of a part file holding indexes {@code lo .. hi - 1}: the header and four bytes per index (then its late plies, if any). */
    public static long partSize(long lo, long hi) { return HEADER + 4 * (hi - lo); }

    /**
     * Where the parts of a table start: part k holds indexes {@code starts[k] .. starts[k + 1] - 1}, whole king
     * pairs, at most {@code entriesPerFile} entries each where a king pair allows (the same split for the
     * generator's partitions, with another count).
     */
    public static long[] partStarts(PositionIndex index, long entriesPerFile) {
        long parts = Math.max(1, Math.min(index.kingPairs(), (2 * index.size() + entriesPerFile - 1) / entriesPerFile));
        return kingPairStarts(index, (int) parts);
    }

    /** {@code parts} ranges of whole king pairs, as even as they go: the index where each starts, then the size. */
    public static long[] kingPairStarts(PositionIndex index, int parts) {
        long[] starts = new long[parts + 1];
        for (int p = 0; p <= parts; p++) starts[p] = ((long) p * index.kingPairs() + parts - 1) / parts * index.restSize();
        return starts;
    }

    /** The file name of part {@code part} of {@code parts}: {@code kqkr.tbl} alone, else {@code kqkr.00000.tbl}, .... */
    public static String partName(Material material, int part, int parts) {
        String name = material.name().toLowerCase();
        return parts == 1 ? name + ".tbl" : String.format("%s.%05d.tbl", name, part);
    }

    /** What a part file's header says. */
    public record Part(Path file, Material material, long indexSize, long lo, long hi, LatePlies late) {}

    /** Reads and checks a part file's header, size and late plies. */
    public static Part readPart(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header) >= 0) { }
            header.flip();
            if (header.remaining() < HEADER) throw new CorruptTableException(file + " is too short to be a packed table");
            Part part = readRange(header, file, MAGIC, "packed table (no TBINDEX3 header; a table of an older format is generated again)");
            long planes = partSize(part.lo(), part.hi());
            if (channel.size() < planes)
                throw new CorruptTableException(file + " has " + channel.size() + " bytes; this part of a " + part.material().name() + " table has "
                        + planes + " and its late plies");
            return new Part(file, part.material(), part.indexSize(), part.lo(), part.hi(),
                    LatePlies.read(channel, planes, file, 2 * part.lo(), 2 * part.hi()));
        }
    }

    /**
     * The header of a packed part file read elsewhere (from any file system), checked: its material and index range;
     * {@code file} names it in an error.
     */
    public static Part readHeader(ByteBuffer header, Path file) {
        if (header.remaining() < HEADER) throw new CorruptTableException(file + " is too short to be a packed table");
        return readRange(header.order(ByteOrder.LITTLE_ENDIAN), file, MAGIC, "packed table (no TBINDEX3 header)");
    }

    /**
     * The first 48 bytes of a part file of either format ({@code magic}, then the material, the index size and the
     * part's range), read from {@code header} and checked; {@code what} names the format for an error.
     */
    static Part readRange(ByteBuffer header, Path file, byte[] magic, String what) {
        byte[] read = new byte[magic.length];
        header.get(read);
        if (!Arrays.equals(read, magic)) throw new CorruptTableException(file + " is not a " + what);
        byte[] name = new byte[16];
        header.get(name);
        Material material;
        try {
            material = Material.parse(new String(name, StandardCharsets.US_ASCII).replace("\0", ""));
        } catch (IllegalArgumentException e) {
            throw new CorruptTableException(file + " names no endgame in its header");
        }
        PositionIndex index = new PositionIndex(material);
        long size = header.getLong(), lo = header.getLong(), hi = header.getLong();
        if (size != index.size() || lo < 0 || hi <= lo || hi > size || lo % index.restSize() != 0 || hi % index.restSize() != 0)
            throw new CorruptTableException(file + " holds indexes " + lo + " to " + hi + " of " + size + ": not a part of the " + material.name() + " table");
        return new Part(file, material, size, lo, hi, LatePlies.NONE);
    }

    /** Puts the 48 bytes {@link #readRange} reads: {@code magic}, the material, the index size and {@code lo}, {@code hi}. */
    static void putRange(ByteBuffer header, byte[] magic, PositionIndex index, long lo, long hi) {
        header.put(magic);
        byte[] name = index.material().name().getBytes(StandardCharsets.US_ASCII);
        header.put(name).put(new byte[16 - name.length]);
        header.putLong(index.size()).putLong(lo).putLong(hi);
    }

    /** Maps a table's part files (in any order; one file when one part holds it), checking their headers and sizes. */
    public static IndexedTable open(List<Path> files) throws IOException {
        if (files.isEmpty()) throw new IllegalArgumentException("a table has at least one part file");
        List<EntryPlane.Range> resultRanges = new ArrayList<>(), moveRanges = new ArrayList<>();
        List<LatePlies> late = new ArrayList<>();
        Material material = null;
        for (Path file : files) {
            Part part = readPart(file);
            if (material != null && !material.equals(part.material()))
                throw new CorruptTableException(file + " holds " + part.material() + ", not " + material + " as the other parts");
            material = part.material();
            long n = 2 * (part.hi() - part.lo());
            resultRanges.add(new EntryPlane.Range(file, HEADER, 2 * part.lo(), 2 * part.hi()));
            moveRanges.add(new EntryPlane.Range(file, HEADER + n, 2 * part.lo(), 2 * part.hi()));
            late.add(part.late());
        }
        PositionIndex index = new PositionIndex(material);
        return new IndexedTable(index, new ResultPlane(EntryPlane.map(resultRanges, 2 * index.size()), LatePlies.union(late)),
                EntryPlane.map(moveRanges, 2 * index.size()));
    }

    public static IndexedTable open(Path file) throws IOException { return open(List.of(file)); }

    @Override public Material material() { return material; }

    @Override public PositionIndex index() { return index; }

    /** Both sides to move are stored. */
    @Override public boolean stores(io.github.tablebase.chess.Color side) { return true; }

    /** The mappings are released with this object: unmapping under a lookup still running would crash the JVM. */
    @Override public void close() {}


    /** The result plane, both sides to move: what the writer reads of a table it compresses again. */
    public ResultPlane resultPlane() { return results; }

    /** The result of entry {@code 2 * index + side} ({@link ResultPlane#result}): what the generator reads of a smaller table. */
    @Override public int result(long entry) { return results.result(entry); }

    /**
     * The ply of a position of this material (see the format), or -1 for a draw. Only a position without an entry
     * is checked for legality, so that a lookup costs one index computation and one read.
     */
    @Override public int ply(Position p) { return plyAt(entry(p), p); }

    /** Where a position's result byte is in the result plane: {@link #ply}'s index computation, apart for batches. */
    @Override public long entry(Position p) {
        long i = p.placeable() ? index.indexOrNone(p) : PositionIndex.NONE;
        if (i == PositionIndex.NONE) throw refusal(p);
        return 2 * i + side(p);
    }

    /** {@link #ply}'s read of the result plane at {@code entry}, the entry of {@code p}. */
    @Override public int plyAt(long entry, Position p) {
        int result = results.result(entry);
        if (result == Result.NONE) throw refusal(p);
        return Result.ply(result);
    }

    /** Why a position has no entry: it is illegal, or the file is damaged. Apart, so that {@link #ply} stays small enough to inline. */
    private RuntimeException refusal(Position p) {
        String illegal = p.illegalReason();
        if (illegal != null) return new IllegalPositionException("illegal position: " + illegal);
        return new CorruptTableException(material().name() + " table has no entry for the legal position " + p);
    }

    /**
     * The stored best move of {@code p}, one of its {@code legal} moves, or null (a draw, or no move). The stored
     * rank is among the canonical position's moves, which are {@code p}'s moves seen through its symmetry: ranking
     * those needs no second move generation.
     */
    @Override public Move move(Position p, List<Move> legal) {
        long i = index.index(p);
        int code = moves.get(2 * i + side(p));
        if (code == NO_MOVE) return null;
        if (code >= legal.size()) throw new CorruptTableException(material().name() + " table stores move " + code + " of " + legal.size() + " for " + p);
        return inStoredOrder(index, p, legal)[code];
    }

    /**
     * {@code p}'s legal moves in the order a stored move's rank counts them: the canonical position's moves sorted by
     * from-square, then to-square, then promotion, which are {@code p}'s moves seen through its symmetry (no second
     * move generation). The generator stores the first move of this order that keeps the best result.
     */
    static Move[] inStoredOrder(PositionIndex index, Position p, List<Move> legal) {
        int s = Integer.numberOfTrailingZeros(index.canonicalSymmetries(p));
        long[] ranked = new long[legal.size()]; // (from, to) in the canonical frame, then the move's place in the list
        for (int k = 0; k < ranked.length; k++) {
            Move m = legal.get(k);
            int promotion = PieceType.promotionCode(m.promotion());
            ranked[k] = (long) ((Square.transform(m.from(), s) * 64 + Square.transform(m.to(), s)) * 8 + promotion) << 8 | k;
        }
        Arrays.sort(ranked);
        Move[] ordered = new Move[ranked.length];
        for (int k = 0; k < ranked.length; k++) ordered[k] = legal.get((int) (ranked[k] & 0xFF));
        return ordered;
    }

    /**
     * Writes the part of a table holding indexes {@code lo .. hi - 1}: its header, then {@code results} and
     * {@code moves}, the part's {@code 2 * (hi - lo)} result and move bytes ({@code moves} null: every move byte 0, as
     * a DTZ table has them, with no plane of zeros in memory), then its {@code late} plies.
     */
    public static void writePart(PositionIndex index, long lo, long hi, byte[] results, byte[] moves, LatePlies late, OutputStream out) throws IOException {
        if (results.length != 2 * (hi - lo) || moves != null && moves.length != results.length)
            throw new IllegalArgumentException(results.length + " results and " + (moves == null ? "no" : moves.length) + " moves for "
                    + 2 * (hi - lo) + " entries");
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        putRange(header, MAGIC, index, lo, hi);
        out.write(header.array());
        out.write(results);
        if (moves != null) out.write(moves);
        else for (int left = results.length; left > 0; left -= ZEROS.length) out.write(ZEROS, 0, Math.min(ZEROS.length, left));
        late.within(2 * lo, 2 * hi).writeTo(out);
    }

    /** Move bytes of a table that stores no moves, written a buffer at a time (never written into). */
    private static final byte[] ZEROS = new byte[1 << 16];

    private static int side(Position p) { return p.sideToMove().ordinal(); } // WHITE 0, BLACK 1
}
