package io.github.tablebase.output;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.Result;
import io.github.tablebase.table.Successors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The seed's packed KBNK file: 64 * 32 * 64 * 64 two-byte words, no header. Only White-to-move positions
 * with a light-square bishop are stored, word {@code ((wk * 32 + wb / 2) * 64 + wn) * 64 + bk}; byte 0 is
 * the mate distance (0: not a White win), byte 1 is {@code FF << 6 | to} with FF 1 king, 2 bishop,
 * 3 knight. Dark-square bishops are read through the file mirror {@code file -> 7 - file}.
 *
 * <p>Reading maps the file; lookups only read it, so one instance serves any number of threads.
 */
public final class PackedTable {
    public static final Material KBNK = Material.parse("KBNK");
    public static final long SIZE = 64L * 32 * 64 * 64 * 2;
    /** Its name in a KBNK table's folder. */
    public static final String FILE_NAME = "kbnk.bin";
    private static final int KING = 0, BISHOP = 1, KNIGHT = 2, BLACK_KING = 3;

    private final ByteBuffer words;

    private PackedTable(ByteBuffer words) { this.words = words; }

    /** Opens a packed file; a missing file or one of the wrong size is an IOException with a one-line reason. */
    public static PackedTable open(Path file) throws IOException {
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file + ": no such file (generate it with jobs/generate --endgame KBNK)");
        }
        if (size != SIZE)
            throw new IOException(file + " is " + size + " bytes; a packed KBNK table is exactly " + SIZE);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return new PackedTable(channel.map(FileChannel.MapMode.READ_ONLY, 0, SIZE));
        }
    }

    /** The byte address of a White-to-move position's word; the bishop must be on a light square. */
    public static int address(int wk, int wb, int wn, int bk) {
        return 2 * (((wk * 32 + wb / 2) * 64 + wn) * 64 + bk);
    }

    /** The stored entry of a White-to-move KBNK position, looked up through the mirror when the bishop is dark. */
    public Entry lookup(Position position) {
        if (!position.material().equals(KBNK) || position.sideToMove() != Color.WHITE)
            throw new IllegalArgumentException("the packed table holds KBNK with White to move, not "
                    + position.material() + " with " + position.sideToMove().fenLetter() + " to move");
        int word = word(position.square(KING), position.square(BISHOP), position.square(KNIGHT), position.square(BLACK_KING));
        int dtm = word >>> 8;
        if (dtm == 0) return new Entry(0, null);
        int piece = ((word >>> 6) & 3) - 1;
        if (piece < 0) throw new CorruptTableException("the packed word of " + position + " has a distance but no move");
        int to = word & 63;
        return new Entry(dtm, new Move(piece, position.square(piece), to, position.pieceAt(to)));
    }

    /** The stored mate distance of White to move with these squares, 0 when it is not a White win. */
    public int dtm(int wk, int wb, int wn, int bk) { return word(wk, wb, wn, bk) >>> 8; }

    /** {@code dtm << 8 | FF << 6 | to} for any bishop colour, the target square mirrored back for a dark bishop. */
    private int word(int wk, int wb, int wn, int bk) {
        if (Square.isLight(wb)) return words.getShort(address(wk, wb, wn, bk)) & 0xFFFF;
        int word = words.getShort(address(Square.mirrorFile(wk), Square.mirrorFile(wb), Square.mirrorFile(wn),
                Square.mirrorFile(bk))) & 0xFFFF;
        return word ^ 7; // mirrors the target square's file: to ^ 7
    }

    /** A stored answer: White mates in {@code dtm} (0: no White win stored) starting with {@code move}. */
    public record Entry(int dtm, Move move) {}

    /**
     * The export kernel of the seed file: its words, from the solved KBNK table's result bytes ({@code successors}
     * looks up the position after each move). The move stored is the seed's: among the moves into a Black position
     * lost one ply earlier, the smallest code {@code piece << 6 | to} (king, bishop, knight). Each White win of the
     * table's index has its moves looked up once, for every image of it with a light-square bishop: an image's best
     * moves are the images of its own.
     */
    public static byte[] seedWords(PositionIndex index, Successors successors) {
        if (!index.material().equals(KBNK)) throw new IllegalArgumentException("the seed file holds KBNK, not " + index.material());
        MoveGenerator gen = new MoveGenerator(KBNK);
        byte[] words = new byte[(int) SIZE];
        int[] squares = new int[4], moves = new int[256];
        for (long i = 0; i < index.size(); i++) {
            int result = successors.ownResults().result(2 * i);
            if (result == Result.DRAW || result == Result.NONE || result % 2 == 1) continue; // not a White win
            index.decode(i, squares);
            int n = gen.legalMoves(squares, 0, moves), best = 0;
            for (int k = 0; k < n; k++) if (successors.resultAfter(squares, moves[k], 1) == result - 1) moves[best++] = moves[k];
            if (best == 0) throw new IllegalStateException("no White move of KBNK " + java.util.Arrays.toString(squares) + " keeps its win");
            for (int s = 0; s < 8; s++) {
                int wb = Square.transform(squares[BISHOP], s);
                if (!Square.isLight(wb)) continue;
                int code = Integer.MAX_VALUE;
                for (int k = 0; k < best; k++) code = Math.min(code, (MoveGenerator.piece(moves[k]) + 1) << 6 | Square.transform(MoveGenerator.to(moves[k]), s));
                int at = address(Square.transform(squares[KING], s), wb, Square.transform(squares[KNIGHT], s), Square.transform(squares[BLACK_KING], s));
                words[at] = (byte) (result / 2);
                words[at + 1] = (byte) code;
            }
        }
        return words;
    }
}
