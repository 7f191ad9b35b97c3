package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.tablebase.GeneratedTables;
import io.github.tablebase.KbnkTable;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.output.TableExport;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.Tablebase;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jobs/stats over KQKR and jobs/sql over KBNK, on the test JVM's Spark session. */
class StatsAndSqlCliTest {
    private static Path folder;

    @BeforeAll
    static void table() throws Exception {
        folder = KbnkTable.folder();
        SparkTestSession.get();
    }

    private static CliRun sql(String... args) { return CliRun.of("sql", Sql.USAGE, "", () -> Sql.sql(args)); }

    @Test
    void statsOfKqkrPrintsBothSidesResultsAndDrawsEveryPiecesBoards(@TempDir Path plots) throws Exception {
        Path kqkr = GeneratedTables.folder("KQKR");
        List<Manifest.SideFigures> sides = Manifest.read(kqkr.resolve(Manifest.FILE)).sides();
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", kqkr.toString(), "--plots", plots.toString()}));
        assertEquals(0, r.exit(), r.err());
        for (Manifest.SideFigures side : sides) {
            Manifest.Counts counts = side.positions();
            for (long n : new long[] {counts.win(), counts.loss(), counts.draw()}) assertTrue(r.out().contains(String.format("%,d", n)), side + ": " + n);
        }
        assertTrue(r.out().contains("Mean DTM of White's wins by Black rook square"), r.out());
        assertTrue(r.out().contains("White wins    White loses     Black wins    Black loses"), r.out());
        assertTrue(r.out().contains("Black's wins, % of positions with Black to move, by Black rook square"), "Black wins some KQKR positions: " + r.out());
        List<String> files = new java.util.ArrayList<>(List.of("dtm_histogram.png"));
        for (String side : List.of("", "black_"))
            for (String piece : List.of("wk", "wq", "bk", "br")) files.addAll(List.of(side + "win_share_by_" + piece + ".png", side + "mean_dtm_by_" + piece + ".png"));
        try (var written = Files.list(plots)) {
            assertEquals(files.stream().sorted().toList(), written.map(f -> f.getFileName().toString()).sorted().toList());
        }
        // drawn, not blank: the histogram's bars in White's colour, each board's squares at both ends of the colour ramp
        assertTrue(pixels(plots.resolve("dtm_histogram.png"), 0x3B7DD8) > 1_000, "White's bars");
        for (String board : files.subList(1, files.size())) {
            assertTrue(pixels(plots.resolve(board), 0x440154) > 500, board + ": the lowest squares");
            assertTrue(pixels(plots.resolve(board), 0xFDE725) > 500, board + ": the highest squares");
        }
    }

    /** A table made with DTZ: stats add each side's results under the 50-move rule; one made without, none. */
    @Test
    void statsOfATableWithDtzTellTheFiftyMoveRule() throws Exception {
        Path kqkr = GeneratedTables.dtzKqkr().resolve("kqkr");
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", kqkr.toString()}));
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().dropWhile(l -> !l.startsWith("Under the 50-move rule")).skip(1).limit(2).toList();
        io.github.tablebase.probe.Manifest.DtzSide white = io.github.tablebase.probe.Manifest.read(kqkr.resolve("manifest.json")).dtz().sides().get(0);
        assertTrue(lines.size() == 2 && lines.get(0).matches("White to move: [\\d,]+ wins, 0 cursed wins, [\\d,]+ draws, 0 blessed losses, [\\d,]+ losses;"
                + " longest DTZ " + Math.max(white.longestWin(), white.longestLoss()) + " plies") && lines.get(1).startsWith("Black to move: "), r.out());
        CliRun plain = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", GeneratedTables.folder("KQKR").toString()}));
        assertFalse(plain.out().contains("50-move rule"), plain.out());
    }

    @Test
    void statsOfKpkShowThePublishedDeepestPositionsAndAMirroredPawnBoard() throws Exception {
        Path kpk = GeneratedTables.folder("KPKP").resolveSibling("kpk");
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", kpk.toString()}));
        assertEquals(0, r.exit(), r.err());
        // Karrer's maxDTM positions (see PawnTablesTest): White to move wins in 28, Black to move is lost in 28
        assertTrue(r.out().matches("(?s).*White to move, win  DTM 28  8/8/8/1k6/8/8/K5P1/8 w - - 0 1.*"), r.out());
        assertTrue(r.out().matches("(?s).*Black to move, loss DTM 28  8/8/8/k7/8/K7/6P1/8 b - - 0 1.*"), r.out());
        List<String> board = r.out().lines().dropWhile(l -> !l.startsWith("White's wins, % of positions with White to move, by White pawn square"))
                .skip(1).limit(8).toList();
        assertTrue(board.get(0).matches("  8(\\s+\\.){8}") && board.get(7).matches("  1(\\s+\\.){8}"), "no pawn on the first or last rank: " + board);
        for (String rank : board.subList(1, 7)) {
            List<String> shares = List.of(rank.trim().split("\\s+")).subList(1, 9);
            for (int file = 0; file < 4; file++) assertEquals(shares.get(file), shares.get(7 - file), "mirrored: " + rank);
        }
    }

    /** How many pixels of an image have exactly this colour. */
    private static long pixels(Path png, int rgb) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++)
            for (int x = 0; x < image.getWidth(); x++) if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) n++;
        return n;
    }

    @Test
    void statsOfAFolderOfTablesPrintsEachSideOfEachMaterialFromItsRowsAndTheSetsTotals(@TempDir Path dir) throws Exception {
        Path set = dir.resolve("set");
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQK,KRK,KPK", "--out", set.toString(), "--partitions", "1"}));
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--tables", set.toString(), "--plots", dir.resolve("charts").toString()}));
        assertEquals(0, r.exit(), r.err());
        long[] setLegal = new long[2], setWon = new long[2];
        List<String> held; // KQK, KRK, KPK and the tables KPK's promotions reach: KBK, KNK
        try (java.util.stream.Stream<Path> folders = Files.list(set)) {
            held = folders.map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of("kbk", "knk", "kpk", "kqk", "krk"), held);
        for (String table : held) {
            List<Manifest.SideFigures> sides = Manifest.read(set.resolve(table).resolve(Manifest.FILE)).sides();
            String twin = Material.parse(table).coloursSwapped().name();
            for (int side = 0; side < 2; side++) {
                Manifest.Counts counts = sides.get(side).positions();
                long legal = counts.win() + counts.loss() + counts.draw(), won = counts.win();
                setLegal[side] += legal;
                setWon[side] += won;
                // the table's line for this side, and its twin's for the other side: the same positions seen from the other side
                for (String line : List.of(line(r, table.toUpperCase(), side == 0 ? "White" : "Black"), line(r, twin, side == 0 ? "Black" : "White"))) {
                    List<String> cells = List.of(line.trim().split("\\s+"));
                    assertEquals(String.format("%,d", legal), cells.get(2), line);
                    assertEquals(String.format("%,d", won), cells.get(3), line);
                }
            }
            assertTrue(Files.isRegularFile(dir.resolve("charts").resolve(table).resolve("dtm_histogram.png")), table + "'s charts");
        }
        // published longest wins: KQK 10 moves, KRK 16, KPK 28 (Karrer), each with a position that a probe of the table gives as such
        for (String[] longest : new String[][] {{"KQK", "10"}, {"KRK", "16"}, {"KPK", "28"}}) {
            List<String> cells = List.of(line(r, longest[0], "White").trim().split("\\s+"));
            assertEquals(longest[1], cells.get(6), cells.toString());
            String fen = String.join(" ", cells.subList(8, cells.size()));
            try (Tablebase tables = Tablebase.open(set)) {
                assertEquals(Integer.parseInt(longest[1]), tables.probeDtm(Fen.parse(fen)), fen);
                String twinFen = String.join(" ", List.of(line(r, Material.parse(longest[0]).coloursSwapped().name(), "Black").trim().split("\\s+")).subList(8, 14));
                assertEquals(Integer.parseInt(longest[1]), tables.probeDtm(Fen.parse(twinFen)), twinFen);
            }
        }
        for (int side = 0; side < 2; side++) {
            List<String> cells = List.of(line(r, "all", side == 0 ? "White" : "Black").trim().split("\\s+"));
            assertEquals(String.format("%,d", setLegal[side]), cells.get(2), cells.toString());
            assertEquals(String.format("%,d", setWon[side]), cells.get(3), cells.toString());
        }
        assertTrue(line(r, "all", "White").contains(" 28 ") && line(r, "all", "White").contains("KPK "), r.out());
        assertTrue(r.out().contains("the set: 5 tables answering 10 materials"), r.out());
        // one question across the set: its longest wins, from the view of every table
        CliRun longest = sql("--tables", set.toString(), "--csv", "SELECT endgame, stm, dtm, fen FROM all_tables WHERE result = 'win' ORDER BY dtm DESC, endgame, fen LIMIT 3");
        assertEquals(0, longest.exit(), longest.err());
        List<String> rows = longest.out().lines().toList();
        assertEquals(4, rows.size(), longest.out());
        for (String row : rows.subList(1, 4)) { // KPK's 28-move wins (Karrer), each a position a probe gives as such
            List<String> cells = List.of(row.split(","));
            assertEquals(List.of("KPK", "w", "28"), cells.subList(0, 3), row);
            try (Tablebase tables = Tablebase.open(set)) {
                assertEquals(28, tables.probeDtm(Fen.parse(cells.get(3))), row);
            }
        }
        CliRun count = sql("--tables", set.toString(), "--csv", "SELECT count(DISTINCT endgame), sum(positions) FROM all_tables");
        assertEquals(String.format("5,%d", setLegal[0] + setLegal[1]), count.out().lines().toList().get(1));
    }

    @Test
    void aMaterialWithoutATableOfItsOwnHasTheViewsItsTableWouldHaveComputedFromItsTwin() throws Exception {
        org.apache.spark.sql.SparkSession spark = SparkTestSession.session();
        for (String endgame : List.of("KQK", "KPK")) { // the eight symmetries of the board, and the left-right mirror alone
            Path folder = GeneratedTables.folder(endgame);
            io.github.tablebase.output.TableView twin = io.github.tablebase.output.TableView.register(spark, folder.toString()).registerColoursSwapped(spark);
            Material material = Material.parse(endgame).coloursSwapped();
            assertEquals(material, twin.material());
            io.github.tablebase.chess.PositionIndex index = new io.github.tablebase.chess.PositionIndex(material);
            long rows = 0, moves = 0;
            try (Tablebase tables = Tablebase.open(folder)) {
                for (org.apache.spark.sql.Row row : spark.sql("SELECT key, stm, result, dtm, best_move, fen, positions FROM " + twin.name()).collectAsList()) {
                    io.github.tablebase.chess.Position p = Fen.parse(row.getString(5));
                    assertEquals(index.index(p), row.getLong(0), p::toString);
                    assertEquals(index.canonical(p), p, "a row holds its position in the twin's canonical form");
                    assertEquals(p.sideToMove().fenLetter() + "", row.getString(1));
                    int wdl = tables.probeWdl(p), dtm = Math.abs(tables.probeDtm(p));
                    assertEquals(wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw", row.getString(2), p::toString);
                    if (wdl != 0) assertEquals(dtm, row.getInt(3), p::toString);
                    if (wdl > 0 || wdl < 0 && dtm > 0) { // the best move keeps the result, one ply nearer the mate
                        io.github.tablebase.chess.Move best = p.legalMoves().stream().filter(m -> m.uci().equals(row.getString(4))).findFirst()
                                .orElseThrow(() -> new AssertionError(row.getString(4) + " is not a move of " + p));
                        io.github.tablebase.chess.Position after = p.play(best);
                        assertEquals(-wdl, tables.probeWdl(after), p + " " + best.uci());
                        assertEquals(wdl > 0 ? dtm - 1 : dtm, Math.abs(tables.probeDtm(after)), p + " " + best.uci());
                        moves++;
                    }
                    assertEquals(index.canonical(p).distinctImages().length, row.getInt(6), p::toString);
                    rows++;
                }
            }
            long sum = spark.sql("SELECT sum(positions) FROM " + twin.name()).first().getLong(0);
            assertEquals(sum, spark.table(twin.everyPosition()).count());
            assertEquals(spark.table(endgame.toLowerCase()).count(), rows, "a row of the twin's view for each row of the table");
            assertTrue(moves > rows / 2, rows + " rows, " + moves + " best moves of " + twin.name());
        }
    }

    /**
     * A set made without its Parquet rows: each table's lines from its manifest, and a longest win of each side found in
     * its compressed files (Black's in KQKR, a side the files leave out, too), a position the probe gives that win.
     */
    @Test
    void statsOfASetMadeWithoutItsRowsComeFromItsManifestsAndFiles(@TempDir Path dir) throws Exception {
        Path set = dir.resolve("set");
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQKR", "--out", set.resolve("kqkr").toString(), "--partitions", "1", "--no-parquet"}));
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--tables", set.toString()}));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("the set: 3 tables answering 6 materials"), r.out());
        try (Tablebase tables = Tablebase.open(set)) {
            for (String table : List.of("KQK", "KRK", "KQKR")) {
                Material material = Material.parse(table);
                List<Manifest.SideFigures> sides = Manifest.read(set.resolve(table.toLowerCase()).resolve(Manifest.FILE)).sides();
                for (io.github.tablebase.chess.Color side : io.github.tablebase.chess.Color.values()) {
                    Manifest.SideFigures figures = sides.get(side.ordinal());
                    Manifest.Counts n = figures.positions();
                    List<String> cells = List.of(line(r, table, side == io.github.tablebase.chess.Color.WHITE ? "White" : "Black").trim().split("\\s+"));
                    assertEquals(List.of(String.format("%,d", n.win() + n.loss() + n.draw()), String.format("%,d", n.win()), String.format("%,d", n.loss()),
                            String.format("%,d", n.draw())), cells.subList(2, 6), cells.toString());
                    if (figures.longestWin() == 0) {
                        assertEquals(List.of("-", "-", "-"), cells.subList(6, 9), cells.toString());
                        continue;
                    }
                    assertEquals(String.valueOf(figures.longestWin()), cells.get(6), cells.toString());
                    io.github.tablebase.chess.Position p = Fen.parse(String.join(" ", cells.subList(8, cells.size())));
                    assertEquals(List.of(material, side), List.of(p.material(), p.sideToMove()), cells.toString());
                    assertEquals(figures.longestWin(), tables.probeDtm(p), cells.toString());
                }
            }
        }
        assertTrue(Integer.parseInt(List.of(line(r, "KQKR", "Black").trim().split("\\s+")).get(6)) > 0, "Black wins some KQKR positions");
    }

    /** The line of stats' output for a table (or "all") and a side to move. */
    private static String line(CliRun r, String table, String side) {
        return r.out().lines().filter(l -> l.startsWith(table + " ") && l.substring(8).trim().startsWith(side + " ")).findFirst()
                .orElseThrow(() -> new AssertionError(table + " " + side + " in\n" + r.out()));
    }

    @Test
    void sqlPrintsAnAlignedTableCsvOrJsonLines() throws Exception {
        String query = "SELECT stm, count(*) AS positions, max(dtm) AS max_dtm FROM kbnk GROUP BY stm ORDER BY stm";
        long white = SparkTestSession.session().read().parquet(folder.resolve(TableExport.PARQUET).toString())
                .filter("side = 0").count();
        CliRun aligned = sql("--table", folder.toString(), query);
        assertEquals(0, aligned.exit(), aligned.err());
        List<String> lines = aligned.out().lines().toList();
        assertEquals("stm | positions | max_dtm", lines.get(0));
        assertTrue(lines.get(1).matches("-+\\+-+\\+-+"), lines.get(1));
        assertTrue(lines.get(3).matches("w +\\| +" + white + " \\| +33"), lines.get(3));
        assertEquals(lines.get(0).length(), lines.get(3).length());
        assertEquals("(2 rows)", lines.get(4));

        CliRun csv = sql("--table", folder.toString(), "--csv", query);
        assertEquals(List.of("stm,positions,max_dtm", "b," + (csv.out().lines().toList().get(1).split(",")[1]) + ",33",
                "w," + white + ",33"), csv.out().lines().toList());

        CliRun json = sql("--table", folder.toString(), "--json", query);
        List<String> objects = json.out().lines().toList();
        assertEquals(2, objects.size());
        assertEquals(white, new ObjectMapper().readTree(objects.get(1)).get("positions").asLong());
    }

    @Test
    void badQueriesAndMissingTablesAreOneLineErrors(@TempDir Path empty) throws Exception {
        CliRun bad = sql("--table", folder.toString(), "SELECT nope FROM kbnk");
        assertEquals(1, bad.exit());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().startsWith("sql: error: bad query: [UNRESOLVED_COLUMN"), bad.err());
        CliRun unparsable = sql("--table", folder.toString(), "SELEKT 1");
        assertEquals(1, unparsable.exit());
        assertTrue(unparsable.err().contains("bad query"), unparsable.err());
        CliRun missing = sql("--table", empty.toString(), "SELECT 1");
        assertEquals(1, missing.exit());
        assertTrue(missing.err().contains("not a generated table"), missing.err());
        assertEquals(2, sql("--table", folder.toString(), "--csv", "--json", "SELECT 1").exit());
        assertEquals(2, sql("--table", folder.toString()).exit());
        CliRun stats = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", empty.toString()}));
        assertEquals(1, stats.exit());
        assertEquals(1, stats.err().lines().count(), stats.err());
        assertTrue(Files.exists(empty));
    }
}
