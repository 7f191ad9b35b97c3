package tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.GeneratedTables;
import tablebase.KbnkTable;
import tablebase.SparkTestSession;
import tablebase.output.TableExport;
import tablebase.probe.Manifest;

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
        Map<?, ?> positions = (Map<?, ?>) Manifest.read(kqkr.resolve(Manifest.FILE)).get("positions");
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", kqkr.toString(), "--plots", plots.toString()}));
        assertEquals(0, r.exit(), r.err());
        for (String side : List.of("white_to_move", "black_to_move"))
            for (String result : List.of("win", "loss", "draw"))
                assertTrue(r.out().contains(String.format("%,d", ((Number) ((Map<?, ?>) positions.get(side)).get(result)).longValue())), side + " " + result);
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
    void statsOfAFolderOfTablesPrintsALineATableFromItsRows(@TempDir Path dir) throws Exception {
        Path set = dir.resolve("set");
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQK,KRK,KPK", "--out", set.toString(), "--partitions", "1"}));
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--tables", set.toString(), "--plots", dir.resolve("charts").toString()}));
        assertEquals(0, r.exit(), r.err());
        for (String table : List.of("kqk", "krk", "kpk")) {
            Map<?, ?> positions = (Map<?, ?>) Manifest.read(set.resolve(table).resolve(Manifest.FILE)).get("positions");
            long legal = 0, whiteWins = ((Number) ((Map<?, ?>) positions.get("white_to_move")).get("win")).longValue(), whiteToMove = 0;
            for (Object side : positions.values()) for (Object n : ((Map<?, ?>) side).values()) legal += ((Number) n).longValue();
            for (Object n : ((Map<?, ?>) positions.get("white_to_move")).values()) whiteToMove += ((Number) n).longValue();
            String line = r.out().lines().filter(l -> l.startsWith(table.toUpperCase() + " ")).findFirst().orElseThrow(() -> new AssertionError(r.out()));
            List<String> cells = List.of(line.trim().split("\\s+"));
            assertEquals(String.format("%,d", legal), cells.get(1), line);
            assertEquals(String.format("%.1f", 100.0 * whiteWins / whiteToMove), cells.get(2), line);
            assertTrue(Files.isRegularFile(dir.resolve("charts").resolve(table).resolve("dtm_histogram.png")), table + "'s charts");
        }
        // published longest wins: KQK 10 moves, KRK 16, KPK 28 (Karrer)
        for (String[] longest : new String[][] {{"KQK", "10"}, {"KRK", "16"}, {"KPK", "28"}})
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(longest[0] + " ") && List.of(l.trim().split("\\s+")).get(5).equals(longest[1])), r.out());
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
