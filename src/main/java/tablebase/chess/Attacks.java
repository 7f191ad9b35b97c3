package tablebase.chess;

/** Attack sets as 64-bit square sets (bit {@code sq} = square {@code sq}), precomputed where static. */
public final class Attacks {
    private Attacks() {}

    private static final int[][] ROOK_STEPS = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    private static final int[][] BISHOP_STEPS = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    private static final int[][] KING_STEPS = {
        {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    private static final int[][] KNIGHT_STEPS = {
        {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

    private static final long[] KING = leaperTable(KING_STEPS);
    private static final long[] KNIGHT = leaperTable(KNIGHT_STEPS);
    /** BETWEEN[a * 64 + b]: the squares strictly between a and b on a shared line, else 0. */
    private static final long[] BETWEEN = betweenTable();

    private static final long NOT_FILE_A = 0xfefefefefefefefeL;
    private static final long NOT_FILE_H = 0x7f7f7f7f7f7f7f7fL;

    public static long bit(int sq) { return 1L << sq; }

    public static long king(int sq) { return KING[sq]; }

    public static long between(int a, int b) { return BETWEEN[a * 64 + b]; }

    /** The squares a piece of this type on {@code sq} attacks, sliders stopping at the first occupied square. */
    public static long of(PieceType type, int sq, long occupied) {
        switch (type) {
            case KING: return KING[sq];
            case KNIGHT: return KNIGHT[sq];
            case BISHOP: return slide(sq, occupied, BISHOP_STEPS);
            case ROOK: return slide(sq, occupied, ROOK_STEPS);
            case QUEEN: return slide(sq, occupied, BISHOP_STEPS) | slide(sq, occupied, ROOK_STEPS);
            default: throw new AssertionError(type);
        }
    }

    /** Every square next to a square of {@code set}: the king-step neighbourhood, the set itself excluded unless adjacent. */
    public static long kingNeighbours(long set) {
        long sideways = ((set << 1) & NOT_FILE_A) | ((set >>> 1) & NOT_FILE_H);
        long row = set | sideways;
        return sideways | (row << 8) | (row >>> 8);
    }

    private static long slide(int sq, long occupied, int[][] steps) {
        long attacks = 0;
        for (int[] step : steps) {
            int f = Square.file(sq) + step[0], r = Square.rank(sq) + step[1];
            while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                long b = bit(Square.of(f, r));
                attacks |= b;
                if ((occupied & b) != 0) break;
                f += step[0];
                r += step[1];
            }
        }
        return attacks;
    }

    private static long[] leaperTable(int[][] steps) {
        long[] table = new long[64];
        for (int sq = 0; sq < 64; sq++) {
            for (int[] step : steps) {
                int f = Square.file(sq) + step[0], r = Square.rank(sq) + step[1];
                if (f >= 0 && f < 8 && r >= 0 && r < 8) table[sq] |= bit(Square.of(f, r));
            }
        }
        return table;
    }

    private static long[] betweenTable() {
        long[] table = new long[64 * 64];
        for (int a = 0; a < 64; a++) {
            for (int[][] steps : new int[][][] {ROOK_STEPS, BISHOP_STEPS}) {
                for (int[] step : steps) {
                    long path = 0;
                    int f = Square.file(a) + step[0], r = Square.rank(a) + step[1];
                    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                        int b = Square.of(f, r);
                        table[a * 64 + b] = path;
                        path |= bit(b);
                        f += step[0];
                        r += step[1];
                    }
                }
            }
        }
        return table;
    }
}
