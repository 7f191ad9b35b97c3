package io.github.tablebase.chess;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A dense index of the positions of any material up to the board's symmetries, one function for every material (no
 * hand-written index per endgame): the eight symmetries without pawns, the left-right mirror only with them. An
 * index is {@code kingPair * restSize + rest}: {@code kingPair} numbers the classes of legal king placements (462
 * under eight symmetries, 1,806 under the mirror), and {@code rest} places the other pieces in material order, each
 * run of identical pieces as one combination of squares (so KBBK counts its two bishops once), pawns over their 48
 * squares (ranks 2 to 7). The side to move is not part of it.
 *
 * <p>Every position maps to the index of its canonical form: among its images, those with the smallest king pair
 * code ({@code wk * 64 + bk}), and among these the smallest index. Some indexes are never canonical (pieces on one
 * square, or the mirror of a smaller one when the kings are symmetric); {@link #position} decodes them all the same,
 * and {@link #index} tells which are canonical.
 */
public final class PositionIndex implements Serializable {
    private static final long[][] BINOMIAL = new long[65][7];

    static {
        long[][] binomial = BINOMIAL; // a local: see the static block of DIGITS
        for (int n = 0; n <= 64; n++) {
            binomial[n][0] = 1;
            for (int k = 1; k < 7; k++) binomial[n][k] = n == 0 ? 0 : binomial[n - 1][k - 1] + binomial[n - 1][k];
        }
    }

    /** The king pair classes under a set of symmetries (bits {@code 1 << s}, see {@link Square#transform}). */
    private static final class KingPairs {
        /** Canonical king pairs {@code wk * 64 + bk}, ascending. */
        final int[] pairs;
        /** Pair code -> its index in {@code pairs}, or -1 when the pair is illegal or not canonical. */
        final int[] pairIndex = new int[64 * 64];
        /**
         * Pair code -> in one int (one read a probe): the index in {@code pairs} of its class's canonical pair, times
         * 256, plus the symmetries taking it there as bits; its complement (negative) when the pair is symmetric (two
         * bits), and -1 for touching kings, so that a probe tests the two rare cases at once.
         */
        final int[] toCanonical = new int[64 * 64];
        /** How many images a position has: the symmetries' count. */
        final int images;

        KingPairs(int symmetries) {
            images = Integer.bitCount(symmetries);
            // plain loops over tables, each pair's images computed once: this runs before the JIT, at every start of a
            // probe command
            int[] smallest = new int[64 * 64], bits = new int[64 * 64];
            Arrays.fill(smallest, Integer.MAX_VALUE);
            for (int s = 0; s < 8; s++) {
                if ((symmetries >> s & 1) == 0) continue;
                int[] image = new int[64];
                for (int sq = 0; sq < 64; sq++) image[sq] = Square.transform(sq, s);
                for (int code = 0; code < 64 * 64; code++) {
                    int pair = image[code >> 6] << 6 | image[code & 63];
                    if (pair < smallest[code]) { smallest[code] = pair; bits[code] = 1 << s; }
                    else if (pair == smallest[code]) bits[code] |= 1 << s;
                }
            }
            Arrays.fill(pairIndex, -1);
            int[] canonical = new int[64 * 64];
            int count = 0;
            for (int code = 0; code < 64 * 64; code++) {
                if (smallest[code] != code || Square.distance(code >> 6, code & 63) <= 1) continue;
                pairIndex[code] = count;
                canonical[count++] = code;
            }
            pairs = Arrays.copyOf(canonical, count);
            for (int code = 0; code < 64 * 64; code++) {
                int pair = pairIndex[smallest[code]];
                toCanonical[code] = pair < 0 ? TOUCHING : Integer.bitCount(bits[code]) > 1 ? ~(pair << 8 | bits[code]) : pair << 8 | bits[code];
            }
        }
    }

    /** {@code toCanonical} of touching kings. */
    private static final int TOUCHING = -1;

    private static final KingPairs EIGHT = new KingPairs(0xFF);

    /** The pairs of materials with pawns, made on first use: a probe of pawnless tables never needs them. */
    private static final class Mirrored {
        static final KingPairs PAIRS = new KingPairs(0b11); // symmetry 1 mirrors the file
    }

    private final Material material;
    private final int whiteKing, blackKing;
    /** Runs of identical non-king pieces: first piece index and length, in material order; pawns' squares start at a2. */
    private final int[] groupStart, groupLength, groupOffset;
    /** Each group's number of placements, C(64 or 48, length): the radix of its digit in the rest of the index. */
    private final long[] groupRadix;
    /** Each run of one or two pieces as {@link #digit} reads it (see {@link #run0}); 0 for longer runs. */
    private final transient int[] runCode;
    private final long restSize;
    /**
     * The rest without a loop, for a material of one to three runs none longer than two (every endgame up to five
     * pieces but those with three identical pieces): a run's digit is one read of {@link #DIGITS} by the symmetry and
     * its first and last pieces' squares. Fewer instructions between one probe's read and the next let the processor
     * start the next lookup while this one waits for memory. The number of runs when the rest is computed so (1 to
     * 3), else 0.
     */
    private final transient int straightRuns;
    /**
     * The first three runs' codes: first and last piece (bits 0-3 and 4-7) and kind of digit (bits 12-13, see
     * {@link #DIGITS}); {@link #runCode}'s first three, as fields, so that a probe reads no array for them.
     */
    private final transient int run0, run1, run2;
    private final transient long radix1, radix2;
    /** Each piece's run (-1 for a king), and what a run's digit weighs in the rest: the radixes of the runs after it. */
    private final transient int[] runOfPiece;
    private final transient long[] runWeight;
    /** The king pairs of this material's symmetries (rebuilt, not shipped, when an index travels to an executor). */
    private final transient KingPairs kingPairs;

    public PositionIndex(Material material) {
        if (material.size() > 8) throw new IllegalArgumentException("an index covers up to 8 pieces, not " + material.size());
        this.material = material;
        this.whiteKing = material.kingIndex(Color.WHITE);
        this.blackKing = material.kingIndex(Color.BLACK);
        kingPairs = material.hasPawns() ? Mirrored.PAIRS : EIGHT;
        List<int[]> groups = new ArrayList<>();
        for (int i = 0; i < material.size(); i++) {
            if (i == whiteKing || i == blackKing) continue;
            int[] last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (last != null && last[0] + last[1] == i && material.piece(last[0]).equals(material.piece(i))) last[1]++;
            else groups.add(new int[] {i, 1});
        }
        groupStart = groups.stream().mapToInt(g -> g[0]).toArray();
        groupLength = groups.stream().mapToInt(g -> g[1]).toArray();
        groupOffset = groups.stream().mapToInt(g -> material.piece(g[0]).type() == PieceType.PAWN ? 8 : 0).toArray();
        groupRadix = new long[groupLength.length];
        for (int g = 0; g < groupLength.length; g++) groupRadix[g] = BINOMIAL[64 - 2 * groupOffset[g]][groupLength[g]];
        long rest = 1;
        for (long radix : groupRadix) rest *= radix;
        restSize = rest;
        int runs = groupLength.length;
        straightRuns = runs <= 3 && Arrays.stream(groupLength).allMatch(length -> length <= 2) ? runs : 0;
        runCode = new int[Math.max(3, runs)];
        for (int g = 0; g < runs; g++)
            if (groupLength[g] <= 2)
                runCode[g] = groupStart[g] | (groupStart[g] + groupLength[g] - 1) << 4 | ((groupLength[g] - 1) * 2 + groupOffset[g] / 8) << 12;
        run0 = runCode[0];
        run1 = runCode[1];
        run2 = runCode[2];
        radix1 = straightRuns > 1 ? groupRadix[1] : 0;
        radix2 = straightRuns > 2 ? groupRadix[2] : 0;
        runOfPiece = new int[material.size()];
        Arrays.fill(runOfPiece, -1);
        runWeight = new long[runs];
        for (int g = runs - 1; g >= 0; g--) {
            runWeight[g] = g == runs - 1 ? 1 : runWeight[g + 1] * groupRadix[g + 1];
            for (int k = 0; k < groupLength[g]; k++) runOfPiece[groupStart[g] + k] = g;
        }
    }

    /**
     * The canonical index of the position {@code index} (its pieces on {@code squares}) after piece {@code piece}, not
     * a king, moves to the empty square {@code to}, from its run's digit alone: the kings stay, so the symmetry that
     * makes their pair canonical does too. -1 where it takes the whole index: a king pair that is its own mirror image
     * (the least of several images), or a run of three identical pieces. A retrograde ply makes some thirty of these
     * per position it decides.
     */
    public long indexAfterMove(long index, int[] squares, int piece, int to) {
        int run = runOfPiece[piece], pair = kingPairs.toCanonical[squares[whiteKing] << 6 | squares[blackKing]];
        if (run < 0 || pair < 0 || groupLength[run] > 2) return -1;
        int s = Integer.numberOfTrailingZeros(pair), code = runCode[run], from = squares[piece];
        int before = digit(squares, s, code);
        squares[piece] = to;
        int after = digit(squares, s, code);
        squares[piece] = from;
        return index + (after - before) * runWeight[run];
    }

    private Object readResolve() { return new PositionIndex(material); }

    /** The number of king pair classes: 462 without pawns, 1,806 with. */
    public int kingPairs() { return kingPairs.pairs.length; }

    public Material material() { return material; }

    /** Number of indexes (per side to move). */
    public long size() { return kingPairs.pairs.length * restSize; }

    /** Indexes per king pair: the placements of the other pieces. */
    public long restSize() { return restSize; }

    /** The radix of each run's digit in the rest, in material order: C(64, length), or C(48, length) for pawns. */
    public long[] runRadices() { return groupRadix.clone(); }

    /** Whether the king pair of a canonical index is symmetric, so that a position may be its own mirror image. */
    public boolean symmetricKingPair(long index) {
        return kingPairs.toCanonical[kingPairs.pairs[(int) (index / restSize)]] < 0;
    }

    /** The index of the position's canonical form; its kings must not touch. */
    public long index(Position p) { return index(p.squaresUnchanged()); }

    /** The canonical index of pieces on {@code squares} (material order, identical pieces in any order); kings must not touch. */
    public long index(int[] squares) {
        long index = indexOrNone(squares);
        if (index == NONE) throw touchingKings(squares);
        return index;
    }

    /** {@link #index(Position)}, or {@link #NONE} when the kings touch: a probe's one check of the kings. */
    public long indexOrNone(Position p) { return indexOrNone(p.squaresUnchanged()); }

    /** What {@link #indexOrNone} gives touching kings. */
    public static final long NONE = -1;

    private long indexOrNone(int[] squares) {
        int pair = kingPairs.toCanonical[squares[whiteKing] << 6 | squares[blackKing]];
        if (pair < 0) return pair == TOUCHING ? NONE : leastIndex(squares, ~pair);
        return (pair >>> 8) * restSize + rest(squares, Integer.numberOfTrailingZeros(pair));
    }

    /** The index on a symmetric king pair: the least over its symmetries (apart: rare, and the common path stays short). */
    private long leastIndex(int[] squares, int pair) {
        long least = Long.MAX_VALUE;
        for (int symmetries = pair & 0xFF; symmetries != 0; symmetries &= symmetries - 1)
            least = Math.min(least, rest(squares, Integer.numberOfTrailingZeros(symmetries)));
        return (pair >>> 8) * restSize + least;
    }

    /**
     * How many positions the canonical entry at {@code index} stands for: its distinct images under the eight
     * symmetries, 8 unless the position is its own mirror image (only on a symmetric king pair); {@code squares} is scratch.
     */
    public int positions(long index, int[] squares) {
        if (!symmetricKingPair(index)) return kingPairs.images;
        if (!decode(index, squares)) throw new IllegalArgumentException("index " + index + " places two pieces on one square");
        return kingPairs.images / Integer.bitCount(canonicalSymmetries(squares));
    }

    /** The canonical form of {@code p}: the position its index names, same side to move. */
    public Position canonical(Position p) { return position(index(p), p.sideToMove()); }

    /** The symmetry (see {@link Square#transform}) that takes {@code p} to the position of its index. */
    public int canonicalSymmetry(Position p) { return Integer.numberOfTrailingZeros(canonicalSymmetries(p)); }

    /**
     * Every symmetry that takes {@code p} to the position of its index, as bits {@code 1 << s}: more than one
     * when that position is symmetric itself, and then a move of {@code p} has one image per symmetry.
     */
    public int canonicalSymmetries(Position p) { return canonicalSymmetries(p.squaresUnchanged()); }

    /** {@link #canonicalSymmetries(Position)} of pieces on {@code squares}. */
    public int canonicalSymmetries(int[] squares) {
        int pairSymmetries = canonicalPair(squares) & 0xFF;
        if (Integer.bitCount(pairSymmetries) == 1) return pairSymmetries;
        long least = Long.MAX_VALUE;
        int symmetries = 0;
        for (int bits = pairSymmetries; bits != 0; bits &= bits - 1) {
            int s = Integer.numberOfTrailingZeros(bits);
            long rest = rest(squares, s);
            if (rest < least) { least = rest; symmetries = 0; }
            if (rest == least) symmetries |= 1 << s;
        }
        return symmetries;
    }

    /** The index of {@code p} through one of its {@link #canonicalSymmetries} (saves computing them twice). */
    public long index(Position p, int canonicalSymmetries) { return index(p.squaresUnchanged(), canonicalSymmetries); }

    /** The index of pieces on {@code squares} through one of their {@link #canonicalSymmetries}. */
    public long index(int[] squares, int canonicalSymmetries) {
        return (canonicalPair(squares) >>> 8) * restSize + rest(squares, Integer.numberOfTrailingZeros(canonicalSymmetries));
    }

    /** The pieces on the squares an index names, {@code side} to move; null when two pieces share a square. */
    public Position position(long index, Color side) {
        int[] squares = new int[material.size()];
        return decode(index, squares) ? new Position(material, squares, side) : null;
    }

    /**
     * The legal position an index holds, {@code side} to move: null where it holds none (two pieces on a square, an
     * image of a position whose canonical index is another, or an illegal position).
     */
    public Position legalPosition(long index, Color side) {
        Position p = position(index, side);
        return p == null || index(p) != index || !p.isLegal() ? null : p;
    }

    /** Writes the squares an index names into {@code squares} (material order); false when two pieces share a square. */
    public boolean decode(long index, int[] squares) {
        if (index < 0 || index >= size()) throw new IllegalArgumentException("index " + index + " is outside 0.." + (size() - 1));
        int pair = kingPairs.pairs[(int) (index / restSize)];
        squares[whiteKing] = pair / 64;
        squares[blackKing] = pair % 64;
        long rest = index % restSize;
        for (int g = groupLength.length - 1; g >= 0; g--) {
            long radix = groupRadix[g];
            placeRun(g, rest % radix, squares);
            rest /= radix;
        }
        return noSharedSquare(squares);
    }

    /**
     * {@link #decode} of index {@code next} into {@code squares}, which hold the decoding of {@code next - 1}: the
     * rest's digits counted up by one as far as they carry, the king pair decoded anew only when they all do. A pass
     * over a range so divides once a king pair, not at every index (a table's init decodes each of its indexes).
     */
    public boolean decodeNext(long next, int[] squares) {
        for (int g = groupLength.length - 1; g >= 0; g--) {
            long digit = runDigit(g, squares) + 1;
            if (digit < groupRadix[g]) {
                placeRun(g, digit, squares);
                return noSharedSquare(squares);
            }
            placeRun(g, 0, squares);
        }
        return decode(next, squares);
    }

    /** Places run {@code g}'s pieces on the squares of its digit {@code rank}, ascending. */
    private void placeRun(int g, long rank, int[] squares) {
        int start = groupStart[g], offset = groupOffset[g];
        switch (groupLength[g]) {
            case 1 -> squares[start] = (int) rank + offset; // a lone piece's rank is its square
            case 2 -> {
                int two = PAIR_OF_RANK[(int) rank];
                squares[start] = (two & 0xFF) + offset;
                squares[start + 1] = (two >>> 8) + offset;
            }
            case 3 -> {
                int three = TRIPLE_OF_RANK[(int) rank];
                squares[start] = (three & 63) + offset;
                squares[start + 1] = (three >>> 6 & 63) + offset;
                squares[start + 2] = (three >>> 12) + offset;
            }
            default -> unrank(rank, groupLength[g], squares, start, offset);
        }
    }

    /** Run {@code g}'s digit of pieces placed as {@link #placeRun} places them (no symmetry). */
    private long runDigit(int g, int[] squares) {
        int start = groupStart[g], offset = groupOffset[g];
        return switch (groupLength[g]) {
            case 1 -> squares[start] - offset;
            case 2 -> {
                int lo = squares[start] - offset, hi = squares[start + 1] - offset;
                yield lo + hi * (hi - 1) / 2;
            }
            default -> rankOf(squares, start, groupLength[g], 0, offset);
        };
    }

    private static boolean noSharedSquare(int[] squares) {
        long occupied = 0;
        for (int k = 0; k < squares.length; k++) {
            long bit = 1L << squares[k];
            if ((occupied & bit) != 0) return false;
            occupied |= bit;
        }
        return true;
    }

    /**
     * Whether the index of pieces decoded onto {@code squares} is canonical: always, but on a king pair that is its own
     * mirror image (then the least of the images is), as a decoded king pair is canonical and the rest read through
     * no symmetry gives back its digits.
     */
    public boolean canonicalDecoded(long index, int[] squares) {
        return kingPairs.toCanonical[squares[whiteKing] << 6 | squares[blackKing]] >= 0 || index(squares) == index;
    }

    /** The squares' entry of the king pairs' canonical table; touching kings have no index. */
    private int canonicalPair(int[] squares) {
        int pair = kingPairs.toCanonical[squares[whiteKing] << 6 | squares[blackKing]];
        if (pair == TOUCHING) throw touchingKings(squares);
        return pair < 0 ? ~pair : pair;
    }

    private IllegalArgumentException touchingKings(int[] squares) {
        return new IllegalArgumentException("no index for touching kings: " + Square.name(squares[whiteKing]) + " " + Square.name(squares[blackKing]));
    }

    /** The non-king pieces' part of the index, seen through symmetry {@code s} (one that makes their king pair canonical). */
    private long rest(int[] squares, int s) {
        int runs = straightRuns;
        if (runs == 0) return restOfRuns(squares, s);
        long rest = digit(squares, s, run0);
        if (runs > 1) rest = rest * radix1 + digit(squares, s, run1); // the same branch every probe of a material
        if (runs > 2) rest = rest * radix2 + digit(squares, s, run2);
        return rest;
    }

    /** A run's digit (see {@link #run0}) through symmetry {@code s}. */
    private static int digit(int[] squares, int s, int run) {
        return DIGITS[((run & 0x3000) << 3 | s << 12 | squares[run & 15] << 6 | squares[run >>> 4 & 15]) & 0x1FFFF];
    }

    /** {@link #rest} run by run, for any material. */
    private long restOfRuns(int[] squares, int s) {
        long rest = 0;
        for (int g = 0; g < groupLength.length; g++) {
            long rank = groupLength[g] <= 2 ? digit(squares, s, runCode[g]) : rankOf(squares, groupStart[g], groupLength[g], s, groupOffset[g]);
            rest = rest * groupRadix[g] + rank;
        }
        return rest;
    }

    /**
     * The two squares of each colex rank of a pair, {@code low | high << 8}: decoding a pair is a table read, not
     * a search (a colex rank does not depend on the number of squares, so pawns' 48 use the same table).
     */
    private static final int[] PAIR_OF_RANK = new int[64 * 63 / 2];
    /** The same for three identical pieces, {@code low | middle << 6 | high << 12} (KRRRK's index 5 times faster than by search). */
    private static final int[] TRIPLE_OF_RANK = new int[64 * 63 * 62 / 6];
    /**
     * A run's digit by its kind, the symmetry and its first and last squares, {@code kind << 15 | s << 12 | a << 6 |
     * b} (a lone piece: a = b), the squares' images under {@code s} looked up with it (two reads fewer a run, a probe
     * 15-19 % faster than transforming them first): kind 0 a lone piece (its square), 1 a lone pawn (from a2), 2 a
     * pair (the colex rank), 3 a pair of pawns. A pawn on the first or last rank has no digit (see
     * {@link Position#placeable}). 256 KB.
     */
    private static final char[] DIGITS = new char[4 << 15];

    static {
        // the arrays as locals: inside its class's initializer each read of a static field is a call into the JVM
        int[] pairOfRank = PAIR_OF_RANK, tripleOfRank = TRIPLE_OF_RANK;
        char[] digits = DIGITS;
        // colex order: the squares in this loop order have ranks 0, 1, 2, ... (C(hi + 1, 2) = C(hi, 2) + hi)
        int rank = 0;
        for (int hi = 1; hi < 64; hi++) for (int lo = 0; lo < hi; lo++) pairOfRank[rank++] = lo | hi << 8;
        rank = 0;
        for (int hi = 2; hi < 64; hi++)
            for (int mid = 1; mid < hi; mid++) for (int lo = 0; lo < mid; lo++) tripleOfRank[rank++] = lo | mid << 6 | hi << 12;
        int[] image = new int[64];
        for (int s = 0; s < 8; s++) {
            for (int sq = 0; sq < 64; sq++) image[sq] = Square.transform(sq, s);
            for (int a0 = 0; a0 < 64; a0++) {
                int a = image[a0], row = s << 12 | a0 << 6;
                Arrays.fill(digits, row, row + 64, (char) a); // a lone piece's digit does not depend on b
                Arrays.fill(digits, 1 << 15 | row, (1 << 15 | row) + 64, (char) (a - 8));
                for (int b0 = 0; b0 < 64; b0++) {
                    int b = image[b0], lo = Math.min(a, b), hi = Math.max(a, b);
                    digits[2 << 15 | row | b0] = (char) (lo + hi * (hi - 1) / 2); // rank2, inline: this runs before the JIT
                    digits[3 << 15 | row | b0] = (char) (lo - 8 + (hi - 8) * (hi - 9) / 2);
                }
            }
        }
    }

    /** The colex rank of three identical pieces' squares, in any order. */
    private static long rank3(int a, int b, int c) {
        int lo = Math.min(a, Math.min(b, c)), hi = Math.max(a, Math.max(b, c)), mid = a + b + c - lo - hi;
        return BINOMIAL[lo][1] + BINOMIAL[mid][2] + BINOMIAL[hi][3];
    }

    /** The colex rank of a longer run of identical pieces: their images sorted by insertion (runs are short). */
    private static long rankOf(int[] squares, int start, int k, int s, int offset) {
        if (k == 3)
            return rank3(Square.transform(squares[start], s) - offset, Square.transform(squares[start + 1], s) - offset,
                    Square.transform(squares[start + 2], s) - offset);
        int[] sorted = new int[k];
        for (int j = 0; j < k; j++) {
            int v = Square.transform(squares[start + j], s) - offset, at = j;
            while (at > 0 && sorted[at - 1] > v) { sorted[at] = sorted[at - 1]; at--; }
            sorted[at] = v;
        }
        return rank(sorted, k);
    }

    /** Colex rank of ascending squares: sum of C(sq_j, j + 1). */
    private static long rank(int[] ascending, int k) {
        long r = 0;
        for (int j = 0; j < k; j++) r += BINOMIAL[ascending[j]][j + 1];
        return r;
    }

    /** The ascending squares of colex rank {@code r}: for each place from the top, the largest square with C(sq, j) <= r, by bisection. */
    private static void unrank(long r, int k, int[] squares, int at, int offset) {
        for (int j = k; j >= 1; j--) {
            int lo = j - 1, hi = 63; // C(lo, j) = 0 <= r; find the largest sq in lo..hi with C(sq, j) <= r
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (BINOMIAL[mid][j] <= r) lo = mid; else hi = mid - 1;
            }
            squares[at + j - 1] = lo + offset;
            r -= BINOMIAL[lo][j];
        }
    }
}
