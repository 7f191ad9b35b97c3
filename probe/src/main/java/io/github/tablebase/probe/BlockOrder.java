package io.github.tablebase.probe;

import io.github.tablebase.chess.PositionIndex;

/**
 * The order in which a compressed part lays out its entries: one digit of the part's index moved to the front, so
 * that the entries that share it are neighbours. The digits of an offset {@code at} in a part of {@code size}
 * indexes are, most significant first, the king pair (its radix the part's king pairs) and the runs of identical
 * non-king pieces (see {@link PositionIndex}); lead 0 keeps the index's own order, lead r brings run r - 1 to the
 * front. With a pawn in front a pawn table often compresses a sixth smaller (KPKP 700 KB against 845 KB), with the
 * black queen in front KQKQ a seventh; other tables compress best in the index's order, so the writer tries each
 * lead on a sample of blocks and keeps the smallest.
 */
final class BlockOrder {
    /** The digit in front: 0 the king pair, r the run r - 1. */
    final int lead;
    /**
     * How far back in its block a don't-care entry (no canonical legal position) copies its byte from: 1, the byte
     * before; or the radix of this order's last digit, the entry of the same last piece's square a step of the digit
     * before (a row above). Either is free to the reader, which never reads these bytes; which compresses smaller
     * depends on the table (KRPKR's part 5 % smaller a row above, KQBKP's 4 % larger), so the writer samples both.
     */
    final int fill;
    /** Radix R of the lead digit, weight W of the digits after it, and {@code size / R}, the lead digit's weight here. */
    private final long radix, weight, stride;
    /** The radix of the last digit in this order. */
    private final long last;
    private final Divisor byWeight, byRadix;

    private BlockOrder(int lead, long radix, long weight, long size, long last, int fill) {
        this.lead = lead;
        this.radix = radix;
        this.weight = weight;
        this.stride = size / radix;
        this.last = last;
        this.fill = fill;
        this.byWeight = new Divisor(weight, size);
        this.byRadix = new Divisor(radix, size);
    }

    /** The don't-care entries' distances worth trying in blocks of {@code block} entries: 1, and a row of the last digit where shorter than a block. */
    int[] fills(int block) { return last > 1 && last < block ? new int[] {1, (int) last} : new int[] {1}; }

    /** This order, its don't-care entries copying the byte {@code fill} before them. */
    BlockOrder filling(int fill) {
        if (fill < 1) throw new IllegalArgumentException("a don't-care entry copies a byte before it, not " + fill);
        return new BlockOrder(lead, radix, weight, stride * radix, last, fill);
    }

    /** How many leads a part of {@code index} may have: the king pair and each run. */
    static int leads(PositionIndex index) { return 1 + index.runRadices().length; }

    /** The order with digit {@code lead} in front, for a part of {@code size} indexes (whole king pairs). */
    static BlockOrder of(PositionIndex index, long size, int lead) {
        long[] runs = index.runRadices();
        if (lead < 0 || lead > runs.length) throw new IllegalArgumentException("lead " + lead + " of " + (runs.length + 1) + " digits");
        if (size <= 0 || size % index.restSize() != 0) throw new IllegalArgumentException("a part of " + size + " indexes is not whole king pairs");
        long weight = 1;
        for (int r = runs.length - 1; r >= lead; r--) weight *= runs[r];
        long pairs = size / index.restSize(), last = lead < runs.length ? runs[runs.length - 1] : runs.length > 1 ? runs[runs.length - 2] : pairs;
        return new BlockOrder(lead, lead == 0 ? pairs : runs[lead - 1], lead == 0 ? index.restSize() : weight, size, last, 1);
    }

    /** Where offset {@code at} of the index's order lies in this order. */
    long stored(long at) {
        if (lead == 0) return at;
        long q = byWeight.quotient(at), low = at - q * weight, high = byRadix.quotient(q), digit = q - high * radix;
        return digit * stride + high * weight + low;
    }

    /** The offset in the index's order of offset {@code stored} in this order ({@link #stored}'s inverse). */
    long canonical(long stored) {
        long digit = stored / stride, rest = stored - digit * stride, high = rest / weight;
        return (high * radix + digit) * weight + rest - high * weight;
    }

    /**
     * Copies the stored side's results (a packed part's plane: entry {@code 2 * at + side}) into {@code out} in this
     * order, a run of W entries at a time.
     */
    void arrange(byte[] results, int side, byte[] out) {
        long highs = stride / weight;
        int w = (int) weight;
        for (long digit = 0; digit < radix; digit++)
            for (long high = 0; high < highs; high++) {
                int from = (int) (2 * ((high * radix + digit) * weight)) + side, to = (int) (digit * stride + high * weight);
                for (int k = 0; k < w; k++) out[to + k] = results[from + 2 * k];
            }
    }

    /**
     * Division by a fixed divisor d of any n below a bound, as a multiplication and a shift where the bound is at
     * most 2^31 (a lookup divides twice, and a search of the other side thirty times): m = floor(2^k / d) + 1 with
     * k = 31 + ceil(log2 d) gives floor(n / d) = (n * m) >> k for every n below 2^31 (Granlund and Montgomery,
     * "Division by invariant integers using multiplication", 1994), and n * m stays below 2^63.
     */
    static final class Divisor {
        private final long divisor, multiplier;
        private final int shift;

        Divisor(long divisor, long bound) {
            if (divisor <= 0) throw new IllegalArgumentException("divisor " + divisor);
            this.divisor = divisor;
            if (bound <= 1L << 31 && divisor <= 1L << 31) {
                shift = 31 + (64 - Long.numberOfLeadingZeros(divisor - 1));
                multiplier = (1L << shift) / divisor + 1; // shift is at most 62
            } else {
                shift = -1;
                multiplier = 0;
            }
        }

        long quotient(long n) { return shift < 0 ? n / divisor : n * multiplier >>> shift; }
    }
}
