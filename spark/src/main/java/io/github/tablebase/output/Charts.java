package io.github.tablebase.output;

import io.github.tablebase.chess.Square;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.PaintScale;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.DefaultXYZDataset;

/** PNG charts of a table's statistics, drawn with JFreeChart: the DTM histogram and 8x8 board heatmaps. */
public final class Charts {
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 20);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    private static final Font CELL = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    /** The histogram's series, White to move then Black, wins then losses, and their bar colours. */
    private static final List<String> SERIES = List.of("White to move: White mates in DTM", "White to move: White is mated in DTM",
            "Black to move: Black mates in DTM", "Black to move: Black is mated in DTM");
    private static final Color[] SERIES_COLORS = {new Color(0x3B7DD8), new Color(0xE08A2E), new Color(0x9A9A9A), new Color(0x2B2B2B)};

    private Charts() {}

    /** Writes every chart into {@code folder} (created when missing) and returns the files written. */
    public static List<Path> write(TableStats stats, Path folder) throws IOException {
        Files.createDirectories(folder);
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, JFreeChart> chart : charts(stats).entrySet()) {
            boolean histogram = chart.getKey().equals(HISTOGRAM);
            files.add(save(chart.getValue(), folder.resolve(chart.getKey()), histogram ? 1200 : 720, histogram ? 650 : 760));
        }
        return files;
    }

    static final String HISTOGRAM = "dtm_histogram.png";

    /**
     * Every chart by file name: the DTM histogram, then for each piece its boards of the wins' share and mean DTM, for
     * White to move ({@code win_share_by_wq.png}) and, when Black wins anywhere, for Black to move
     * ({@code black_win_share_by_wq.png}).
     */
    static Map<String, JFreeChart> charts(TableStats stats) {
        System.setProperty("java.awt.headless", "true");
        String endgame = stats.view().material().name();
        Map<String, JFreeChart> charts = new LinkedHashMap<>();
        charts.put(HISTOGRAM, histogram(stats, endgame));
        for (io.github.tablebase.chess.Color side : io.github.tablebase.chess.Color.values())
            for (TableStats.PieceSquares p : stats.byPiece()) {
                if (side == io.github.tablebase.chess.Color.BLACK && !p.wins(side)) continue;
                String among = p.among().isEmpty() ? "" : ", " + p.among(), who = side == io.github.tablebase.chess.Color.WHITE ? "White" : "Black";
                String prefix = side == io.github.tablebase.chess.Color.WHITE ? "" : "black_";
                double[] percent = new double[64];
                for (int sq = 0; sq < 64; sq++) percent[sq] = 100 * p.winShare(side)[sq];
                charts.put(prefix + "win_share_by_" + p.column() + ".png", board(endgame + ": " + who + "'s wins by " + p.piece() + " square",
                        "% of positions " + who + " wins, " + who + " to move" + among, percent, 0));
                charts.put(prefix + "mean_dtm_by_" + p.column() + ".png", board(endgame + ": " + who + "'s mate distance by " + p.piece() + " square",
                        "mean DTM of " + who + "'s wins, " + who + " to move" + among, p.meanWinDtm(side), 1));
            }
        return charts;
    }

    private static JFreeChart histogram(TableStats stats, String endgame) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        TableStats.Side white = stats.sides().get(io.github.tablebase.chess.Color.WHITE), black = stats.sides().get(io.github.tablebase.chess.Color.BLACK);
        long[][] series = {white.winHistogram(), white.lossHistogram(), black.winHistogram(), black.lossHistogram()};
        int max = Arrays.stream(series).mapToInt(h -> h.length - 1).max().orElse(0);
        for (int k = 0; k < series.length; k++) {
            if (series[k].length == 0) continue; // a result that never happens gets no bars and no legend entry
            for (int d = 0; d <= max; d++) data.addValue(d < series[k].length ? series[k][d] : 0, SERIES.get(k), Integer.valueOf(d));
        }
        JFreeChart chart = new JFreeChart(endgame + ": positions by distance to mate", TITLE,
                new CategoryPlot(data, new CategoryAxis("DTM (moves of the side that mates)"), new NumberAxis("positions"),
                        new BarRenderer()), true);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setOrientation(PlotOrientation.VERTICAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xCCCCCC));
        plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.STANDARD);
        plot.getDomainAxis().setCategoryMargin(0.15);
        plot.getDomainAxis().setLabelFont(LABEL);
        NumberAxis range = (NumberAxis) plot.getRangeAxis();
        range.setNumberFormatOverride(new DecimalFormat("#,##0"));
        range.setLabelFont(LABEL);
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setItemMargin(0.0);
        for (int k = 0; k < data.getRowCount(); k++)
            bars.setSeriesPaint(k, SERIES_COLORS[SERIES.indexOf(data.getRowKey(k).toString())]);
        chart.addSubtitle(new TextTitle(white.shares() + ";   " + black.shares(), LABEL));
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /**
     * An 8x8 board, White at the bottom, each square coloured by its value and labelled with it; NaN squares stay
     * grey. Labels get at least {@code decimals} decimals, more when the values lie close together (KQKR's win share
     * runs from 97.9 to 99.3 %): no two colours share one label, and the colour bar gets several ticks.
     */
    private static JFreeChart board(String title, String legend, double[] values, int decimals) {
        DefaultXYZDataset data = new DefaultXYZDataset();
        double[][] cells = new double[3][64];
        double lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
        for (int sq = 0; sq < 64; sq++) {
            cells[0][sq] = Square.file(sq);
            cells[1][sq] = Square.rank(sq);
            cells[2][sq] = values[sq];
            if (!Double.isNaN(values[sq])) { lo = Math.min(lo, values[sq]); hi = Math.max(hi, values[sq]); }
        }
        if (lo > hi) { lo = 0; hi = 1; }
        DecimalFormat format = labels(values, decimals);
        data.addSeries(legend, cells);
        Gradient scale = new Gradient(lo, hi == lo ? lo + 1 : hi);

        SymbolAxis files = new SymbolAxis(null, new String[] {"a", "b", "c", "d", "e", "f", "g", "h"});
        SymbolAxis ranks = new SymbolAxis(null, new String[] {"1", "2", "3", "4", "5", "6", "7", "8"});
        for (SymbolAxis axis : List.of(files, ranks)) {
            axis.setRange(-0.5, 7.5);
            axis.setGridBandsVisible(false);
            axis.setTickLabelFont(LABEL);
        }
        XYBlockRenderer renderer = new XYBlockRenderer();
        renderer.setPaintScale(scale);
        XYPlot plot = new XYPlot(data, files, ranks, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinesVisible(false);
        plot.setOutlineStroke(new BasicStroke(2f));
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        for (int sq = 0; sq < 64; sq++) {
            if (Double.isNaN(values[sq])) continue;
            XYTextAnnotation label = new XYTextAnnotation(format.format(values[sq]), Square.file(sq), Square.rank(sq));
            label.setFont(CELL);
            label.setPaint(scale.brightness(values[sq]) > 0.55 ? Color.BLACK : Color.WHITE);
            plot.addAnnotation(label);
        }

        JFreeChart chart = new JFreeChart(title, TITLE, plot, false);
        NumberAxis legendAxis = new NumberAxis(legend);
        legendAxis.setLabelFont(LABEL);
        legendAxis.setRange(scale.getLowerBound(), scale.getUpperBound());
        if (format.getMaximumFractionDigits() == 0) legendAxis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        PaintScaleLegend bar = new PaintScaleLegend(scale, legendAxis);
        bar.setPosition(RectangleEdge.BOTTOM);
        bar.setMargin(new RectangleInsets(8, 60, 8, 60));
        bar.setStripWidth(14);
        chart.addSubtitle(bar);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /**
     * A format for a board's labels: {@code decimals} decimals, or more where the values (NaN left out) span less
     * than 20, or 2.
     */
    public static DecimalFormat labels(double[] values, int decimals) {
        double lo = Arrays.stream(values).filter(v -> !Double.isNaN(v)).min().orElse(0);
        double hi = Arrays.stream(values).filter(v -> !Double.isNaN(v)).max().orElse(0);
        int needed = hi - lo >= 20 ? 0 : hi - lo >= 2 ? 1 : 2;
        int d = Math.max(decimals, needed);
        return new DecimalFormat(d == 0 ? "0" : "0." + "0".repeat(d));
    }

    private static Path save(JFreeChart chart, Path file, int width, int height) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
        return file;
    }

    /** A perceptually even colour ramp (dark violet, blue, teal, green, yellow) over [lower, upper]; NaN is grey. */
    private static final class Gradient implements PaintScale {
        private static final int[] STOPS = {0x440154, 0x3B528B, 0x21918C, 0x5EC962, 0xFDE725};
        private final double lower, upper;

        Gradient(double lower, double upper) { this.lower = lower; this.upper = upper; }

        @Override public double getLowerBound() { return lower; }

        @Override public double getUpperBound() { return upper; }

        @Override public Paint getPaint(double value) { return color(value); }

        double brightness(double value) {
            Color c = color(value);
            return (0.299 * c.getRed() + 0.587 * c.getGreen() + 0.114 * c.getBlue()) / 255;
        }

        private Color color(double value) {
            if (Double.isNaN(value)) return new Color(0xDDDDDD);
            double t = Math.max(0, Math.min(1, (value - lower) / (upper - lower))) * (STOPS.length - 1);
            int i = Math.min((int) t, STOPS.length - 2);
            double f = t - i;
            Color a = new Color(STOPS[i]), b = new Color(STOPS[i + 1]);
            return new Color((int) Math.round(a.getRed() + f * (b.getRed() - a.getRed())),
                    (int) Math.round(a.getGreen() + f * (b.getGreen() - a.getGreen())),
                    (int) Math.round(a.getBlue() + f * (b.getBlue() - a.getBlue())));
        }
    }
}
