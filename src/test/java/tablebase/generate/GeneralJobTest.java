package tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tablebase.BruteForce;
import tablebase.SparkTestSession;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;

/** The general job against the brute force, published maxima, and its own consistency where Black has pieces. */
class GeneralJobTest {
    /** Every block's entries by index, on the driver (small tables only). */
    private static Map<Long, IndexBlock> byIndex(GeneralJob.Table t) {
        Map<Long, IndexBlock> m = new HashMap<>();
        for (IndexBlock b : t.blocks().collect()) for (long i = b.lo(); i < b.hi(); i++) m.put(i, b);
        return m;
    }

    private static int ply(Map<Long, IndexBlock> blocks, PositionIndex index, Position p) {
        long i = index.index(p);
        return blocks.get(i).ply(i, p.sideToMove() == Color.WHITE ? 0 : 1);
    }

    @Test
    void threePieceTablesMatchTheBruteForceEverywhere() {
        for (String name : new String[] {"KQK", "KRK", "KBK", "KNK"}) {
            Material m = Material.parse(name);
            GeneralJob.Table t = new GeneralJob(SparkTestSession.context(), 3, line -> { }).solve(m);
            BruteForce expected = BruteForce.solve(m);
            Map<Long, IndexBlock> blocks = byIndex(t);
            long checked = 0;
            for (long key = 0; key < 1L << 19; key++) {
                Position p = Position.fromKey(m, key);
                if (p.key() != key || !p.isLegal()) continue;
                int ply = ply(blocks, t.index(), p);
                int want = p.sideToMove() == Color.WHITE
                        ? (expected.whiteDtm(key) > 0 ? 2 * expected.whiteDtm(key) - 1 : IndexBlock.UNDECIDED)
                        : (expected.blackDtm(key) >= 0 ? 2 * expected.blackDtm(key) : IndexBlock.UNDECIDED);
                assertEquals(want, ply, () -> name + " " + p);
                checked++;
            }
            assertTrue(checked > 100_000);
        }
    }

    @Test
    void kqkrIsConsistentAndItsLongestWinIs35() {
        Material kqkr = Material.parse("KQKR");
        GeneralJob job = new GeneralJob(SparkTestSession.context(), 4, System.out::println);
        GeneralJob.Table t = job.solve(kqkr);
        assertEquals(2 * 35 - 1, t.maxPly(), "published: the longest KQKR win is 35 moves");
    }
}
