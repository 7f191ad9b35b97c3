package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The compressed KPKP the generator wrote, a quarter of whose White positions are marked as decided by their
 * captures and promotions: a marked entry looked up reads afterwards as the ply it was found to be, and every White
 * position reads as the packed file says before and after, on one thread or on four that evict each other's blocks.
 */
class MarkedEntriesTest {
    @Test
    void aMarkedEntryLookedUpReadsAsItsPlyAfterwardAndAsThePackedFileSays() throws Exception {
        Path root = GeneratedTables.folder("KPKP").getParent();
        Material material = Material.parse("KPKP");
        PositionIndex index = new PositionIndex(material);
        try (Tablebase packed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED);
             Tablebase compressed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, 64L << 20, Tablebase.Source.COMPRESSED_FIRST)) {
            CompressedTable kpkp = (CompressedTable) compressed.table(material);
            long marked = 0, legal = 0;
            for (long i = 0; i < index.size(); i++) {
                Position p = index.legalPosition(i, Color.WHITE);
                if (p == null) continue;
                legal++;
                int expected = packed.table(material).ply(p), before = kpkp.result(i);
                assertEquals(expected, kpkp.ply(p), p::toString);
                if (before != CompressedTable.BY_EXITS) continue;
                marked++;
                assertEquals(expected + 1, kpkp.result(i), () -> p + ": its byte after the lookup");
                assertEquals(expected, kpkp.ply(p), p::toString);
            }
            assertTrue(marked > legal / 10, marked + " of " + legal + " White positions marked");
            for (long i = 0; i < index.size(); i++) { // every byte read again, the marked ones as written back
                Position p = index.legalPosition(i, Color.WHITE);
                if (p != null) assertEquals(packed.table(material).ply(p), kpkp.ply(p), p::toString);
            }
        }
    }

    /** Black, the side not stored, searched over White's entries before any marked one is written back. */
    @Test
    void everyBlackPositionSearchedOverMarkedEntriesReadsAsThePackedFileSays() throws Exception {
        Path root = GeneratedTables.folder("KPKP").getParent();
        Material material = Material.parse("KPKP");
        PositionIndex index = new PositionIndex(material);
        try (Tablebase packed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED);
             Tablebase compressed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, 64L << 20, Tablebase.Source.COMPRESSED_FIRST)) {
            long searched = 0;
            for (long i = 0; i < index.size(); i++) {
                Position p = index.legalPosition(i, Color.BLACK);
                if (p == null) continue;
                searched++;
                assertEquals(packed.ply(p), compressed.ply(p), p::toString);
            }
            assertTrue(searched > index.size() / 4, searched + " Black positions");
        }
    }

    @Test
    void fourThreadsWritingMarkedEntriesBackIntoBlocksTheyEvictReadWhatThePackedFileSays() throws Exception {
        Path root = GeneratedTables.folder("KPKP").getParent();
        Material material = Material.parse("KPKP");
        Random random = new Random(23);
        Position[] positions = new Position[1_009]; // a prime count: every stride below goes through each position once
        int[] expected = new int[positions.length];
        try (Tablebase packed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED)) {
            for (int i = 0; i < positions.length; i++) {
                positions[i] = Position.randomLegal(material, Color.WHITE, random);
                expected[i] = packed.probeDtm(positions[i]);
            }
        }
        // sixteen blocks held at most: a thread's written-back byte may land in a block another thread has evicted
        try (Tablebase shared = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, 16 * CompressedTable.BLOCK, Tablebase.Source.COMPRESSED_FIRST)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Callable<int[]>> threads = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int stride = 2 * t + 1; // each thread its own order
                    threads.add(() -> {
                        int[] dtm = new int[positions.length];
                        for (int pass = 0; pass < 2; pass++)
                            for (int k = 0; k < positions.length; k++) {
                                int i = (k * stride) % positions.length;
                                dtm[i] = shared.probeDtm(positions[i]);
                            }
                        return dtm;
                    });
                }
                for (Future<int[]> thread : pool.invokeAll(threads)) assertArrayEquals(expected, thread.get());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
