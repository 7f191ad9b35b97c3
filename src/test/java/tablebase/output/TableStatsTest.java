package tablebase.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.cli.Generate;
import tablebase.KbnkTable;
import tablebase.SparkTestSession;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Position;
import tablebase.chess.Square;

/** The Spark SQL statistics of a table, against its manifest and the chess core. */
class TableStatsTest {
    @Test
    void statsAgreeWithTheManifestAndTheLightCornersAreTheQuickestMates() throws Exception {
        Path folder = KbnkTable.folder();
        TableStats stats = TableStats.compute(SparkTestSession.session(), TableView.register(SparkTestSession.session(), folder.toString()));
        Map<String, Object> manifest = Manifest.read(folder.resolve(TableExport.MANIFEST));
        Map<?, ?> histograms = (Map<?, ?>) manifest.get("dtm_histogram");
        for (Color side : Color.values()) {
            Map<?, ?> expected = (Map<?, ?>) ((Map<?, ?>) histograms.get(side == Color.WHITE ? "white_to_move" : "black_to_move"))
                    .get(side == Color.WHITE ? "win" : "loss");
            long[] h = stats.sides().get(side).histogram();
            for (int d = 0; d < h.length; d++)
                assertEquals(expected.containsKey("" + d) ? ((Number) expected.get("" + d)).longValue() : 0L, h[d], side + " " + d);
        }
        assertEquals(33, stats.deepest().get(0).dtm());
        assertEquals(2 * TableStats.DEEPEST_PER_SIDE, stats.deepest().size());
        // the mean by square is over the light-square bishop only: its corners a8 and h1 are the quickest mates
        double[] mean = stats.byBlackKing().mean();
        assertEquals(mean[Square.parse("a8")], mean[Square.parse("h1")], 1e-9);
        assertTrue(mean[Square.parse("a8")] < mean[Square.parse("a1")], "light corner " + mean[56] + " vs dark " + mean[0]);

    }

    @Test
    void legalPositionsAreCountedFromTheRowsWeightedAsTheChessCoreCountsThem(@TempDir Path dir) throws Exception {
        Material kqk = Material.parse("KQK");
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQK", "--out", dir.resolve("kqk").toString(), "--partitions", "2"}));
        TableStats stats = TableStats.compute(SparkTestSession.session(), TableView.register(SparkTestSession.session(), dir.resolve("kqk").toString()));
        long[] counted = new long[2];
        for (int wk = 0; wk < 64; wk++)
            for (int wq = 0; wq < 64; wq++)
                for (int bk = 0; bk < 64; bk++)
                    for (Color side : Color.values())
                        if (new Position(kqk, new int[] {wk, wq, bk}, side).isLegal()) counted[side.ordinal()]++;
        assertArrayEquals(counted, new long[] {stats.sides().get(Color.WHITE).legal(), stats.sides().get(Color.BLACK).legal()});
        assertEquals(10, stats.sides().get(Color.WHITE).maxDtm(), "KQK's longest mate");
        assertEquals(0, stats.sides().get(Color.WHITE).losses() + stats.sides().get(Color.BLACK).wins());

        StringBuilder squares = new StringBuilder();
        for (int sq = 0; sq < 64; sq++) squares.append(sq == 0 ? "" : ", ").append("('").append(Square.name(sq)).append("')");
        List<Row> light = SparkTestSession.session().sql("SELECT sq FROM VALUES " + squares + " AS t(sq) WHERE "
                + TableStats.lightSquare("sq")).collectAsList();
        assertEquals(32, light.size());
        for (Row row : light) assertTrue(Square.isLight(Square.parse(row.getString(0))), row.getString(0));
    }
}
