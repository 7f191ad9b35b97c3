package tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import tablebase.GeneratedTables;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;

/**
 * The compressed KPKP the generator wrote, a quarter of whose White positions are marked as decided by their
 * captures and promotions: a marked entry looked up reads afterwards as the ply it was found to be, and every White
 * position reads as the packed file says before and after.
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
                Position p = index.position(i, Color.WHITE);
                if (p == null || index.index(p) != i || !p.isLegal()) continue;
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
                Position p = index.position(i, Color.WHITE);
                if (p != null && index.index(p) == i && p.isLegal()) assertEquals(packed.table(material).ply(p), kpkp.ply(p), p::toString);
            }
        }
    }
}
