package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planes over several files, each mapped in buffers of a bounded size: what lets a part file past 2 GB be read, shown
 * with buffers of 1,000 bytes over files of a few thousand.
 */
class EntryPlaneTest {
    @Test
    void entriesReadTheSameAcrossFilesAndBufferBoundaries(@TempDir Path dir) throws Exception {
        byte[] all = new byte[8_000];
        new Random(5).nextBytes(all);
        Path a = dir.resolve("a"), b = dir.resolve("b");
        byte[] withHeader = new byte[64 + 5_000];
        System.arraycopy(all, 0, withHeader, 64, 5_000);
        Files.write(a, withHeader);
        Files.write(b, Arrays.copyOfRange(all, 5_000, 8_000));
        List<EntryPlane.Range> ranges = List.of(new EntryPlane.Range(b, 0, 5_000, 8_000), new EntryPlane.Range(a, 64, 0, 5_000));
        for (long mapBytes : new long[] {1_000, 999, 7, EntryPlane.MAP_BYTES}) {
            EntryPlane plane = EntryPlane.map(ranges, all.length, mapBytes);
            for (int e = 0; e < all.length; e++) assertEquals(all[e] & 0xFF, plane.get(e), "entry " + e + ", buffers of " + mapBytes);
            byte[] copied = new byte[7_500];
            plane.copy(300, copied, 0, copied.length);
            assertArrayEquals(Arrays.copyOfRange(all, 300, 7_800), copied, "buffers of " + mapBytes);
        }
        assertThrows(CorruptTableException.class, () -> EntryPlane.map(ranges, 9_000, 1_000));
        assertThrows(CorruptTableException.class, () -> EntryPlane.map(List.of(new EntryPlane.Range(a, 64, 0, 5_000)), 8_000, 1_000));
    }
}
