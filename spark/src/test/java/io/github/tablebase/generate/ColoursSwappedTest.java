package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.SolvedResults;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One table a material: a material the sets leave out, solved by the engine itself (its captures
 * and promotions read from tables of the other colouring), gives every position the value its twin's table gives
 * the position seen from the other side.
 */
class ColoursSwappedTest {
    @Test
    void aMaterialSolvedItselfEqualsItsTwinSeenFromTheOtherSideEverywhere() throws Exception {
        long compared = 0, decided = 0;
        // pawns move the other way in the twin (ranks mirrored); KPKQ's promotions reach KRKQ, KBKQ and KNKQ, read from
        // KQKR, KQKB and KQKN: the twin and its smaller tables solved (each in one task), then the material alone from them
        TableSolver solver = new TableSolver(io.github.tablebase.SparkTestSession.context(), 2, System.out::println);
        for (String name : List.of("KKR", "KKP", "KPKQ")) {
            Material m = Material.parse(name), twin = m.tableMaterial();
            assertTrue(twin != m, name + " is read from " + twin.name());
            SolvedResults swapped = null;
            for (Material t : io.github.tablebase.table.TablePlan.of(twin)) swapped = TableSolverTest.solve(solver, t, null);
            SolvedResults own = TableSolverTest.solve(solver, m, null);
            PositionIndex index = new PositionIndex(m), twinIndex = new PositionIndex(twin);
            for (long i = 0; i < index.size(); i++) {
                for (Color side : Color.values()) {
                    int ply = own.ply(i, side.ordinal());
                    if (ply == -2) continue; // no canonical legal position
                    Position p = index.position(i, side), seen = p.coloursSwapped();
                    assertEquals(ply, swapped.ply(twinIndex.index(seen), seen.sideToMove().ordinal()), () -> name + " " + p);
                    compared++;
                    if (ply >= 0) decided++;
                }
            }
        }
        assertTrue(compared > 8_000_000 && decided > 7_000_000, compared + " positions compared, " + decided + " won or lost");
    }
}
