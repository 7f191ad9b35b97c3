package tablebase.generate;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * One partition of the table: its White placements in ascending order and, per placement, the sets of
 * Black king squares solved so far and the per-square results, all as primitive arrays. Blocks are never
 * changed once built: each half-move makes a new block and shares the arrays it does not touch.
 */
public final class PlacementBlock implements Serializable {
    /** Marks a Black king square with no White move stored. */
    public static final byte NO_MOVE = (byte) 0xFF;

    final long[] placements;
    /** White-to-move positions won, as Black king squares per placement. */
    final long[] won;
    /** Black-to-move positions lost. */
    final long[] lost;
    /** Positions first decided in the last half-move of each side. */
    final long[] whiteFrontier;
    final long[] blackFrontier;
    /** 64 bytes per placement: White's mate distance per Black king square (0 = not won). */
    final byte[] whiteDtm;
    /** 64 bytes per placement: White's best move, {@code piece << 6 | to}, or {@link #NO_MOVE}. */
    final byte[] whiteMove;
    /** 64 bytes per placement: moves still needed for a lost Black-to-move square (read only where lost). */
    final byte[] blackDtm;
    /** White un-move rows this partition received in the White half-move that made it (a progress figure). */
    final long unmovesJoined;

    PlacementBlock(long[] placements, long[] won, long[] lost, long[] whiteFrontier, long[] blackFrontier,
                   byte[] whiteDtm, byte[] whiteMove, byte[] blackDtm, long unmovesJoined) {
        this.placements = placements;
        this.won = won;
        this.lost = lost;
        this.whiteFrontier = whiteFrontier;
        this.blackFrontier = blackFrontier;
        this.whiteDtm = whiteDtm;
        this.whiteMove = whiteMove;
        this.blackDtm = blackDtm;
        this.unmovesJoined = unmovesJoined;
    }

    /** A block of placements with nothing solved but the given checkmates (Black lost in 0). */
    static PlacementBlock ofCheckmates(long[] placements, long[] checkmates) {
        int n = placements.length;
        byte[] noMoves = new byte[n * 64];
        Arrays.fill(noMoves, NO_MOVE);
        return new PlacementBlock(placements, new long[n], checkmates, new long[n], checkmates,
                new byte[n * 64], noMoves, new byte[n * 64], 0);
    }

    public int size() { return placements.length; }

    public long placement(int i) { return placements[i]; }

    /** White's mate distance with the Black king on {@code bk}, 0 when White does not win. */
    public int whiteDtm(int i, int bk) { return whiteDtm[i * 64 + bk]; }

    /** White's best move code with the Black king on {@code bk}, or -1. */
    public int whiteMove(int i, int bk) {
        byte m = whiteMove[i * 64 + bk];
        return m == NO_MOVE ? -1 : m & 0xFF;
    }

    /** Black's distance to mate with its king on {@code bk}, -1 when Black to move is not lost. */
    public int blackDtm(int i, int bk) {
        return (lost[i] & (1L << bk)) != 0 ? blackDtm[i * 64 + bk] : -1;
    }

    /** Writes the block in a plain binary form ({@link #readFrom} reads it back), for the work folder. */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(placements.length);
        out.writeLong(unmovesJoined);
        for (long[] column : new long[][] {placements, won, lost, whiteFrontier, blackFrontier})
            for (long v : column) out.writeLong(v);
        out.write(whiteDtm);
        out.write(whiteMove);
        out.write(blackDtm);
    }

    static PlacementBlock readFrom(DataInputStream in) throws IOException {
        int n = in.readInt();
        long unmovesJoined = in.readLong();
        long[][] columns = new long[5][n];
        for (long[] column : columns)
            for (int i = 0; i < n; i++) column[i] = in.readLong();
        byte[][] bytes = new byte[3][n * 64];
        for (byte[] b : bytes) in.readFully(b);
        return new PlacementBlock(columns[0], columns[1], columns[2], columns[3], columns[4], bytes[0], bytes[1], bytes[2],
                unmovesJoined);
    }

    /** The row of a placement, or a negative number when this block does not hold it. */
    int indexOf(long placement) { return Arrays.binarySearch(placements, placement); }

    long newWhite() { return bitCount(whiteFrontier); }

    long newBlack() { return bitCount(blackFrontier); }

    private static long bitCount(long[] sets) {
        long n = 0;
        for (long s : sets) n += Long.bitCount(s);
        return n;
    }
}
