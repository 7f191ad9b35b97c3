package io.github.tablebase.chess;

/** Squares are ints 0..63, {@code sq = file + 8 * rank}: a1 = 0, h1 = 7, a8 = 56, h8 = 63. */
public final class Square {
    private Square() {}

    public static int file(int sq) { return sq & 7; }

    public static int rank(int sq) { return sq >>> 3; }

    public static int of(int file, int rank) { return file + 8 * rank; }

    /** Light squares have {@code file + rank} odd: a1 is dark, h1 is light. */
    public static boolean isLight(int sq) { return ((file(sq) + rank(sq)) & 1) == 1; }

    /** The left-right mirror {@code file -> 7 - file}, rank unchanged. */
    public static int mirrorFile(int sq) { return sq ^ 7; }

    /** The top-bottom mirror {@code rank -> 7 - rank}, file unchanged: the board seen from the other side. */
    public static int rankMirrored(int sq) { return sq ^ 56; }

    /** King (Chebyshev) distance. */
    public static int distance(int a, int b) {
        return Math.max(Math.abs(file(a) - file(b)), Math.abs(rank(a) - rank(b)));
    }

    public static String name(int sq) {
        return NAMES[sq];
    }

    /** Every square's name, made once: an export names millions of squares. */
    private static final String[] NAMES = new String[64];

    static {
        // chars, not string concatenation: its call site's linking costs a probe command 14 ms at start
        for (int sq = 0; sq < 64; sq++) NAMES[sq] = new String(new char[] {(char) ('a' + sq % 8), (char) ('1' + sq / 8)});
    }

    /** Parses "a1".."h8"; anything else is an IllegalArgumentException naming the input. */
    public static int parse(String name) {
        if (name == null || name.length() != 2) throw new IllegalArgumentException("not a square: " + name);
        int f = name.charAt(0) - 'a';
        int r = name.charAt(1) - '1';
        if (f < 0 || f > 7 || r < 0 || r > 7) throw new IllegalArgumentException("not a square: " + name);
        return of(f, r);
    }

    /**
     * The eight symmetries of the square board, numbered 0..7: bit 0 mirrors the file, bit 1 the
     * rank, bit 2 swaps file and rank (applied first). Symmetry 0 is the identity.
     */
    public static int transform(int sq, int symmetry) { return TRANSFORMED[symmetry << 6 | sq]; }

    private static final int[] TRANSFORMED = new int[8 * 64];

    static {
        for (int s = 0; s < 8; s++) for (int sq = 0; sq < 64; sq++) TRANSFORMED[s << 6 | sq] = computeTransform(sq, s);
    }

    private static int computeTransform(int sq, int symmetry) {
        int f = file(sq), r = rank(sq);
        if ((symmetry & 4) != 0) { int t = f; f = r; r = t; }
        if ((symmetry & 1) != 0) f = 7 - f;
        if ((symmetry & 2) != 0) r = 7 - r;
        return of(f, r);
    }

    /** The symmetry that undoes {@code symmetry}: a swap with mirrors becomes mirrors then a swap, so the two mirrors trade places. */
    public static int inverse(int symmetry) {
        return (symmetry & 4) == 0 ? symmetry : 4 | (symmetry & 1) << 1 | (symmetry & 2) >> 1;
    }
}
