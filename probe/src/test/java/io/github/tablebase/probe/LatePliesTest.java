package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The list of plies past a result byte: what a marker byte reads as, its section's bytes read back, and refused when damaged. */
class LatePliesTest {
    @Test
    void aMarkerByteReadsAsItsListedPlyOrAsTheLastPlyAByteHolds() {
        LatePlies late = LatePlies.of(31, new long[] {3, 10, 11}, new int[] {40, 32, 300});
        assertEquals(41, late.result(3, 32));
        assertEquals(301, late.result(11, 32));
        assertEquals(32, late.result(4, 32), "an unlisted marker is ply 31 itself");
        assertEquals(7, late.result(3, 7), "another byte is as it is");
        assertEquals(Result.NONE, late.result(3, 255));
        assertEquals(Result.DRAW, late.result(3, 0));
        assertEquals(300, late.maxPly());
        assertEquals(List.of(10L, 11L), List.of(late.within(4, 12).entry(0), late.within(4, 12).entry(1)));
        assertEquals(1, late.side(0).size());
        assertEquals(2, late.side(1).size());
        LatePlies joined = LatePlies.union(List.of(late.within(10, 12), LatePlies.NONE, late.within(0, 10)));
        for (long e = 0; e < 12; e++) assertEquals(late.result(e, 32), joined.result(e, 32));
        assertThrows(IllegalArgumentException.class, () -> LatePlies.of(31, new long[] {5}, new int[] {31}), "ply 31 fits the byte");
        assertThrows(IllegalArgumentException.class, () -> LatePlies.of(31, new long[] {5, 5}, new int[] {33, 34}));
    }

    @Test
    void theSectionReadsBackAndADamagedOneIsRefused() throws Exception {
        LatePlies late = LatePlies.of(253, new long[] {1_000_000_000_000L, 1_000_000_000_003L}, new int[] {254, 523});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        late.writeTo(out);
        byte[] bytes = out.toByteArray();
        assertEquals(late.bytes(), bytes.length);
        LatePlies read = LatePlies.parse(bytes, "test", 1_000_000_000_000L, 1_000_000_000_004L);
        assertEquals(524, read.result(1_000_000_000_003L, 254));
        assertEquals(255, read.result(1_000_000_000_000L, 254));
        assertEquals(254, read.result(1_000_000_000_001L, 254));
        assertTrue(LatePlies.parse(new byte[0], "test", 0, 1).isEmpty());
        assertThrows(CorruptTableException.class, () -> LatePlies.parse(bytes, "test", 0, 1_000_000_000_001L), "an entry outside the part");
        for (int k : new int[] {0, 9, 15, 25, bytes.length - 1}) {
            byte[] damaged = bytes.clone();
            damaged[k] ^= 4;
            assertThrows(CorruptTableException.class, () -> LatePlies.parse(damaged, "test", 0, Long.MAX_VALUE), "byte " + k);
        }
        assertThrows(CorruptTableException.class, () -> LatePlies.parse(java.util.Arrays.copyOf(bytes, bytes.length - 1), "test", 0, Long.MAX_VALUE));
    }
}
