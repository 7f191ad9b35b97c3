package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link Tablebase#positionOfPly} on the carried tables, against a pass over every canonical position: a ply that
 * some position has gives one (the first in index order for a side the table stores), one that none has gives none;
 * KKP's from KPK's table, Black to move in KPK from White's entries.
 */
class PositionOfPlyTest {
    @Test
    void everyPlyOfEitherSideIsFoundAndNoOtherIs() throws Exception {
        try (Tablebase tb = Tablebase.open(CarriedTables.folder())) {
            for (String name : new String[] {"KPK", "KRK", "KKP"}) {
                Material material = Material.parse(name);
                PositionIndex index = new PositionIndex(material);
                for (Color side : Color.values()) {
                    TreeMap<Integer, Long> firstOfPly = new TreeMap<>(); // every ply some position has: the first index that has it
                    for (long i = 0; i < index.size(); i++) {
                        Position p = index.legalPosition(i, side);
                        if (p == null) continue;
                        firstOfPly.putIfAbsent(tb.ply(p), i);
                    }
                    boolean stored = !(tb.table(material) instanceof ColoursSwappedTable) && tb.table(material).stores(side); // else found in the twin's order
                    for (int ply = 0; ply <= firstOfPly.lastKey() + 2; ply++) {
                        Optional<Position> found = tb.positionOfPly(material, side, ply);
                        String what = name + ", " + side + " to move, ply " + ply;
                        assertEquals(firstOfPly.containsKey(ply), found.isPresent(), what);
                        if (found.isEmpty()) continue;
                        Position p = found.get();
                        assertTrue(p.illegalReason() == null && p.material().equals(material) && p.sideToMove() == side, what + ": " + p);
                        assertEquals(ply, tb.ply(p), what + ": " + p);
                        assertEquals(p, index.canonical(p), what + ": canonical");
                        if (stored) assertEquals(firstOfPly.get(ply), index.index(p), what + ": the first in index order");
                    }
                }
            }
        }
    }
}
