package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.BruteForce;
import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.IllegalPositionException;
import io.github.tablebase.probe.ProbeJson;
import io.github.tablebase.probe.ProbeResult.Category;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pawn tables through the doors: published depths, mating lines through promotions and en passant, SQL counts. */
class PawnTablesTest {
    private static Tablebase tables;

    @BeforeAll
    static void open() throws Exception {
        GeneratedTables.folder("KPKP"); // and beside it every table it reaches: KPK, KQKP, KPKQ, ...
        tables = Tablebase.open(GeneratedTables.root());
    }

    @Test
    void kpksDeepestPositionsAreThePublishedOnes() {
        // Peter Karrer's maxDTM list (as quoted on kirill-kryukov.com, "Longest Mate in kqk"): KPK White to move wins in
        // 28 moves in 3 positions, Black to move loses in 28 in 2; the mirror images are the same positions here
        for (String fen : List.of("8/8/8/1k6/8/8/K5P1/8 w - - 0 1", "8/8/8/1k6/8/8/1K4P1/8 w - - 0 1", "8/8/8/1k6/8/K7/6P1/8 w - - 0 1",
                "8/8/8/k7/8/K7/6P1/8 b - - 0 1", "8/8/k7/8/8/K7/6P1/8 b - - 0 1", "8/8/8/6k1/8/8/1P5K/8 w - - 0 1"))
            assertEquals(fen.contains(" w ") ? 28 : -28, tables.probeDtm(fen), fen);
    }

    @Test
    void sampledMainlinesAreLegalAndMateAfterExactlyTheirDtmThroughPromotionsAndEnPassant() {
        Random random = new Random(3);
        int lines = 0, promoting = 0, enPassant = 0;
        for (String name : List.of("KPKP", "KPK", "KQKP", "KPKR")) {
            Material m = Material.parse(name);
            for (int t = 0; t < 150; t++) {
                Position start = Position.randomLegal(m, random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
                ProbeResult r = tables.probe(start);
                if (r.category() == Category.DRAW) continue;
                int plies = r.category() == Category.WIN ? 2 * r.dtm() - 1 : 2 * r.dtm();
                assertEquals(plies, r.mainline().size(), start::toString);
                Position p = start;
                for (Move move : r.mainline()) {
                    assertTrue(p.legalMoves().contains(move), p + " " + move.uci());
                    if (move.promotion() != null) promoting++;
                    if (move.isCapture() && p.pieceAt(move.to()) < 0) enPassant++;
                    p = p.play(move);
                }
                assertTrue(p.isCheckmate(), start + " ends in " + p);
                lines++;
            }
        }
        assertTrue(lines > 300 && promoting > 100, lines + " lines, " + promoting + " promotions, " + enPassant + " en-passant captures");
    }

    /** The ply a position's moves imply, each successor looked up without any en-passant right (none follows an en-passant capture). */
    private static int plyFromMoves(Position p) {
        int quickestLoss = Integer.MAX_VALUE, longestWin = -1;
        boolean drawn = false;
        for (Move m : p.legalMoves()) {
            int dtm = tables.probeDtm(p.play(m)), wdl = tables.probeWdl(p.play(m));
            int ply = wdl == 0 ? -1 : wdl > 0 ? 2 * dtm - 1 : -2 * dtm;
            if (ply < 0) drawn = true;
            else if (ply % 2 == 0) quickestLoss = Math.min(quickestLoss, ply);
            else longestWin = Math.max(longestWin, ply);
        }
        return quickestLoss != Integer.MAX_VALUE ? quickestLoss + 1 : drawn ? -1 : longestWin + 1;
    }

    @Test
    void aFenWithAnEnPassantSquareCountsTheCaptureAmongItsMoves() {
        // Black has just played d7-d5 beside White's e5 pawn
        String fen = "8/8/8/3pP3/8/8/8/K6k w - d6 0 2";
        ProbeResult r = tables.probe(fen);
        assertTrue(r.moves().stream().anyMatch(m -> m.move().uci().equals("e5d6") && m.san().equals("exd6")), r.moves().toString());
        assertTrue(ProbeJson.of(fen, r).toString().contains("exd6"), ProbeJson.of(fen, r).toString());
        // positions where the right changes the result: the probe follows the capture, as the rules do
        Random random = new Random(6);
        Material kpkp = Material.parse("KPKP");
        int differing = 0, checked = 0;
        while (checked < 400) {
            Position p = Position.randomLegal(kpkp, Color.WHITE, random);
            int[] squares = p.squares();
            if (squares[3] / 8 != 4 || Math.abs(squares[1] - squares[3]) != 1) continue; // a Black pawn on d5 beside White's
            Position withRight = new Position(kpkp, squares, Color.WHITE, squares[3] + 8);
            if (!withRight.isLegal()) continue;
            int ply = plyFromMoves(withRight);
            int shown = tables.probeWdl(withRight) == 0 ? -1 : tables.probeWdl(withRight) > 0 ? 2 * tables.probeDtm(withRight) - 1 : -2 * tables.probeDtm(withRight);
            assertEquals(ply, shown, withRight::toString);
            if (tables.probeDtm(withRight) != tables.probeDtm(p) || tables.probeWdl(withRight) != tables.probeWdl(p)) differing++;
            checked++;
        }
        assertTrue(differing > 20, differing + " of " + checked + " positions change with the en-passant right");
    }

    @Test
    void aBatchOfPositionsOfManyMaterialsGetsTheDtmOfEachAlone() {
        Random random = new Random(8);
        List<Material> materials = tables.materials();
        Position[] batch = new Position[5_000];
        for (int i = 0; i < batch.length; i++)
            batch[i] = Position.randomLegal(materials.get(random.nextInt(materials.size())), random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
        batch[17] = Fen.parse("8/8/8/3pP3/8/8/8/K6k w - d6 0 2"); // answered from its moves
        batch[18] = Fen.parse("8/8/8/8/8/8/8/K6k w - - 0 1"); // bare kings
        int[] dtm = new int[batch.length];
        tables.probeDtm(batch, dtm);
        for (int i = 0; i < batch.length; i++) assertEquals(tables.probeDtm(batch[i]), dtm[i], batch[i]::toString);
        batch[40] = new Position(Material.parse("KPK"), new int[] {0, 12, 9}, Color.WHITE); // the kings touch
        assertThrows(IllegalPositionException.class, () -> tables.probeDtm(batch, dtm));
        // the variant with errors goes on: a reason where a position has none, every other position answered
        batch[300] = Fen.parse("8/8/8/8/8/8/8/KQQQQ2k w - - 0 1"); // a material not opened
        io.github.tablebase.probe.TablebaseException[] errors = new io.github.tablebase.probe.TablebaseException[batch.length];
        java.util.Arrays.fill(dtm, 99);
        tables.probeDtm(batch, dtm, errors);
        for (int i = 0; i < batch.length; i++) {
            if (i == 40) assertTrue(errors[i] instanceof IllegalPositionException, String.valueOf(errors[i]));
            else if (i == 300) assertTrue(errors[i] instanceof io.github.tablebase.probe.MissingTableException, String.valueOf(errors[i]));
            else assertEquals(null, errors[i], batch[i]::toString);
            assertEquals(errors[i] == null ? tables.getDtm(batch[i]).orElseThrow() : 0, dtm[i], batch[i]::toString);
        }
    }

    @Test
    void severalFoldersOpenAsOneTablebase(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path root = GeneratedTables.root(), kbnk = io.github.tablebase.KbnkTable.folder();
        try (Tablebase both = Tablebase.open(List.of(kbnk, root), Tablebase.Check.HEADERS)) {
            assertTrue(both.materials().containsAll(tables.materials()) && both.materials().contains(Material.parse("KBNK")), both.materials()::toString);
            assertEquals(tables.largest(), both.largest());
            Random random = new Random(3);
            for (Material m : List.of(Material.parse("KBNK"), Material.parse("KPKP"))) {
                Position p = Position.randomLegal(m, Color.WHITE, random);
                try (Tablebase alone = Tablebase.open(m.name().equals("KBNK") ? kbnk : root)) {
                    assertEquals(alone.probeDtm(p), both.probeDtm(p), p::toString);
                }
            }
        }
        assertThrows(io.github.tablebase.probe.MissingTableException.class, () -> Tablebase.open(List.of(root, dir), Tablebase.Check.HEADERS),
                "an empty folder among them is refused");
    }

    @Test
    void aPawnOnTheFirstOrLastRankIsAnIllegalPositionToEveryLookup() {
        Random random = new Random(21);
        int refused = 0;
        for (Material m : tables.materials()) {
            if (!m.hasPawns()) continue;
            int pawn = 0;
            while (m.piece(pawn).type() != PieceType.PAWN) pawn++;
            for (int k = 0; k < 40; k++) {
                Position legal = Position.randomLegal(m, Color.WHITE, random);
                long free = 0xFF000000000000FFL & ~legal.occupied(); // the empty squares of the first and last ranks
                for (int skip = random.nextInt(Long.bitCount(free)); skip > 0; skip--) free &= free - 1;
                int[] squares = legal.squares();
                squares[pawn] = Long.numberOfTrailingZeros(free);
                Position p = new Position(m, squares, random.nextBoolean() ? Color.WHITE : Color.BLACK);
                assertThrows(IllegalPositionException.class, () -> tables.probeDtm(p), p::toString);
                assertThrows(IllegalPositionException.class, () -> tables.probeWdl(p), p::toString);
                assertThrows(IllegalPositionException.class, () -> tables.probeDtm(new Position[] {p}, new int[1]), p::toString);
                assertTrue(tables.getDtm(p).isEmpty(), p::toString);
                refused++;
            }
        }
        assertTrue(refused >= 120, refused + " positions");
    }

    @Test
    void aPromotionIsFourMovesEachIntoItsOwnTable() {
        ProbeResult r = tables.probe("8/4P3/8/8/8/8/k7/2K5 w - - 0 1");
        for (PieceType piece : PieceType.PROMOTIONS) {
            String uci = "e7e8" + Character.toLowerCase(piece.letter());
            ProbeResult.MoveResult move = r.moves().stream().filter(m -> m.move().uci().equals(uci)).findFirst().orElseThrow();
            Position after = Fen.parse("8/4P3/8/8/8/8/k7/2K5 w - - 0 1").play(move.move());
            assertEquals("K" + piece.letter() + "K", after.material().name());
            ProbeResult there = tables.probe(after);
            assertEquals(there.category(), move.category(), uci); // a move's result is that of the position it leads to
        }
        assertEquals(Category.DRAW, r.moves().stream().filter(m -> m.move().uci().equals("e7e8b")).findFirst().orElseThrow().category());
        assertNotEquals(Category.DRAW, r.moves().stream().filter(m -> m.move().uci().equals("e7e8q")).findFirst().orElseThrow().category());
    }

    @Test
    void sqlCountsEveryKpkPositionAsTheBruteForceDoes() throws Exception {
        Material kpk = Material.parse("KPK");
        Map<Material, BruteForce> three = new java.util.HashMap<>();
        for (String name : List.of("KQK", "KRK", "KBK", "KNK")) three.put(Material.parse(name), BruteForce.solve(Material.parse(name), Map.of()));
        BruteForce brute = BruteForce.solve(kpk, three);
        long[][] counts = new long[2][3]; // side, win / draw / loss
        for (long key = 0; key < 1L << 19; key++) {
            int ply = brute.ply(key);
            if (ply == BruteForce.NO_POSITION) continue;
            counts[(int) (key >>> 18)][ply < 0 ? 1 : ply % 2 == 1 ? 0 : 2]++;
        }
        TableView view = TableView.register(SparkTestSession.session(), GeneratedTables.root().resolve("kpk").toString());
        String[] results = {"win", "draw", "loss"};
        for (int side = 0; side < 2; side++)
            for (int k = 0; k < 3; k++) {
                String where = " WHERE stm = '" + (side == 0 ? "w" : "b") + "' AND result = '" + results[k] + "'";
                long weighted = SparkTestSession.session().sql("SELECT coalesce(sum(positions), 0) FROM kpk" + where).first().getLong(0);
                long every = SparkTestSession.session().sql("SELECT count(*) FROM " + view.everyPosition() + where).first().getLong(0);
                assertEquals(counts[side][k], weighted, side + " " + results[k]);
                assertEquals(counts[side][k], every, side + " " + results[k]);
            }
        assertTrue(counts[0][0] > 100_000);
        // best moves that promote keep their piece, in the rows and in every position's view (mirrored)
        for (String table : List.of("kpk", view.everyPosition())) {
            List<org.apache.spark.sql.Row> promoting = SparkTestSession.session()
                    .sql("SELECT fen, best_move FROM " + table + " WHERE length(best_move) = 5 ORDER BY fen LIMIT 200").collectAsList();
            assertEquals(200, promoting.size(), table);
            for (org.apache.spark.sql.Row row : promoting) assertEquals(tables.probe(row.getString(0)).bestMove().uci(), row.getString(1), row::toString);
        }
    }
}
