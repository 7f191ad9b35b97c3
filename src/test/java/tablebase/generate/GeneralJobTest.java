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
    void threePieceTablesMatchTheBruteForceEverywhere() throws Exception {
        Map<String, Integer> published = Map.of("KQK", 10, "KRK", 16, "KBK", 0, "KNK", 0); // longest wins, White to move
        for (String name : new String[] {"KQK", "KRK", "KBK", "KNK"}) {
            Material m = Material.parse(name);
            GeneralJob.Table t = new GeneralJob(SparkTestSession.context(), 3, line -> { }, GeneralJob.NO_SHELF).solve(m);
            assertEquals(published.get(name), t.longestWin(Color.WHITE), name);
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
    void kbbksLongestWinIs19WithTheTwoBishopsCountedOnce() throws Exception {
        GeneralJob.Table kbbk = new GeneralJob(SparkTestSession.context(), 4, line -> { }, GeneralJob.NO_SHELF).solve(Material.parse("KBBK"));
        assertEquals(462L * 64 * 63 / 2, kbbk.index().size());
        assertEquals(19, kbbk.longestWin(Color.WHITE), "published: the longest KBBK win is 19 moves");
        assertEquals(0, kbbk.longestWin(Color.BLACK));
    }

    @Test
    void knnkHasNoForcedWinOnlyMatesInOneThatBlackWalkedInto() throws Exception {
        GeneralJob.Table knnk = new GeneralJob(SparkTestSession.context(), 4, line -> { }, GeneralJob.NO_SHELF).solve(Material.parse("KNNK"));
        assertEquals(1, knnk.longestWin(Color.WHITE), "White wins only where a mate in one is on the board");
        long checkmates = 0, lostWithAMove = 0, mateInOne = 0;
        for (IndexBlock b : knnk.blocks().collect()) {
            checkmates += b.count(1, 0);
            mateInOne += b.count(0, 1);
            for (int ply = 2; ply <= knnk.maxPly(); ply++) lostWithAMove += b.count(1, ply);
        }
        assertEquals(0, lostWithAMove, "no Black-to-move position that is not yet mate is lost: the knights cannot force mate");
        assertTrue(checkmates > 0 && mateInOne > 0, checkmates + " checkmates, " + mateInOne + " mates in one");
    }

    @Test
    void kbnkAgreesWithTheLoneKingJobOnRandomPositions() throws Exception {
        GeneralJob.Table kbnk = new GeneralJob(SparkTestSession.context(), 4, line -> { }, GeneralJob.NO_SHELF).solve(Material.parse("KBNK"));
        assertEquals(33, kbnk.longestWin(Color.WHITE));
        tablebase.output.Tablebase reference = tablebase.output.Tablebase.open(tablebase.KbnkTable.folder());
        Map<Long, IndexBlock> blocks = byIndex(kbnk);
        java.util.Random random = new java.util.Random(12);
        for (int t = 0; t < 200_000; t++) {
            Position p = Position.randomLegal(kbnk.material(), random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
            int dtm = reference.dtm(p);
            int want = dtm == tablebase.output.Tablebase.DRAW ? IndexBlock.UNDECIDED
                    : p.sideToMove() == Color.WHITE ? 2 * dtm - 1 : 2 * dtm;
            assertEquals(want, ply(blocks, kbnk.index(), p), p::toString);
        }
    }

    @Test
    void kqkrsLongestWinIs35AndKrkrFollowsFromItsSuccessorsEverywhere() throws Exception {
        GeneralJob job = new GeneralJob(SparkTestSession.context(), 4, System.out::println, GeneralJob.NO_SHELF);
        assertEquals(35, job.solve(Material.parse("KQKR")).longestWin(Color.WHITE), "published: the longest KQKR win is 35 moves");
        GeneralJob.Table krkr = job.solve(Material.parse("KRKR"));
        Map<Material, Map<Long, IndexBlock>> tables = new HashMap<>();
        for (Material m : List.of(Material.parse("KRKR"), Material.parse("KRK"), Material.parse("KKR")))
            tables.put(m, byIndex(job.solve(m)));
        long checked = 0, decided = 0;
        for (long i = 0; i < krkr.index().size(); i++) {
            for (Color side : Color.values()) {
                int entry = tables.get(krkr.material()).get(i).ply(i, side == Color.WHITE ? 0 : 1);
                if (entry == IndexBlock.NONE) continue;
                Position p = krkr.index().position(i, side);
                assertEquals(fromSuccessors(p, tables), entry, p::toString);
                checked++;
                if (entry >= 0) decided++;
            }
        }
        assertTrue(checked > 2_000_000 && decided > 100_000, checked + " positions, " + decided + " decided");
    }

    /** The ply a position's successors imply: a win one ply after the quickest loss reached, else a loss after the longest win. */
    private static int fromSuccessors(Position p, Map<Material, Map<Long, IndexBlock>> tables) {
        List<Move> moves = p.legalMoves();
        if (moves.isEmpty()) return p.inCheck() ? 0 : IndexBlock.UNDECIDED;
        int quickestLoss = Integer.MAX_VALUE, longestWin = -1;
        boolean open = false;
        for (Move m : moves) {
            Position after = p.play(m);
            int ply = after.material().size() == 2 ? IndexBlock.UNDECIDED : ply(tables.get(after.material()),
                    new PositionIndex(after.material()), after);
            if (ply < 0) open = true;
            else if (ply % 2 == 0) quickestLoss = Math.min(quickestLoss, ply);
            else longestWin = Math.max(longestWin, ply);
        }
        if (quickestLoss != Integer.MAX_VALUE) return quickestLoss + 1;
        return open ? IndexBlock.UNDECIDED : longestWin + 1;
    }
}
