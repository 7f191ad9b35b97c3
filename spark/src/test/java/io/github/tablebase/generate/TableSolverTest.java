package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.BruteForce;
import io.github.tablebase.SchemeFileSystem;
import io.github.tablebase.SolvedResults;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.output.KbnkTableTest;
import io.github.tablebase.output.PackedTable;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolvedTable;
import io.github.tablebase.table.TableFiles;
import io.github.tablebase.table.TablePlan;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine against the brute force, published maxima, and its own consistency where Black has pieces. */
class TableSolverTest {
    private static final int UNDECIDED = -1, NONE = -2;

    /** Where the tables solved here are written, as the bigger tables read them: the last one of each material. */
    private static final Map<Material, TableFiles> FILES = new HashMap<>();

    /** {@code material} and every table it needs, solved in plan order, each written for the next to read. */
    static Map<Material, SolvedResults> solve(Material material, int partitions) throws java.io.IOException {
        // small tables too are split over the partitions here, so that the shuffled plies are what is tested
        TableSolver solver = new TableSolver(SparkTestSession.context(), partitions, 1, System.out::println);
        Map<Material, SolvedResults> tables = new HashMap<>();
        for (Material m : TablePlan.of(material)) tables.put(m, solve(solver, m, null));
        return tables;
    }

    /** One table, its smaller tables read from the files written before; saving its plies under {@code work}, if given. */
    static synchronized SolvedResults solve(TableSolver solver, Material m, String work) throws java.io.IOException {
        SmallerTables subs = new SmallerTables(SparkTestSession.context(), m, FILES);
        SolvedTable solved = solver.solve(m, subs, work);
        try {
            SolvedResults results = SolvedResults.of(solved);
            assertTrue(java.util.Arrays.deepEquals(results.plyCounts(), solved.figures().entries()), "the figures summed on the executors count what the blocks hold");
            FILES.put(m, results.writeTo(io.github.tablebase.TestFolders.create("solved-" + m.name().toLowerCase())));
            return results;
        } finally {
            solved.release();
            subs.release();
        }
    }

    /** The kernels on the calling thread, outside Spark (jobs/bench-kernel), solve KQKR as Spark does over 3 partitions. */
    @Test
    void aTableSolvedOnThisThreadHasTheResultsSparkGives() throws Exception {
        Material kqkr = Material.parse("KQKR");
        SolvedResults spark = solve(kqkr, 3).get(kqkr);
        SmallerTables subs = new SmallerTables(SparkTestSession.context(), kqkr, FILES);
        try {
            TableSolver.Solved here = TableSolver.solveHere(kqkr, subs.exits(), io.github.tablebase.probe.Result.MAX_PLY);
            byte[] bytes = here.results().results();
            assertEquals(spark.results().length, bytes.length);
            for (int e = 0; e < bytes.length; e++) assertEquals(spark.results()[e], here.results().late().result(e, bytes[e] & 0xFF), "entry " + e);
            int last = java.util.Arrays.stream(spark.results()).filter(r -> r != io.github.tablebase.probe.Result.NONE
                    && r != io.github.tablebase.probe.Result.DRAW).map(io.github.tablebase.probe.Result::ply).max().orElseThrow();
            assertEquals(last + 1, here.plies(), "the plies run until one after the last that decides an entry");
        } finally {
            subs.release();
        }
    }

    private static int ply(SolvedResults table, Position p) {
        return table.ply(table.index().index(p), p.sideToMove() == Color.WHITE ? 0 : 1);
    }

    /** The ply of {@code p} in the table of its material, or with the colours swapped in its twin's (KRKP's for KPKR). */
    private static int ply(Map<Material, SolvedResults> tables, Position p) {
        return p.material().isTableMaterial() ? ply(tables.get(p.material()), p) : ply(tables.get(p.material().tableMaterial()), p.coloursSwapped());
    }

    @Test
    void theSolveLineGivesAHeapPerIndexOnlyWhereTheTableIsMostOfIt() {
        long kqk = new io.github.tablebase.chess.PositionIndex(Material.parse("KQK")).size(), kbnkn = new io.github.tablebase.chess.PositionIndex(Material.parse("KBNKN")).size();
        assertEquals("peak live heap (after GC) 64 MB", LiveHeap.figures(64L << 20, kqk)); // not 2,269 bytes an index
        assertEquals("no garbage collection while it solved", LiveHeap.figures(0, kqk)); // not 0.0 bytes an index
        assertEquals(String.format("peak live heap (after GC) 1,988 MB, %.1f bytes per index entry", (1988L << 20) / (double) kbnkn),
                LiveHeap.figures(1988L << 20, kbnkn));
    }

    @Test
    void threePieceTablesMatchTheBruteForceEverywhere() throws Exception {
        Map<String, Integer> published = Map.of("KQK", 10, "KRK", 16, "KBK", 0, "KNK", 0); // longest wins, White to move
        for (String name : new String[] {"KQK", "KRK", "KBK", "KNK"}) {
            Material m = Material.parse(name);
            SolvedResults t = solve(m, 3).get(m);
            assertEquals(published.get(name), t.longestWin(Color.WHITE), name);
            assertTrue(agreesEverywhere(t, bruteForce(m)) > 100_000, name);
        }
    }

    @Test
    void kpkMatchesTheBruteForceEverywhereThroughItsFourPromotions() throws Exception {
        Material kpk = Material.parse("KPK");
        Map<Material, SolvedResults> tables = solve(kpk, 3);
        assertEquals(java.util.Set.of("KQK", "KRK", "KBK", "KNK"), TablePlan.exits(kpk).stream().map(Material::name).collect(java.util.stream.Collectors.toSet()));
        SolvedResults t = tables.get(kpk);
        assertEquals(28, t.longestWin(Color.WHITE), "published: the longest KPK win is 28 moves");
        assertTrue(agreesEverywhere(t, bruteForce(kpk)) > 300_000);
    }

    private static final Map<Material, BruteForce> BRUTE_FORCE = new HashMap<>();

    /** The brute force of a material of three pieces, and of what its exits reach. */
    private static BruteForce bruteForce(Material m) {
        BruteForce known = BRUTE_FORCE.get(m);
        if (known != null) return known;
        Map<Material, BruteForce> smaller = new HashMap<>();
        for (Material sub : TablePlan.exits(m)) smaller.put(sub, bruteForce(sub));
        BruteForce solved = BruteForce.solve(m, smaller);
        BRUTE_FORCE.put(m, solved);
        return solved;
    }

    /** Compares every legal position's ply with the brute force; returns how many. */
    private static long agreesEverywhere(SolvedResults t, BruteForce expected) {
        long checked = 0;
        for (long key = 0; key < 1L << (6 * t.material().size() + 1); key++) {
            Position p = Position.fromKey(t.material(), key);
            if (p.key() != key || !p.isLegal()) continue;
            int want = expected.ply(key);
            assertEquals(want, ply(t, p), () -> t.material() + " " + p);
            checked++;
        }
        return checked;
    }

    @Test
    void kbbksLongestWinIs19WithTheTwoBishopsCountedOnce() throws Exception {
        SolvedResults kbbk = solve(Material.parse("KBBK"), 4).get(Material.parse("KBBK"));
        assertEquals(462L * 64 * 63 / 2, kbbk.index().size());
        assertEquals(19, kbbk.longestWin(Color.WHITE), "published: the longest KBBK win is 19 moves");
        assertEquals(0, kbbk.longestWin(Color.BLACK));
    }

    @Test
    void knnkHasNoForcedWinOnlyMatesInOneThatBlackWalkedInto() throws Exception {
        SolvedResults knnk = solve(Material.parse("KNNK"), 4).get(Material.parse("KNNK"));
        assertEquals(1, knnk.longestWin(Color.WHITE), "White wins only where a mate in one is on the board");
        long checkmates = 0, lostWithAMove = 0, mateInOne = 0;
        long[][] counts = knnk.plyCounts();
        checkmates += counts[1][1];
        mateInOne += counts[0][2];
        for (int ply = 2; ply + 1 < counts[1].length; ply++) lostWithAMove += counts[1][ply + 1];
        assertEquals(0, lostWithAMove, "no Black-to-move position that is not yet mate is lost: the knights cannot force mate");
        assertTrue(checkmates > 0 && mateInOne > 0, checkmates + " checkmates, " + mateInOne + " mates in one");
    }

    @Test
    void kbnkOverFourPartitionsAgreesWithTheSeedFileOnRandomPositions() throws Exception {
        SolvedResults kbnk = solve(Material.parse("KBNK"), 4).get(Material.parse("KBNK"));
        assertEquals(33, kbnk.longestWin(Color.WHITE));
        // the seed's file, byte for byte the one the earlier lone-king job wrote (KbnkTableTest checks its SHA-256)
        PackedTable seed = PackedTable.open(io.github.tablebase.KbnkTable.folder().resolve("kbnk.bin"));
        java.util.Random random = new java.util.Random(12);
        for (int t = 0; t < 200_000; t++) {
            Position p = Position.randomLegal(kbnk.material(), random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
            int dtm = p.sideToMove() == Color.WHITE ? seed.lookup(p).dtm() : KbnkTableTest.blackDepth(seed, p);
            int want = p.sideToMove() == Color.WHITE ? (dtm == 0 ? UNDECIDED : 2 * dtm - 1) : (dtm < 0 ? UNDECIDED : 2 * dtm);
            assertEquals(want, ply(kbnk, p), p::toString);
        }
    }

    @Test
    void kqkrsLongestWinIs35AndKrkrFollowsFromItsSuccessorsEverywhere() throws Exception {
        Material kqkr = Material.parse("KQKR");
        assertEquals(35, solve(kqkr, 4).get(kqkr).longestWin(Color.WHITE), "published: the longest KQKR win is 35 moves");
        Map<Material, SolvedResults> tables = solve(Material.parse("KRKR"), 3);
        SolvedResults krkr = tables.get(Material.parse("KRKR"));
        long[] n = checkAgainstSuccessors(krkr, tables, 1);
        assertTrue(n[0] > 2_000_000 && n[1] > 100_000, n[0] + " positions, " + n[1] + " decided");
    }

    @Test
    void oneTaskAndTwoOrThreePartitionsGiveTheSameResults() throws Exception {
        Material kqkr = Material.parse("KQKR");
        Map<Material, SolvedResults> split = solve(kqkr, 3);
        assertTrue(java.util.Arrays.equals(split.get(kqkr).results(), solve(kqkr, 2).get(kqkr).results()), "KQKR over 2 and 3 partitions");
        SolvedResults alone = solve(new TableSolver(SparkTestSession.context(), 3, System.out::println), kqkr, null);
        assertTrue(java.util.Arrays.equals(split.get(kqkr).results(), alone.results()), "KQKR in one task differs from 3 partitions");
    }

    @Test
    void aResultByteOfThirtyOnePliesGivesKqkrsSixtyNinePlyTableByteIdentical() throws Exception {
        Material kqkr = Material.parse("KQKR");
        int[] whole = solve(kqkr, 3).get(kqkr).results();
        org.apache.spark.sql.RuntimeConfig conf = SparkTestSession.session().conf();
        conf.set(RunSettings.BYTE_PLIES, "31");
        try {
            SolvedResults split = solve(new TableSolver(SparkTestSession.context(), 3, 1, System.out::println), kqkr, null);
            assertEquals(35, split.longestWin(Color.WHITE), "published: KQKR's longest win is 35 moves, 69 plies, past the 31 a byte holds here");
            assertTrue(java.util.Arrays.equals(whole, split.results()), "KQKR over 3 partitions with 31 plies a byte");
            SolvedResults alone = solve(new TableSolver(SparkTestSession.context(), 3, System.out::println), kqkr, null);
            assertTrue(java.util.Arrays.equals(whole, alone.results()), "KQKR in one task with 31 plies a byte");
        } finally {
            conf.unset(RunSettings.BYTE_PLIES);
        }
    }

    /**
     * A state byte that holds 9 plies (the counters of moves left taking the rest of the byte) lists KQKR's later
     * plies beside the bytes, and the solved partition gives each its exact byte again: the same results and late
     * plies as a state byte that holds them all, with the files' bytes holding 253 plies and 31.
     */
    @Test
    void aStateByteOfNinePliesGivesKqkrTheSameResultBytesAndLatePlies() throws Exception {
        Material kqkr = Material.parse("KQKR");
        solve(kqkr, 1); // writes KQK and KRK, which its captures read
        io.github.tablebase.chess.PositionIndex index = new io.github.tablebase.chess.PositionIndex(kqkr);
        io.github.tablebase.chess.MoveGenerator gen = new io.github.tablebase.chess.MoveGenerator(kqkr);
        SmallerTables subs = new SmallerTables(SparkTestSession.context(), kqkr, FILES);
        try {
            for (int filePlies : new int[] {io.github.tablebase.probe.Result.MAX_PLY, 31}) {
                int widest = TableSlice.bytePlies(gen, filePlies);
                var wide = TableSlice.solveAlone(index, gen, subs.exits(), 0, index.size(), widest, filePlies);
                var narrow = TableSlice.solveAlone(index, gen, subs.exits(), 0, index.size(), 9, filePlies);
                assertTrue(java.util.Arrays.equals(wide.results(), narrow.results()), "result bytes, files of " + filePlies + " plies");
                assertEquals(filePlies < 69, !wide.late().isEmpty(), "KQKR's 69 plies are listed past " + filePlies);
                assertEquals(wide.late().size(), narrow.late().size());
                for (int k = 0; k < wide.late().size(); k++) {
                    assertEquals(wide.late().entry(k), narrow.late().entry(k));
                    assertEquals(wide.late().ply(k), narrow.late().ply(k));
                }
            }
            assertTrue(TableSlice.bytePlies(gen, io.github.tablebase.probe.Result.MAX_PLY) > 69, "KQKR fits a state byte at the widest");
        } finally {
            subs.release();
        }
    }

    @Test
    void aWorkFolderResumesFromItsLastSavedPlyAndRefusesAnotherSplit(@TempDir java.nio.file.Path dir) throws Exception {
        Material krk = Material.parse("KRK");
        // on a file system that only the run's Hadoop settings name, as s3a:// with its credentials would be
        SchemeFileSystem.register(SparkTestSession.context().hadoopConfiguration());
        String work = SchemeFileSystem.uri(dir);
        List<String> said = new java.util.ArrayList<>();
        TableSolver solver = new TableSolver(SparkTestSession.context(), 3, 1, said::add);
        SolvedResults first = solve(solver, krk, work); // its work folder is left: the caller deletes it once written
        assertTrue(said.stream().anyMatch(l -> l.startsWith("KRK: ply  1:")), String.join("\n", said));
        said.clear();
        SolvedResults resumed = solve(solver, krk, work);
        assertTrue(said.stream().anyMatch(l -> l.startsWith("KRK: resuming from ply ")), String.join("\n", said));
        assertTrue(said.stream().noneMatch(l -> l.startsWith("KRK: ply  1:")), "no ply done again: " + String.join("\n", said));
        assertTrue(java.util.Arrays.equals(first.results(), resumed.results()), "the resumed table differs");
        java.io.IOException other = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> solve(new TableSolver(SparkTestSession.context(), 2, 1, said::add), krk, work));
        assertTrue(other.getMessage().contains("in 3 partitions"), other.getMessage());
        WorkFolder.deleteTable(work, krk, SparkTestSession.context().hadoopConfiguration());
        assertTrue(!java.nio.file.Files.exists(dir.resolve("krk")));
    }

    /** The tables {@code material} needs, as generate wrote them beside each other under {@code root}, read back. */
    private static Map<Material, SolvedResults> readBack(java.nio.file.Path root, Material material) throws java.io.IOException {
        Map<Material, SolvedResults> tables = new HashMap<>();
        for (Material m : TablePlan.of(material)) tables.put(m, SolvedResults.read(root.resolve(m.name().toLowerCase()), m));
        return tables;
    }

    /**
     * Checks every {@code stride}-th index, both sides to move, against its successors, on every core; returns {checked,
     * decided, double pushes into en passant}.
     */
    private static long[] checkAgainstSuccessors(SolvedResults t, Map<Material, SolvedResults> tables, int stride) {
        LongAdder checked = new LongAdder(), decided = new LongAdder(), intoEnPassant = new LongAdder();
        LongStream.range(0, (t.index().size() + stride - 1) / stride).parallel().map(k -> k * stride).forEach(i -> {
            for (Color side : Color.values()) {
                int entry = t.ply(i, side == Color.WHITE ? 0 : 1);
                if (entry == NONE) continue;
                Position p = t.index().position(i, side);
                assertEquals(fromSuccessors(p, tables), entry, p::toString);
                checked.increment();
                if (entry >= 0) decided.increment();
                if (i % 7 == 0) for (Move m : p.legalMoves()) if (canTakeEnPassant(p.play(m))) intoEnPassant.increment();
            }
        });
        return new long[] {checked.sum(), decided.sum(), intoEnPassant.sum()};
    }

    @Test
    void kpkpFollowsFromItsSuccessorsEverywhereEnPassantIncluded() throws Exception {
        // the tables generate wrote (KPKP in one task), read back; KPKP solved again over 3 partitions, its plies shuffled
        Material kpkp = Material.parse("KPKP");
        Map<Material, SolvedResults> tables = readBack(io.github.tablebase.GeneratedTables.folder("KPKP").getParent(), kpkp);
        for (Material sub : TablePlan.of(kpkp)) if (!sub.equals(kpkp)) FILES.put(sub, tables.get(sub).writeTo(io.github.tablebase.TestFolders.create("read-back")));
        SolvedResults t = solve(new TableSolver(SparkTestSession.context(), 3, 1, System.out::println), kpkp, null);
        assertTrue(java.util.Arrays.equals(tables.get(kpkp).results(), t.results()), "KPKP over 3 partitions differs from one task");
        long[] n = checkAgainstSuccessors(t, tables, 1);
        assertTrue(n[0] > 7_000_000 && n[1] > 1_000_000 && n[2] > 1_000, n[0] + " positions, " + n[1] + " decided, "
                + n[2] + " double pushes into an en-passant capture (a seventh of the positions)");
    }

    @Test
    void kpkrsPawnTakesTheRookAsItPromotesAndASampleFollowsFromItsSuccessors() throws Exception {
        // the pawn against the rook, as the set holds it: KRKP, whose colours swapped are KPKR
        Material kpkr = Material.parse("KPKR"), krkp = kpkr.tableMaterial();
        assertEquals(Material.parse("KRKP"), krkp);
        Map<Material, SolvedResults> tables = readBack(io.github.tablebase.GeneratedTables.folder("KPKP").getParent(), krkp); // KPKP reaches KRKP
        assertTrue(TablePlan.exits(krkp).containsAll(java.util.Set.of(Material.parse("KQK"), Material.parse("KNK"))), "a promotion that takes the rook");
        // Conrady's list of Nalimov's longest mates (CCC, June 2000): KR-KP, 85 plies, the pawn's side winning through KQKR
        assertEquals(43, tables.get(krkp).longestWin(Color.BLACK));
        // the same list: its deepest KR-KP position is mated in 42 (the rook's side to move), and Troitzky's 1895
        // study 8/6k1/3PK3/8/6r1/8/8/8 w is a mate in 39, which this table gives after 1.d7 Rg6+ (not after 1...Rd4)
        long[] rookToMove = tables.get(krkp).plyCounts()[0];
        int longestLoss = 0;
        for (int ply = 0; ply + 1 < rookToMove.length; ply += 2) if (rookToMove[ply + 1] > 0) longestLoss = ply / 2;
        assertEquals(42, longestLoss);
        assertEquals(2 * 39 - 1, ply(tables, io.github.tablebase.chess.Fen.parse("8/3P2k1/4K1r1/8/8/8/8/8 w - - 0 2")));
        long[] n = checkAgainstSuccessors(tables.get(krkp), tables, 13);
        assertTrue(n[0] > 600_000 && n[1] > 300_000, n[0] + " positions, " + n[1] + " decided");
    }

    private static boolean canTakeEnPassant(Position p) {
        return p.enPassant() >= 0 && p.legalMoves().stream().anyMatch(m -> m.to() == p.enPassant() && m.isCapture());
    }

    /** The ply a position's successors imply: a win one ply after the quickest loss reached, else a loss after the longest win. */
    private static int fromSuccessors(Position p, Map<Material, SolvedResults> tables) {
        List<Move> moves = p.legalMoves();
        if (moves.isEmpty()) return p.inCheck() ? 0 : UNDECIDED;
        int quickestLoss = Integer.MAX_VALUE, longestWin = -1;
        boolean open = false;
        for (Move m : moves) {
            Position after = p.play(m);
            // a table holds no en-passant right: a position where the capture is on the board follows from its own moves
            int ply = after.material().size() == 2 ? UNDECIDED
                    : canTakeEnPassant(after) ? fromSuccessors(after, tables) : ply(tables, after);
            if (ply < 0) open = true;
            else if (ply % 2 == 0) quickestLoss = Math.min(quickestLoss, ply);
            else longestWin = Math.max(longestWin, ply);
        }
        if (quickestLoss != Integer.MAX_VALUE) return quickestLoss + 1;
        return open ? UNDECIDED : longestWin + 1;
    }
}
