package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.table.RunSettings;
import org.junit.jupiter.api.Test;

/** How a table is split into slices whatever the partitions asked, and when a ply is saved. */
class SlicesAndSavesTest {
    @Test
    void everySliceOfTheLargestSixPieceTablesStaysFarWithinIntRange() {
        for (String name : new String[] {"KRRRKQ", "KNNNKN", "KQRKQR", "KKQRBP", "KQRBKP", "KPPPKPP", "KQQQKQ"}) {
            PositionIndex index = new PositionIndex(Material.parse(name));
            for (int asked : new int[] {1, 2, 32, 1000}) {
                int partitions = TableSolver.partitions(index, asked, RunSettings.DEFAULT_ENTRIES_PER_PARTITION);
                long[] starts = IndexedTable.kingPairStarts(index, partitions);
                assertEquals(index.size(), starts[partitions]);
                for (int p = 0; p < partitions; p++) {
                    long entries = 2 * (starts[p + 1] - starts[p]);
                    assertTrue(entries > 0 && entries <= Integer.MAX_VALUE / 4, name + " over " + partitions + ": a slice of " + entries + " entries");
                }
            }
        }
        // a small table is still solved in one task
        assertEquals(1, TableSolver.partitions(new PositionIndex(Material.parse("KQKR")), 8, RunSettings.DEFAULT_ENTRIES_PER_PARTITION));
    }

    @Test
    void aPlyIsSavedOnceTheSolvingSinceTheLastSaveTookTenTimesThatSave() {
        PlyLineage.SaveClock clock = new PlyLineage.SaveClock(0);
        assertTrue(clock.due(1), "the first ply is saved");
        clock.saved(1, 101); // a save of 100 ns
        assertFalse(clock.due(101 + 999));
        assertTrue(clock.due(101 + 1_000));
        clock.saved(1_200, 1_201); // a quick save: every ply after it
        assertTrue(clock.due(1_211));
    }
}
