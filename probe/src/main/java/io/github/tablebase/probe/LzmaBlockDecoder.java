package io.github.tablebase.probe;

import java.util.Arrays;

/**
 * A raw LZMA stream (no header, no end marker) of a known decompressed size, decoded into one array that is also its
 * window, as far as a lookup needs and resumed later from there. It reads the compressed bytes from an array and keeps
 * the range coder in locals while it decodes, where xz-java's stream decoder reads one byte at a time through an
 * {@code InputStream} and copies out of a window of its own. Damaged input never reads or writes out of bounds: a
 * distance past the bytes decoded, a match past the block's end or a stream read past its end is a
 * {@link CorruptTableException}; other damage shows in the bytes, which the block's CRC-32s check.
 *
 * <p>The stream is the one LZMA's specification describes (Igor Pavlov, lzma-specification.txt in the LZMA SDK): a
 * range coder over adaptive bit probabilities; literals coded bit by bit (after a match, against the byte the last
 * distance points at); matches with a length and a distance, or a repeat of one of the last four distances.
 */
final class LzmaBlockDecoder implements BlockCodec.BlockDecoder {
    private static final int STATES = 12, POS_STATES_MAX = 16, END_POS_MODEL = 14, FULL_DISTANCES = 128;
    private static final int PROB_INIT = 1 << 10, TOP = 1 << 24, MOVE_BITS = 5, BIT_MODEL_TOTAL_BITS = 11;

    // where each model's probabilities start in one array
    private static final int IS_MATCH = 0;
    private static final int IS_REP = IS_MATCH + STATES * POS_STATES_MAX;
    private static final int IS_REP_G0 = IS_REP + STATES;
    private static final int IS_REP_G1 = IS_REP_G0 + STATES;
    private static final int IS_REP_G2 = IS_REP_G1 + STATES;
    private static final int IS_REP0_LONG = IS_REP_G2 + STATES;
    private static final int POS_SLOT = IS_REP0_LONG + STATES * POS_STATES_MAX;
    private static final int SPEC_POS = POS_SLOT + 4 * 64;
    private static final int ALIGN = SPEC_POS + 1 + FULL_DISTANCES - END_POS_MODEL;
    private static final int LEN = ALIGN + 16;
    private static final int LEN_SIZE = 2 + 2 * POS_STATES_MAX * 8 + 256;
    private static final int REP_LEN = LEN + LEN_SIZE;
    private static final int LITERAL = REP_LEN + LEN_SIZE;

    private final byte[] in;
    private final int inEnd;
    private final byte[] out;
    private final int lc, literalPosMask, posMask;
    private final short[] probs;
    private int inPos, outPos, range, code, state, rep0, rep1, rep2, rep3;
    /** Bytes of the last match not yet copied: it reached past where the last call stopped. */
    private int pending;

    /**
     * A decoder of {@code compressed}, the stream, into {@code out}, whose length is the decompressed size;
     * {@code properties} is LZMA's properties byte, {@code (pb * 5 + lp) * 9 + lc}.
     */
    LzmaBlockDecoder(byte[] compressed, byte properties, byte[] out) {
        int p = properties & 0xFF;
        if (p >= 9 * 5 * 5) throw new CorruptTableException("LZMA properties byte " + p);
        this.lc = p % 9;
        int lp = p / 9 % 5, pb = p / 45;
        this.literalPosMask = (1 << lp) - 1;
        this.posMask = (1 << pb) - 1;
        // the range coder reads up to 4 bytes past a stream's end before it knows: zeros there, and a check at the end
        this.in = Arrays.copyOf(compressed, compressed.length + 8);
        this.inEnd = compressed.length;
        this.out = out;
        this.probs = new short[LITERAL + (0x300 << (lc + lp))];
        Arrays.fill(probs, (short) PROB_INIT);
        if (compressed.length < 5 || compressed[0] != 0) throw new CorruptTableException("an LZMA stream that does not start with a zero byte");
        code = (in[1] & 0xFF) << 24 | (in[2] & 0xFF) << 16 | (in[3] & 0xFF) << 8 | in[4] & 0xFF;
        range = -1;
        inPos = 5;
        if (code == -1) throw new CorruptTableException("an LZMA stream whose range coder starts out of range");
    }

    /** How many bytes of {@code out} are decoded. */
    int decoded() { return outPos; }

    /** Decodes {@code out} up to byte {@code n} (exclusive) at least, exactly there where the stream allows. */
    @Override public void decodeTo(int n) {
        if (n > out.length) throw new IllegalArgumentException(n + " bytes of " + out.length);
        if (pending > 0) copyMatch(n);
        while (outPos < n) {
            int posState = outPos & posMask;
            if (bit(IS_MATCH + (state << 4) + posState) == 0) {
                literal();
                continue;
            }
            int len;
            if (bit(IS_REP + state) == 0) {
                len = length(LEN, posState);
                state = state < 7 ? 7 : 10;
                int distance = distance(len);
                rep3 = rep2;
                rep2 = rep1;
                rep1 = rep0;
                rep0 = distance;
            } else {
                if (outPos == 0) throw new CorruptTableException("an LZMA stream that repeats a match before any byte");
                if (bit(IS_REP_G0 + state) == 0) {
                    if (bit(IS_REP0_LONG + (state << 4) + posState) == 0) { // one byte at the last distance
                        state = state < 7 ? 9 : 11;
                        out[outPos] = out[outPos - rep0 - 1];
                        outPos++;
                        continue;
                    }
                } else {
                    int distance;
                    if (bit(IS_REP_G1 + state) == 0) {
                        distance = rep1;
                    } else {
                        if (bit(IS_REP_G2 + state) == 0) {
                            distance = rep2;
                        } else {
                            distance = rep3;
                            rep3 = rep2;
                        }
                        rep2 = rep1;
                    }
                    rep1 = rep0;
                    rep0 = distance;
                }
                len = length(REP_LEN, posState);
                state = state < 7 ? 8 : 11;
            }
            if (Integer.compareUnsigned(rep0, outPos) >= 0) throw new CorruptTableException("an LZMA match from before the block's start");
            pending = len + 2;
            if (outPos + pending > out.length) throw new CorruptTableException("an LZMA match past the block's end");
            copyMatch(n);
        }
        if (inPos > inEnd) throw new CorruptTableException("an LZMA stream that ends early");
    }

    /** Copies the pending match's bytes, as far as byte {@code n}. */
    private void copyMatch(int n) {
        int count = Math.min(pending, n - outPos), from = outPos - rep0 - 1;
        pending -= count;
        while (count > 0) { // a match nearer than its length repeats its distance's bytes: copied a period, then twice that, ...
            int c = Math.min(count, outPos - from);
            System.arraycopy(out, from, out, outPos, c);
            outPos += c;
            count -= c;
        }
    }

    private void literal() {
        int previous = outPos == 0 ? 0 : out[outPos - 1] & 0xFF;
        int base = LITERAL + 0x300 * (((outPos & literalPosMask) << lc) + (previous >>> (8 - lc)));
        int symbol = 1;
        if (state >= 7) { // after a match: the byte at the last distance guides the first bits
            if (rep0 >= outPos) throw new CorruptTableException("an LZMA literal matched against a byte before the block's start");
            int matchByte = out[outPos - rep0 - 1] & 0xFF;
            do {
                int matchBit = matchByte >>> 7 & 1;
                matchByte <<= 1;
                int b = bit(base + ((1 + matchBit) << 8) + symbol);
                symbol = symbol << 1 | b;
                if (matchBit != b) break;
            } while (symbol < 0x100);
        }
        while (symbol < 0x100) symbol = symbol << 1 | bit(base + symbol);
        out[outPos++] = (byte) symbol;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
    }

    /** A match's length less 2, from the model at {@code base}. */
    private int length(int base, int posState) {
        if (bit(base) == 0) return tree(base + 2 + posState * 8, 3);
        if (bit(base + 1) == 0) return 8 + tree(base + 2 + POS_STATES_MAX * 8 + posState * 8, 3);
        return 16 + tree(base + 2 + 2 * POS_STATES_MAX * 8, 8);
    }

    /** A match's distance less 1, for a length less 2 of {@code len}. */
    private int distance(int len) {
        int slot = tree(POS_SLOT + (len < 3 ? len : 3) * 64, 6);
        if (slot < 4) return slot;
        int directBits = (slot >>> 1) - 1, distance = (2 | slot & 1) << directBits;
        if (slot < END_POS_MODEL) return distance + reverseTree(SPEC_POS + distance - slot, directBits);
        distance += direct(directBits - 4) << 4;
        return distance + reverseTree(ALIGN, 4);
    }

    /** A symbol of {@code bits} bits, most significant first, from the bit tree at {@code base} (nodes 1 and up). */
    private int tree(int base, int bits) {
        int m = 1;
        for (int k = 0; k < bits; k++) m = m << 1 | bit(base + m);
        return m - (1 << bits);
    }

    /** A symbol of {@code bits} bits, least significant first, from the bit tree at {@code base} (nodes 1 and up). */
    private int reverseTree(int base, int bits) {
        int m = 1, symbol = 0;
        for (int k = 0; k < bits; k++) {
            int b = bit(base + m);
            m = m << 1 | b;
            symbol |= b << k;
        }
        return symbol;
    }

    /** {@code bits} bits of equal probability. */
    private int direct(int bits) {
        int result = 0;
        for (int k = 0; k < bits; k++) {
            range >>>= 1;
            int b = Integer.compareUnsigned(code, range) >= 0 ? 1 : 0;
            if (b == 1) code -= range;
            result = result << 1 | b;
            normalize();
        }
        return result;
    }

    /** A bit of the adaptive probability at {@code index}, which it then moves toward the bit. */
    private int bit(int index) {
        int p = probs[index], bound = (range >>> BIT_MODEL_TOTAL_BITS) * p;
        int b;
        if (Integer.compareUnsigned(code, bound) < 0) {
            range = bound;
            probs[index] = (short) (p + ((1 << BIT_MODEL_TOTAL_BITS) - p >>> MOVE_BITS));
            b = 0;
        } else {
            range -= bound;
            code -= bound;
            probs[index] = (short) (p - (p >>> MOVE_BITS));
            b = 1;
        }
        normalize();
        return b;
    }

    private void normalize() {
        if (Integer.compareUnsigned(range, TOP) < 0) {
            if (inPos == in.length) throw new CorruptTableException("an LZMA stream that ends early");
            range <<= 8;
            code = code << 8 | in[inPos++] & 0xFF; // a little past the stream's end: zeros, checked when the call ends
        }
    }
}
