package tablebase.output;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;
import tablebase.chess.Square;
import tablebase.table.SolvedTable;

/**
 * The packed file of any endgame ({@code kqkr.tbl}): two bytes per canonical position and side to move,
 * addressed by {@link PositionIndex}. Little-endian throughout:
 * <pre>
 *   0  8 bytes  magic "TBINDEX1"
 *   8 16 bytes  material, ASCII ("KQKR"), NUL-padded
 *  24  int64    index size N (per side to move)
 *  32 32 bytes  zero
 *  64  entries  entry (index, side) at 64 + 2 * (2 * index + side), side 0 = White to move, 1 = Black:
 *                 byte 0, result: 0 draw, 255 no canonical legal position, else ply + 1 where ply is even
 *                   when the side to move is lost (mated after ply / 2 moves of the opponent) and odd when
 *                   it wins (mates in (ply + 1) / 2)
 *                 byte 1, best move: 255 none, else its rank among the legal moves of the canonical
 *                   position, sorted by from-square then to-square (a1 = 0 .. h8 = 63)
 * </pre>
 * A position is looked up through its canonical form (see {@link PositionIndex}); its stored move is mapped
 * back through the inverse of the symmetry that made it canonical.
 */
public final class IndexedTable {
    static final byte[] MAGIC = "TBINDEX1".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER = 64, DRAW = SolvedTable.DRAW, NONE = SolvedTable.NONE, NO_MOVE = 255;
    private static final Comparator<Move> ORDER = Comparator.comparingInt(Move::from).thenComparingInt(Move::to);

    private final PositionIndex index;
    private final ByteBuffer entries;

    private IndexedTable(PositionIndex index, ByteBuffer entries) {
        this.index = index;
        this.entries = entries;
    }

    /** The size of a packed file of this index: the header and four bytes per index. */
    static long fileSize(PositionIndex index) { return HEADER + 4 * index.size(); }

    /** The file name for an endgame: {@code kqkr.tbl}. */
    public static String fileName(Material material) { return material.name().toLowerCase() + ".tbl"; }

    /** Memory-maps a packed file, checking its header and size. */
    public static IndexedTable open(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header) >= 0) { }
            header.flip();
            if (header.remaining() < HEADER) throw new IOException(file + " is too short to be a packed table");
            byte[] magic = new byte[MAGIC.length];
            header.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) throw new IOException(file + " is not a packed table (no TBINDEX1 header)");
            byte[] name = new byte[16];
            header.get(name);
            Material material;
            try {
                material = Material.parse(new String(name, StandardCharsets.US_ASCII).replace("\0", ""));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " names no endgame in its header");
            }
            PositionIndex index = new PositionIndex(material);
            long size = header.getLong();
            long expected = fileSize(index);
            if (size != index.size() || channel.size() != expected)
                throw new IOException(file + " has " + channel.size() + " bytes; a " + material.name() + " table has " + expected);
            if (expected > Integer.MAX_VALUE) throw new IOException(file + " is too large to map in one piece");
            ByteBuffer entries = channel.map(FileChannel.MapMode.READ_ONLY, HEADER, expected - HEADER);
            return new IndexedTable(index, entries);
        }
    }

    public Material material() { return index.material(); }

    /** The ply of a legal position of this material (see the format), or -1 for a draw. */
    public int ply(Position p) {
        long i = index.index(p);
        int result = entries.get((int) (4 * i + 2 * side(p))) & 0xFF;
        if (result == NONE) throw new CorruptTableException(material().name() + " table has no entry for the legal position " + p);
        return result == DRAW ? -1 : result - 1;
    }

    /** The stored best move of {@code p}, in its own frame, or null (a draw, or no move). */
    public Move move(Position p) {
        long i = index.index(p);
        int code = entries.get((int) (4 * i + 2 * side(p) + 1)) & 0xFF;
        if (code == NO_MOVE) return null;
        int symmetry = index.canonicalSymmetry(p);
        Position canonical = index.position(i, p.sideToMove());
        List<Move> moves = sortedMoves(canonical);
        if (code >= moves.size()) throw new CorruptTableException(material().name() + " table stores move " + code + " of " + moves.size() + " for " + p);
        Move m = moves.get(code);
        int back = Square.inverse(symmetry), from = Square.transform(m.from(), back), to = Square.transform(m.to(), back);
        return p.legalMoves().stream().filter(own -> own.from() == from && own.to() == to).findFirst()
                .orElseThrow(() -> new CorruptTableException("the stored move of " + p + " is not legal there"));
    }

    /** Writes the header and then every block's entries, blocks in index order; returns the entries written. */
    public static long write(PositionIndex index, java.util.Iterator<byte[]> blockEntries, OutputStream out) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC);
        byte[] name = index.material().name().getBytes(StandardCharsets.US_ASCII);
        header.put(name).put(new byte[16 - name.length]);
        header.putLong(index.size());
        out.write(header.array());
        long written = 0;
        while (blockEntries.hasNext()) {
            byte[] bytes = blockEntries.next();
            out.write(bytes);
            written += bytes.length / 2;
        }
        if (written != 2 * index.size()) throw new IllegalStateException("wrote " + written + " entries of " + 2 * index.size());
        return written;
    }

    /** The result bytes of a packed file's stream, {@code 2 * index + side} as in {@link SolvedTable} (for reusing a smaller table). */
    public static byte[] readResults(InputStream file, PositionIndex index) throws IOException {
        file.skipNBytes(HEADER);
        byte[] results = new byte[Math.toIntExact(2 * index.size())];
        byte[] chunk = new byte[1 << 16];
        int at = 0;
        while (at < results.length) {
            int want = Math.min(chunk.length, 2 * (results.length - at)), got = file.readNBytes(chunk, 0, want);
            if (got < want) throw new CorruptTableException("a packed " + index.material().name() + " table ends early");
            for (int k = 0; k < got; k += 2) results[at++] = chunk[k];
        }
        return results;
    }

    static List<Move> sortedMoves(Position p) {
        List<Move> moves = new java.util.ArrayList<>(p.legalMoves());
        moves.sort(ORDER);
        if (moves.size() > NO_MOVE) throw new IllegalStateException(moves.size() + " moves do not fit the move byte");
        return moves;
    }

    private static int side(Position p) { return p.sideToMove() == Color.WHITE ? 0 : 1; }
}
