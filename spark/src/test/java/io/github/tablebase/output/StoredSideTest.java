package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SearchedMarks;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.table.Successors;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The side to move a table's compressed files store: the one whose files the writer makes smaller. */
class StoredSideTest {
    @Test
    void eachTableStoresTheSideWhoseCompressedFileIsClearlySmaller() throws Exception {
        // KRKN: Black to move's file is the smaller; KQKR: White's (the side with more material, whose other side has fewer moves to search)
        for (String endgame : List.of("KRKN", "KQKR")) {
            Path folder = GeneratedTables.folder(endgame);
            Material material = Material.parse(endgame);
            PositionIndex index = new PositionIndex(material);
            IndexedTable packed = IndexedTable.open(folder.resolve(endgame.toLowerCase() + ".tbl"));
            Successors successors = new Successors(material, packed.resultPlane(), GeneratedTables.smallerPackedTables(folder.getParent(), material));
            BitSet byEntry = SearchedMarks.byEntry(successors, index, packed.resultPlane(), 0, index.size());
            TableExport.Marks marks = (lo, hi, side) -> TableExport.sideMarks(byEntry, 0, lo, hi, side);
            long[] bytes = new long[2];
            for (Color side : Color.values()) { // the whole file of each side, marked as the export marks it
                TableExport.BestMoves b = TableExport.bestMoves(successors, index, 0, index.size(), side, marks.of(0, index.size(), side), true, false);
                bytes[side.ordinal()] = CompressedTable.write(index, 0, index.size(), b.results(), side, b.byExits(), b.late(), OutputStream.nullOutputStream());
            }
            Color smaller = bytes[0] < bytes[1] ? Color.WHITE : Color.BLACK;
            long least = Math.min(bytes[0], bytes[1]), most = Math.max(bytes[0], bytes[1]);
            assertTrue(least < 0.95 * most, endgame + ": White's file " + bytes[0] + " bytes, Black's " + bytes[1] + ": a clear call");
            assertEquals(smaller, TableExport.storedSide(successors, index, marks).side(), endgame);
            try (Tablebase tables = Tablebase.open(List.of(folder), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.COMPRESSED_FIRST)) {
                assertTrue(tables.stores(material, smaller) && !tables.stores(material, smaller.opponent()), endgame + " stores " + smaller);
            }
        }
    }
}
