package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.KbnkTable;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.Square;
import io.github.tablebase.cli.Generate;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.Tablebase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.xy.XYZDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark SQL statistics of a table, against its manifest and the chess core. */
class TableStatsTest {
    @Test
    void statsAgreeWithTheManifestAndTheLightCornersAreTheQuickestMates() throws Exception {
        Path folder = KbnkTable.folder();
        TableStats stats = TableStats.compute(SparkTestSession.session(), TableView.register(SparkTestSession.session(), folder.toString()));
        Manifest manifest = Manifest.read(folder.resolve(Manifest.FILE));
        for (Color side : Color.values()) {
            Manifest.SideFigures figures = manifest.sides().get(side.ordinal());
            Map<Integer, Long> expected = side == Color.WHITE ? figures.winIn() : figures.lossIn();
            long[] h = side == Color.WHITE ? stats.sides().get(side).winHistogram() : stats.sides().get(side).lossHistogram();
            for (int d = 0; d < h.length; d++)
                assertEquals(expected.getOrDefault(d, 0L), h[d], side + " " + d);
        }
        assertEquals(33, stats.deepest().get(0).dtm());
        assertEquals(2 * TableStats.DEEPEST_PER_SIDE, stats.deepest().size());
        // the mean by square is over the light-square bishop only: its corners a8 and h1 are the quickest mates
        double[] mean = piece(stats, "bk").meanWinDtm(Color.WHITE);
        assertEquals(mean[Square.parse("a8")], mean[Square.parse("h1")], 1e-9);
        assertTrue(mean[Square.parse("a8")] < mean[Square.parse("a1")], "light corner " + mean[56] + " vs dark " + mean[0]);

    }

    private static TableStats.PieceSquares piece(TableStats stats, String column) {
        return stats.byPiece().stream().filter(p -> p.column().equals(column)).findFirst().orElseThrow();
    }

    @Test
    void kqkrStatsAreWhatTheProbeSaysOfEveryPositionAndTheChartsPlotThem() throws Exception {
        Path folder = GeneratedTables.folder("KQKR");
        TableStats stats = TableStats.compute(SparkTestSession.session(), TableView.register(SparkTestSession.session(), folder.toString()));
        Manifest manifest = Manifest.read(folder.resolve(Manifest.FILE));
        for (Color side : Color.values())
            for (String result : List.of("win", "loss")) {
                Manifest.SideFigures figures = manifest.sides().get(side.ordinal());
                Map<Integer, Long> expected = result.equals("win") ? figures.winIn() : figures.lossIn();
                long[] h = result.equals("win") ? stats.sides().get(side).winHistogram() : stats.sides().get(side).lossHistogram();
                assertTrue(h.length > 1, side + " " + result + ": KQKR has both results for both sides");
                for (int d = 0; d < h.length; d++)
                    assertEquals(expected.getOrDefault(d, 0L), h[d], side + " " + result + " " + d);
            }
        assertEquals(List.of("White king", "White queen", "Black king", "Black rook"), stats.byPiece().stream().map(TableStats.PieceSquares::piece).toList());

        // the rook's boards on a few squares, either side to move, from a probe of every position with the rook there
        TableStats.PieceSquares rook = piece(stats, "br");
        Material kqkr = Material.parse("KQKR");
        try (Tablebase probe = Tablebase.open(folder)) {
            for (Color side : Color.values())
                for (String square : List.of("a1", "d5", "g7")) {
                    int br = Square.parse(square);
                    long legal = 0, wins = 0, dtmSum = 0;
                    for (int wk = 0; wk < 64; wk++)
                        for (int wq = 0; wq < 64; wq++)
                            for (int bk = 0; bk < 64; bk++) {
                                Position p = new Position(kqkr, new int[] {wk, wq, bk, br}, side);
                                if (!p.isLegal()) continue;
                                legal++;
                                int dtm = probe.probeDtm(p);
                                if (dtm > 0) { wins++; dtmSum += dtm; }
                            }
                    assertEquals((double) wins / legal, rook.winShare(side)[br], 1e-9, side + " " + square);
                    assertEquals((double) dtmSum / wins, rook.meanWinDtm(side)[br], 1e-9, side + " " + square);
                }
        }

        Map<String, JFreeChart> charts = Charts.charts(stats);
        assertEquals(1 + 2 * 4 + 2 * 4, charts.size(), "Black wins KQKR positions: its boards too " + charts.keySet());
        for (Color side : Color.values()) {
            String prefix = side == Color.WHITE ? "" : "black_";
            XYZDataset share = (XYZDataset) charts.get(prefix + "win_share_by_br.png").getXYPlot().getDataset(),
                    mean = (XYZDataset) charts.get(prefix + "mean_dtm_by_br.png").getXYPlot().getDataset();
            for (int i = 0; i < 64; i++) {
                int sq = Square.of((int) share.getXValue(0, i), (int) share.getYValue(0, i));
                assertEquals(100 * rook.winShare(side)[sq], share.getZValue(0, i), 1e-9);
                assertEquals(rook.meanWinDtm(side)[sq], mean.getZValue(0, i), 1e-9);
            }
        }
        // White's share lies within two points here: whole percents would print one number on most squares
        double[] queen = piece(stats, "wq").winShare(Color.WHITE);
        java.util.Set<String> labels = new java.util.HashSet<>();
        for (org.jfree.chart.annotations.XYAnnotation a : charts.get("win_share_by_wq.png").getXYPlot().getAnnotations())
            labels.add(((org.jfree.chart.annotations.XYTextAnnotation) a).getText());
        long distinct = java.util.Arrays.stream(queen).filter(v -> !Double.isNaN(v)).mapToLong(v -> Math.round(v * 10_000)).distinct().count();
        assertTrue(labels.size() >= Math.min(distinct, 20), labels.size() + " labels for " + distinct + " values: " + labels);
        CategoryDataset bars = charts.get(Charts.HISTOGRAM).getCategoryPlot().getDataset();
        assertEquals(4, bars.getRowCount());
        long[] blackWins = stats.sides().get(Color.BLACK).winHistogram();
        for (int d = 0; d < blackWins.length; d++)
            assertEquals(blackWins[d], bars.getValue("Black to move: Black mates in DTM", Integer.valueOf(d)).longValue(), "Black mates in " + d);
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
        assertEquals(10, stats.sides().get(Color.WHITE).longestWin(), "KQK's longest mate");
        assertEquals(0, stats.sides().get(Color.WHITE).losses() + stats.sides().get(Color.BLACK).wins());
    }
}
