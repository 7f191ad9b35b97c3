package tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import tablebase.KbnkTable;
import tablebase.SparkTestSession;
import tablebase.output.Manifest;
import tablebase.output.TableExport;

/** jobs/stats and jobs/sql over the generated KBNK table, on the test JVM's Spark session. */
class StatsAndSqlCliTest {
    private static Path folder;

    @BeforeAll
    static void table() throws Exception {
        folder = KbnkTable.folder();
        SparkTestSession.get();
    }

    private static CliRun sql(String... args) { return CliRun.of("sql", Sql.USAGE, "", () -> Sql.sql(args)); }

    @Test
    void statsPrintsTheFiguresAndDrawsFiveCharts(@TempDir Path plots) throws Exception {
        Map<?, ?> positions = (Map<?, ?>) Manifest.read(folder.resolve(TableExport.MANIFEST)).get("positions");
        CliRun r = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--table", folder.toString(), "--plots", plots.toString()}));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains(String.format("%,d", ((Number) ((Map<?, ?>) positions.get("white_to_move")).get("win")).longValue())), r.out());
        assertTrue(r.out().contains("Mean DTM of White's wins (light-square bishop) by Black king square"), r.out());
        Map<String, int[]> sizes = Map.of("dtm_histogram.png", new int[] {1200, 650}, "max_dtm_by_black_king.png", new int[] {720, 760},
                "mean_dtm_by_black_king.png", new int[] {720, 760}, "max_dtm_by_white_king.png", new int[] {720, 760},
                "mean_dtm_by_white_king.png", new int[] {720, 760});
        for (Map.Entry<String, int[]> e : sizes.entrySet()) {
            BufferedImage image = ImageIO.read(plots.resolve(e.getKey()).toFile());
            assertNotNull(image, e.getKey());
            assertArrayEquals(e.getValue(), new int[] {image.getWidth(), image.getHeight()}, e.getKey());
        }
    }

    @Test
    void sqlPrintsAnAlignedTableCsvOrJsonLines() throws Exception {
        String query = "SELECT stm, count(*) AS positions, max(dtm) AS max_dtm FROM kbnk GROUP BY stm ORDER BY stm";
        long white = SparkTestSession.session().read().parquet(folder.resolve(TableExport.PARQUET).toString())
                .filter("stm = 'w'").count();
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
