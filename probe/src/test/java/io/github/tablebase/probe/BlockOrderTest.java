package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compressed blocks' orders: divisions as Java's, each order a permutation with its digit in front, files of any lead read back, the
 * marks chosen by fast mode or by the writer's, the file the same as the part compressed whole.
 */
class BlockOrderTest {
    @Test
    void aDivisorDividesAsJavaDoesBelowItsBound() {
        Random random = new Random(1);
        List<Long> divisors = new ArrayList<>(List.of(1L, 2L, 3L, 7L, 48L, 64L, 1806L, 2016L, 41_664L, 65_536L, 1_000_003L, (1L << 31) - 1, 1L << 31));
        for (int t = 0; t < 20; t++) divisors.add(1 + random.nextLong(1L << 31));
        long top = (1L << 31) - 1;
        for (long d : divisors) {
            BlockOrder.Divisor divisor = new BlockOrder.Divisor(d, 1L << 31);
            for (long n : new long[] {0, 1, d - 1, d, d + 1, 2 * d - 1, top, top - top % d, top - top % d - 1})
                if (n >= 0 && n <= top) assertEquals(n / d, divisor.quotient(n), n + " / " + d);
            for (int t = 0; t < 100_000; t++) {
                long n = random.nextLong(1L << 31);
                assertEquals(n / d, divisor.quotient(n), n + " / " + d);
            }
        }
        BlockOrder.Divisor wide = new BlockOrder.Divisor(3, 1L << 40); // past 2^31: Java's division
        assertEquals(((1L << 40) - 1) / 3, wide.quotient((1L << 40) - 1));
    }

    @Test
    void eachLeadPutsItsDigitInFrontAndTheOthersInTheirOrder() {
        PositionIndex index = new PositionIndex(Material.parse("KRPKR")); // runs R, P, R: radices 64, 48, 64
        long size = 3 * index.restSize();
        List<Long> radices = new ArrayList<>(List.of(3L));
        for (long r : index.runRadices()) radices.add(r);
        assertEquals(List.of(3L, 64L, 48L, 64L), radices);
        Random random = new Random(2);
        byte[] results = new byte[(int) (2 * size)], ordered = new byte[(int) size];
        random.nextBytes(results);
        for (int lead = 0; lead < BlockOrder.leads(index); lead++) {
            BlockOrder order = BlockOrder.of(index, size, lead);
            order.arrange(results, 1, ordered);
            BitSet seen = new BitSet((int) size);
            for (long at = 0; at < size; at++) {
                long[] digits = new long[radices.size()];
                long x = at;
                for (int d = radices.size() - 1; d >= 0; d--) {
                    digits[d] = x % radices.get(d);
                    x /= radices.get(d);
                }
                long expected = digits[lead];
                for (int d = 0; d < radices.size(); d++) if (d != lead) expected = expected * radices.get(d) + digits[d];
                long stored = order.stored(at);
                assertEquals(expected, stored, "lead " + lead + ", offset " + at);
                assertEquals(at, order.canonical(stored), "lead " + lead + ", offset " + at);
                assertEquals(results[(int) (2 * at + 1)], ordered[(int) stored], "lead " + lead + ", offset " + at);
                seen.set((int) stored);
            }
            assertEquals(size, seen.cardinality(), "lead " + lead);
        }
    }

    @Test
    void partsWrittenInDifferentOrdersReadBackEveryEntryAndItsLatePly(@TempDir Path dir) throws Exception {
        PositionIndex index = new PositionIndex(Material.parse("KPKP"));
        long size = index.size(), cut = 900 * index.restSize();
        int side = CompressedTable.strongerSide(index.material()).ordinal();
        Random random = new Random(3);
        byte[] results = new byte[(int) (2 * size)];
        for (int e = 0; e < results.length; e++) results[e] = (byte) (random.nextInt(10) == 0 ? 255 : random.nextInt(8));
        long late = 2 * (cut + 5) + side;
        results[(int) late] = (byte) 254;
        LatePlies plies = LatePlies.of(253, new long[] {late}, new int[] {300});
        for (int[] leads : new int[][] {{1, 2}, {2, 0}}) {
            Path first = dir.resolve("first.cdtm"), second = dir.resolve("second.cdtm");
            writePart(index, 0, cut, leads[0], results, plies, first);
            writePart(index, cut, size, leads[1], results, plies, second);
            CompressedTable table = CompressedTable.open(List.of(second, first), new BlockCache(1 << 26)); // every block held
            for (long i = 0; i < size; i++) {
                int b = results[(int) (2 * i + side)] & 0xFF;
                if (b != 255) assertEquals(plies.result(2 * i + side, b), table.result(i), "leads " + leads[0] + ", " + leads[1] + ": index " + i);
            }
            assertEquals(301, table.result(cut + 5));
            table.close();
        }
    }

    private static void writePart(PositionIndex index, long lo, long hi, int lead, byte[] results, LatePlies late, Path file) throws Exception {
        byte[] part = java.util.Arrays.copyOfRange(results, (int) (2 * lo), (int) (2 * hi)), ordered = new byte[(int) (hi - lo)];
        BlockOrder order = BlockOrder.of(index, hi - lo, lead);
        order.arrange(part, CompressedTable.strongerSide(index.material()).ordinal(), ordered);
        try (OutputStream out = Files.newOutputStream(file)) {
            CompressedTable.write(index, lo, hi, CompressedTable.strongerSide(index.material()).ordinal(), CompressedTable.blockEntries(index.material()), BlockCodec.of(index.material()), order, ordered, null, null, late, out);
        }
    }

    @Test
    void fastModeDecidesTheMarksWhereItsCallIsClearAndTheWritersModeWithItsSamplesReusedWhereNot() throws Exception {
        // KRKN (29 blocks, 16 sampled): results by the rook's square, 30 % of them random; runs of 64 entries decided by
        // captures, which read 255 once marked. A quarter of them decided: marked by fast mode's call alone; an eighth:
        // marked after a second look in the writer's mode, whose 16 blocks the file reuses; a few noiseless ones: unmarked
        assertMarks(4, 30, true, false);
        assertMarks(8, 30, true, true);
        assertMarks(1000, 0, false, false);
    }

    /** A KRKN part with every {@code decidedEvery}-th run of 64 entries decided, {@code noise} % of its results random. */
    private static void assertMarks(int decidedEvery, int noise, boolean marked, boolean reused) throws Exception {
        PositionIndex index = new PositionIndex(Material.parse("KRKN"));
        int size = (int) index.size(), side = CompressedTable.strongerSide(index.material()).ordinal();
        assertTrue(size > (long) CompressedTable.SAMPLE_BLOCKS * CompressedTable.BLOCK);
        Random random = new Random(5);
        byte[] results = new byte[2 * size];
        BitSet byExits = new BitSet(size);
        for (int at = 0; at < size; at++) {
            if (at / 64 % decidedEvery == 0) byExits.set(at);
            results[2 * at + side] = (byte) (random.nextInt(100) < noise ? 1 + random.nextInt(60) : 1 + at / 4096 % 30);
        }
        CompressedTable.Choice choice = CompressedTable.leastOrder(index, results, side, byExits, size, CompressedTable.BLOCK, BlockCodec.LZMA);
        String what = "every " + decidedEvery + "th run decided";
        assertEquals(marked, choice.marked(), what + ": marked");
        assertEquals(reused, choice.compressed() != null, what + ": sampled blocks reused");
        ByteArrayOutputStream chosen = new ByteArrayOutputStream();
        CompressedTable.write(index, 0, size, results, CompressedTable.strongerSide(index.material()), byExits, LatePlies.NONE, chosen);
        byte[] file = chosen.toByteArray();
        assertEquals(marked ? 1 : 0, file[51] & 1, what + ": the header's mark flag");
        // the same bytes as the part compressed whole in the order and with the marks chosen
        BlockOrder order = BlockOrder.of(index, size, file[50]);
        byte[] ordered = new byte[size];
        order.arrange(results, side, ordered);
        BitSet marks = null;
        if (marked) {
            marks = new BitSet(size);
            for (int at = byExits.nextSetBit(0); at >= 0; at = byExits.nextSetBit(at + 1)) marks.set((int) order.stored(at));
        }
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        CompressedTable.write(index, 0, size, CompressedTable.strongerSide(index.material()).ordinal(), CompressedTable.BLOCK, BlockCodec.LZMA, order, ordered, marks, null, LatePlies.NONE, whole);
        assertArrayEquals(whole.toByteArray(), file, what);
    }

    @Test
    void theWriterKeepsTheSmallestOrderWhenItSamplesEveryBlock() throws Exception {
        // KPK (two blocks): a result that depends on the pawn's square, and a random bit; pawn in front, each run of
        // equal pawn squares has two values, in the index's order the pawn changes every entry
        PositionIndex index = new PositionIndex(Material.parse("KPK"));
        long size = index.size();
        assertTrue(size <= (long) CompressedTable.SAMPLE_BLOCKS * CompressedTable.BLOCK);
        Random random = new Random(4);
        byte[] results = new byte[(int) (2 * size)];
        for (int at = 0; at < size; at++) results[2 * at] = (byte) (1 + at % 48 * 5 + random.nextInt(2));
        ByteArrayOutputStream chosen = new ByteArrayOutputStream();
        CompressedTable.write(index, 0, size, results, CompressedTable.strongerSide(index.material()), null, LatePlies.NONE, chosen);
        long[] forced = new long[BlockOrder.leads(index)];
        for (int lead = 0; lead < forced.length; lead++) {
            byte[] ordered = new byte[(int) size];
            BlockOrder order = BlockOrder.of(index, size, lead);
            order.arrange(results, 0, ordered);
            forced[lead] = CompressedTable.write(index, 0, size, CompressedTable.strongerSide(index.material()).ordinal(), CompressedTable.BLOCK, BlockCodec.LZMA, order, ordered, null, null, LatePlies.NONE, OutputStream.nullOutputStream());
            assertTrue(chosen.size() <= forced[lead], chosen.size() + " bytes chosen, " + forced[lead] + " with lead " + lead);
        }
        assertTrue(forced[1] < forced[0], forced[1] + " bytes with the pawn in front, " + forced[0] + " in the index's order");
        assertEquals(forced[1], chosen.size());
        assertEquals(1, chosen.toByteArray()[50]);
    }
}
