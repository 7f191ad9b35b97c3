package io.github.tablebase.chess;

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
    /** The squares a pawn captures on, by colour (White's upwards); a pawn's pushes are not attacks. */
    private static final long[] WHITE_PAWN = leaperTable(new int[][] {{1, 1}, {-1, 1}}), BLACK_PAWN = leaperTable(new int[][] {{1, -1}, {-1, -1}});
    private static final long[] KNIGHT = leaperTable(KNIGHT_STEPS);
    /** BETWEEN[a * 64 + b]: the squares strictly between a and b on a shared line, else 0. */
    private static final long[] BETWEEN = betweenTable();

    /** RAYS[direction][sq]: the squares from sq to the edge; directions 0..3 rook, 4..7 bishop; even directions increase the square. */
    private static final long[][] RAYS = rayTable();
    /** Rook and bishop lines through a square (the square excluded), for the aligned test. */
    private static final long[] ROOK_LINES = new long[64], BISHOP_LINES = new long[64];

    static {
        for (int sq = 0; sq < 64; sq++) {
            for (int d = 0; d < 4; d++) ROOK_LINES[sq] |= RAYS[d][sq];
            for (int d = 4; d < 8; d++) BISHOP_LINES[sq] |= RAYS[d][sq];
        }
    }

    private static final long NOT_FILE_A = 0xfefefefefefefefeL;
    private static final long NOT_FILE_H = 0x7f7f7f7f7f7f7f7fL;

    public static long bit(int sq) { return 1L << sq; }

    public static long king(int sq) { return KING[sq]; }

    public static long between(int a, int b) { return BETWEEN[a * 64 + b]; }

    /** The squares a pawn of {@code color} on {@code sq} attacks (captures on). */
    public static long pawn(Color color, int sq) { return color == Color.WHITE ? WHITE_PAWN[sq] : BLACK_PAWN[sq]; }

    /** The squares a piece of this type on {@code sq} attacks, sliders stopping at the first occupied square (not pawns: their attacks have a colour). */
    public static long of(PieceType type, int sq, long occupied) {
        switch (type) {
            case KING: return KING[sq];
            case KNIGHT: return KNIGHT[sq];
            case BISHOP: return slide(sq, occupied, 4);
            case ROOK: return slide(sq, occupied, 0);
            case QUEEN: return slide(sq, occupied, 0) | slide(sq, occupied, 4);
            default: throw new AssertionError(type);
        }
    }

    /** Whether a piece of this type and colour on {@code from} attacks {@code target}: a pawn by its colour, the others as below. */
    public static boolean attacks(PieceType type, Color color, int from, int target, long occupied) {
        return type == PieceType.PAWN ? (pawn(color, from) & bit(target)) != 0 : attacks(type, from, target, occupied);
    }

    /** Whether a piece of this type on {@code from} attacks {@code target}, without making its whole attack set. */
    public static boolean attacks(PieceType type, int from, int target, long occupied) {
        long t = bit(target);
        switch (type) {
            case KING: return (KING[from] & t) != 0;
            case KNIGHT: return (KNIGHT[from] & t) != 0;
            case BISHOP: return (BISHOP_LINES[from] & t) != 0 && (BETWEEN[from * 64 + target] & occupied) == 0;
            case ROOK: return (ROOK_LINES[from] & t) != 0 && (BETWEEN[from * 64 + target] & occupied) == 0;
            case QUEEN: return ((ROOK_LINES[from] | BISHOP_LINES[from]) & t) != 0 && (BETWEEN[from * 64 + target] & occupied) == 0;
            default: throw new AssertionError(type);
        }
    }

    /** Every square next to a square of {@code set}: the king-step neighbourhood, the set itself excluded unless adjacent. */
    public static long kingNeighbours(long set) {
        long sideways = ((set << 1) & NOT_FILE_A) | ((set >>> 1) & NOT_FILE_H);
        long row = set | sideways;
        return sideways | (row << 8) | (row >>> 8);
    }

    /**
     * The four rays of directions {@code first..first+3}, each cut after its first occupied square: two lines, each
     * the rays up (an even direction, squares above {@code sq}) and down (the odd one after it) taken at once.
     */
    private static long slide(int sq, long occupied, int first) {
        return line(occupied, RAYS[first + 1][sq], RAYS[first][sq]) | line(occupied, RAYS[first + 3][sq], RAYS[first + 2][sq]);
    }

    /**
     * A line's squares attacked from the square between {@code below} and {@code above}, without a branch (Hoffmann's
     * obstruction difference): the bits from the highest blocker below up to the lowest blocker above, both included.
     * The loop of rays it replaces, with a branch on each ray's blockers, took a quarter of a table's init.
     */
    private static long line(long occupied, long below, long above) {
        long blockersAbove = above & occupied, fromBelow = -1L << 63 - Long.numberOfLeadingZeros(below & occupied | 1);
        return (below | above) & 2 * (blockersAbove & -blockersAbove) + fromBelow;
    }

    private static long[][] rayTable() {
        int[][] steps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
        long[][] rays = new long[8][64];
        for (int d = 0; d < 8; d++)
            for (int sq = 0; sq < 64; sq++) {
                int f = Square.file(sq) + steps[d][0], r = Square.rank(sq) + steps[d][1];
                while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                    rays[d][sq] |= bit(Square.of(f, r));
                    f += steps[d][0];
                    r += steps[d][1];
                }
            }
        return rays;
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
