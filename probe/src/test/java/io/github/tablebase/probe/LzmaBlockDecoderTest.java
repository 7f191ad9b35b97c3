package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAOutputStream;

/**
 * The block decoder against xz-java's encoder: every kind of data its symbols cover (literals, matches near and far,
 * long runs, repeats of earlier distances), under every context setting the files use and others, decoded in random
 * steps as lookups decode a block; damaged streams end in a CorruptTableException or other bytes, never another error.
 */
class LzmaBlockDecoderTest {
    /** Raw LZMA of {@code data}, as the writer makes it: no header, no end marker. */
    private static byte[] compressed(byte[] data, int lc, int lp, int pb, int preset) throws Exception {
        LZMA2Options options = new LZMA2Options(preset);
        options.setDictSize(Math.max(LZMA2Options.DICT_SIZE_MIN, data.length));
        options.setLcLp(lc, lp);
        options.setPb(pb);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZMAOutputStream lzma = new LZMAOutputStream(out, options, false)) {
            lzma.write(data);
        }
        return out.toByteArray();
    }

    private static byte properties(int lc, int lp, int pb) { return (byte) ((pb * 5 + lp) * 9 + lc); }

    /**
     * Bytes like a table's: runs of one value, stretches that repeat one of a few earlier periods (64, 4096, a far
     * one past the models' 128), mutated copies of those (short repeats), and random noise (literals).
     */
    private static byte[] tableLike(int n, Random random) {
        byte[] data = new byte[n];
        int[] periods = {1, 2, 64, 130, 4096, 20_000};
        for (int at = 0; at < n; ) {
            int len = 1 + random.nextInt(300), kind = random.nextInt(5);
            for (int k = 0; k < len && at < n; k++, at++) {
                int period = periods[random.nextInt(periods.length)];
                data[at] = switch (kind) {
                    case 0 -> (byte) random.nextInt(256);
                    case 1 -> at > 0 ? data[at - 1] : 7;
                    default -> at >= period ? (random.nextInt(40) == 0 ? (byte) (data[at - period] + 1) : data[at - period]) : (byte) random.nextInt(8);
                };
            }
        }
        return data;
    }

    /** Decodes {@code compressed} into {@code n} bytes in random steps, each exactly where asked. */
    private static byte[] decodedInSteps(byte[] compressed, byte properties, int n, Random random) {
        byte[] out = new byte[n];
        LzmaBlockDecoder decoder = new LzmaBlockDecoder(compressed, properties, out);
        while (decoder.decoded() < n) {
            int to = Math.min(n, decoder.decoded() + 1 + random.nextInt(n / 4 + 1));
            decoder.decodeTo(to);
            assertEquals(to, decoder.decoded(), "stops where asked, a match cut there going on at the next call");
        }
        return out;
    }

    @Test
    void decodesWhatXzJavaEncodesUnderEveryContextSetting() throws Exception {
        Random random = new Random(3);
        int[][] settings = {{0, 0, 0}, {3, 0, 2}, {1, 2, 1}, {4, 0, 4}, {0, 4, 0}, {2, 2, 2}};
        for (int[] s : settings)
            for (int preset : new int[] {0, 6}) // fast mode and normal mode choose different symbols
                for (int n : new int[] {1, 2, 100, 8192, 65_536}) {
                    byte[] data = tableLike(n, random);
                    byte[] compressed = compressed(data, s[0], s[1], s[2], preset);
                    String label = "lc " + s[0] + " lp " + s[1] + " pb " + s[2] + ", preset " + preset + ", " + n + " bytes";
                    assertArrayEquals(data, decodedInSteps(compressed, properties(s[0], s[1], s[2]), n, random), label);
                }
    }

    @Test
    void decodesNoiseAndLongRuns() throws Exception {
        Random random = new Random(4);
        byte[] noise = new byte[40_000];
        random.nextBytes(noise);
        byte[] run = new byte[70_000];
        Arrays.fill(run, (byte) 9);
        for (byte[] data : new byte[][] {noise, run})
            assertArrayEquals(data, decodedInSteps(compressed(data, 0, 0, 0, 6), properties(0, 0, 0), data.length, random));
    }

    @Test
    void damagedStreamsFailAsCorruptOrDecodeToOtherBytes() throws Exception {
        Random random = new Random(5);
        byte[] data = tableLike(32_768, random);
        byte[] compressed = compressed(data, 0, 0, 0, 6);
        int refused = 0, other = 0;
        for (int trial = 0; trial < 400; trial++) {
            byte[] damaged = trial % 4 == 0 ? Arrays.copyOf(compressed, random.nextInt(compressed.length)) : compressed.clone();
            if (trial % 4 != 0) damaged[random.nextInt(damaged.length)] ^= (byte) (1 + random.nextInt(255));
            try {
                byte[] out = new byte[data.length];
                new LzmaBlockDecoder(damaged, properties(0, 0, 0), out).decodeTo(out.length);
                if (!Arrays.equals(out, data)) other++;
            } catch (CorruptTableException e) {
                refused++;
            }
        }
        assertTrue(refused > 0 && other > 0, refused + " refused, " + other + " decoded to other bytes (the CRC-32s catch those)");
        assertThrows(CorruptTableException.class, () -> new LzmaBlockDecoder(new byte[] {1, 0, 0, 0, 0, 0}, properties(0, 0, 0), new byte[10]));
        assertThrows(CorruptTableException.class, () -> new LzmaBlockDecoder(compressed, (byte) 225, new byte[10]));
    }
}
