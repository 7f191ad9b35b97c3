package tablebase.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.PieceType;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;
import tablebase.chess.Square;

/**
 * The packed file of any endgame ({@code kqkr.tbl}): two bytes per canonical position and side to move, a result
 * and a best move, addressed by {@link PositionIndex}, in two planes so that a DTM lookup reads the results alone
 * (half the memory to keep in cache). Little-endian throughout:
 * <pre>
 *   0      8 bytes  magic "TBINDEX2"
 *   8     16 bytes  material, ASCII ("KQKR"), NUL-padded
 *  24      int64    index size N (per side to move)
 *  32     32 bytes  zero
 *  64     2N bytes  results: entry (index, side) at 64 + 2 * index + side, side 0 = White to move, 1 = Black;
 *                     0 draw, 255 no canonical legal position, else ply + 1 where ply is even when the side
 *                     to move is lost (mated after ply / 2 moves of the opponent) and odd when it wins (mates
 *                     in (ply + 1) / 2)
 *  64+2N  2N bytes  best moves, same order: 255 none, else the move's rank among the legal moves of the
 *                     canonical position, sorted by from-square, then to-square (a1 = 0 .. h8 = 63), then
 *                     promotion (queen, rook, bishop, knight)
 * </pre>
 * A table's positions have no en-passant right: a position with an en-passant capture on the board is answered
 * from its moves (see {@link Tablebase}).
 * <pre>
 * </pre>
 * A position is looked up through its canonical form (see {@link PositionIndex}); its stored move is mapped
 * back through the inverse of the symmetry that made it canonical.
 */
public final class IndexedTable {
    static final byte[] MAGIC = "TBINDEX2".getBytes(StandardCharsets.US_ASCII);
    /** Result bytes: a draw, and no canonical legal position. */
    public static final int DRAW = 0, NONE = 255;
    /** The move byte of no stored move. */
    public static final int NO_MOVE = 255;
    static final int HEADER = 64;

    private final PositionIndex index;
    private final Material material;
    /** Both planes; the moves start at {@link #moves}. */
    private final ByteBuffer entries;
    private final int moves;

    private IndexedTable(PositionIndex index, ByteBuffer entries, int moves) {
        this.index = index;
        this.material = index.material();
        this.entries = entries;
        this.moves = moves;
    }

    /** The size of a packed file of this index: the header and four bytes per index. */
    public static long fileSize(PositionIndex index) { return HEADER + 4 * index.size(); }

    /** The file name for an endgame: {@code kqkr.tbl}. */
    public static String fileName(Material material) { return material.name().toLowerCase() + ".tbl"; }

    /** Memory-maps a packed file, checking its header and size. */
    public static IndexedTable open(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header) >= 0) { }
            header.flip();
            if (header.remaining() < HEADER) throw new CorruptTableException(file + " is too short to be a packed table");
            byte[] magic = new byte[MAGIC.length];
            header.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) throw new CorruptTableException(file + " is not a packed table (no TBINDEX2 header; a table of an older format is generated again)");
            byte[] name = new byte[16];
            header.get(name);
            Material material;
            try {
                material = Material.parse(new String(name, StandardCharsets.US_ASCII).replace("\0", ""));
            } catch (IllegalArgumentException e) {
                throw new CorruptTableException(file + " names no endgame in its header");
            }
            PositionIndex index = new PositionIndex(material);
            long size = header.getLong();
            long expected = fileSize(index);
            if (size != index.size() || channel.size() != expected)
                throw new CorruptTableException(file + " has " + channel.size() + " bytes; a " + material.name() + " table has " + expected);
            if (expected > Integer.MAX_VALUE) throw new IOException(file + " is too large to map in one piece");
            ByteBuffer entries = channel.map(FileChannel.MapMode.READ_ONLY, HEADER, expected - HEADER);
            return new IndexedTable(index, entries, Math.toIntExact(2 * index.size()));
        }
    }

    public Material material() { return material; }

    /**
     * The ply of a position of this material (see the format), or -1 for a draw. Only a position without an entry
     * is checked for legality, so that a lookup costs one index computation and one read.
     */
    public int ply(Position p) { return plyAt(entry(p), p); }

    /** Where a position's result byte is in the result plane: {@link #ply}'s index computation, apart for batches. */
    int entry(Position p) {
        long i = p.placeable() ? index.indexOrNone(p) : PositionIndex.NONE;
        if (i == PositionIndex.NONE) throw refusal(p);
        return (int) (2 * i + side(p));
    }

    /** {@link #ply}'s read of the result plane at {@code entry}, the entry of {@code p}. */
    int plyAt(int entry, Position p) {
        int result = entries.get(entry) & 0xFF;
        if (result == NONE) throw refusal(p);
        return result - 1; // DRAW is 0
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
    public Move move(Position p, List<Move> legal) {
        int symmetries = index.canonicalSymmetries(p);
        long i = index.index(p, symmetries);
        int code = entries.get(moves + (int) (2 * i + side(p))) & 0xFF;
        if (code == NO_MOVE) return null;
        if (code >= legal.size()) throw new CorruptTableException(material().name() + " table stores move " + code + " of " + legal.size() + " for " + p);
        int s = Integer.numberOfTrailingZeros(symmetries);
        long[] ranked = new long[legal.size()]; // (from, to) in the canonical frame, then the move's place in the list
        for (int k = 0; k < ranked.length; k++) {
            Move m = legal.get(k);
            int promotion = m.promotion() == null ? 0 : 1 + java.util.List.of(PieceType.PROMOTIONS).indexOf(m.promotion());
            ranked[k] = (long) ((Square.transform(m.from(), s) * 64 + Square.transform(m.to(), s)) * 8 + promotion) << 8 | k;
        }
        Arrays.sort(ranked);
        return legal.get((int) (ranked[code] & 0xFF));
    }

    /**
     * Writes the header, the result plane ({@code results}, {@code 2 * index + side}) and then every block's best-move
     * bytes, blocks in index order.
     */
    public static void write(PositionIndex index, byte[] results, java.util.Iterator<byte[]> blockMoves, OutputStream out) throws IOException {
        if (results.length != 2 * index.size()) throw new IllegalArgumentException(results.length + " results for " + 2 * index.size() + " entries");
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC);
        byte[] name = index.material().name().getBytes(StandardCharsets.US_ASCII);
        header.put(name).put(new byte[16 - name.length]);
        header.putLong(index.size());
        out.write(header.array());
        out.write(results);
        long written = 0;
        while (blockMoves.hasNext()) {
            byte[] bytes = blockMoves.next();
            out.write(bytes);
            written += bytes.length;
        }
        if (written != 2 * index.size()) throw new IllegalStateException("wrote " + written + " moves of " + 2 * index.size());
    }

    /** The result plane of a packed file's stream, {@code 2 * index + side} (for reusing a smaller table). */
    public static byte[] readResults(InputStream file, PositionIndex index) throws IOException {
        file.skipNBytes(HEADER);
        byte[] results = file.readNBytes(Math.toIntExact(2 * index.size()));
        if (results.length < 2 * index.size()) throw new CorruptTableException("a packed " + index.material().name() + " table ends early");
        return results;
    }

    private static int side(Position p) { return p.sideToMove().ordinal(); } // WHITE 0, BLACK 1
}
