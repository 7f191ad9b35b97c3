package tablebase.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import tablebase.chess.Color;
import tablebase.output.Charts;
import tablebase.output.TableStats;
import tablebase.output.TableView;

/** {@code jobs/stats}: a table's statistics with Spark SQL over its Parquet export, and optionally PNG charts. */
public final class Stats {
    static final String USAGE = "usage: stats (--table DIR | --tables DIR) [--plots OUT_DIR] [--master local[*]] [--conf spark.key=value ...]\n"
            + "  --table: one table's statistics in full; --tables: a folder of tables, one line each (--plots: each table's charts in OUT_DIR/<table>)\n"
            + "example: jobs/stats --table out/kqkr --plots out/kqkr-charts";

    private Stats() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("stats", USAGE, () -> stats(argv)));
    }

    static int stats(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--table", "--tables", "--plots", "--master", "--conf"), Set.of());
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        if (args.has("--table") == args.has("--tables")) throw new Args.UsageException("give --table DIR or --tables DIR");
        String plots = args.get("--plots", null);
        return SparkOptions.withSession(args, "tablebase-stats", spark -> {
            if (args.has("--table")) {
                TableStats stats = TableStats.compute(spark, TableView.register(spark, args.get("--table", null)));
                print(stats, System.out);
                if (plots != null) for (Path file : Charts.write(stats, Path.of(plots))) System.out.println("wrote " + file);
                return 0;
            }
            List<TableView> views = new ArrayList<>(TableView.registerFolder(spark, args.get("--tables", null)));
            views.sort(java.util.Comparator.comparingInt((TableView v) -> v.material().size()).thenComparing(TableView::name));
            // with charts, each table's statistics in full, its line from them; else its line alone
            List<TableStats> full = new ArrayList<>();
            if (plots != null) for (TableView view : views) full.add(TableStats.compute(spark, view));
            printSummaryHeader(System.out);
            for (int k = 0; k < views.size(); k++)
                printSummary(views.get(k), plots != null ? full.get(k).sides() : TableStats.sides(spark, views.get(k)), System.out);
            for (TableStats stats : full)
                System.out.printf("wrote %d charts of %s in %s%n", Charts.write(stats, Path.of(plots, stats.view().name())).size(),
                        stats.view().material().name(), Path.of(plots, stats.view().name()));
            return 0;
        });
    }

    private static void printSummaryHeader(PrintStream out) {
        out.printf("%-8s %16s   %-38s   %-38s%n", "", "", "White to move", "Black to move");
        out.printf("%-8s %16s   %6s %6s %6s %6s %9s   %6s %6s %6s %6s %9s%n", "table", "legal positions", "won", "lost", "drawn", "longest", "mean", "won",
                "lost", "drawn", "longest", "mean");
        out.printf("%-8s %16s   %6s %6s %6s %6s %9s   %6s %6s %6s %6s %9s%n", "", "", "%", "%", "%", "win", "win DTM", "%", "%", "%", "win", "win DTM");
    }

    /** One table in one line: per side to move its shares of results and its longest and mean win in moves. */
    static void printSummary(TableView view, Map<Color, TableStats.Side> sides, PrintStream out) {
        StringBuilder line = new StringBuilder(String.format("%-8s %,16d", view.material().name(),
                sides.values().stream().mapToLong(TableStats.Side::legal).sum()));
        for (TableStats.Side s : sides.values())
            line.append(String.format("   %6.1f %6.1f %6.1f %6s %9s", 100 * s.share(s.wins()), 100 * s.share(s.losses()), 100 * s.share(s.drawn()),
                    moves(s.longestWin()), mean(s.meanWinDtm())));
        out.println(line);
    }

    static void print(TableStats s, PrintStream out) {
        out.printf("%s table in %s (Spark SQL view '%s')%n%n", s.view().material().name(), s.view().folder(), s.view().name());
        out.printf("%-14s %16s %16s %16s %16s %8s %8s %8s %8s%n", "side to move", "legal positions", "wins", "losses", "drawn",
                "longest", "mean", "longest", "mean");
        out.printf("%-14s %16s %16s %16s %16s %8s %8s %8s %8s%n", "", "", "", "", "", "win", "win", "loss", "loss");
        for (TableStats.Side side : s.sides().values())
            out.printf("%-14s %,16d %,16d %,16d %,16d %8s %8s %8s %8s%n", side.side() == Color.WHITE ? "White" : "Black", side.legal(), side.wins(),
                    side.losses(), side.drawn(), moves(side.longestWin()), mean(side.meanWinDtm()), moves(side.longestLoss()), mean(side.meanLossDtm()));
        for (TableStats.Side side : s.sides().values()) out.println(side.shares());
        out.printf("(wins and losses of the side to move; DTM in moves of the side that mates)%n");

        out.printf("%nDTM histograms: positions by moves to mate, per side to move and result%n%5s %14s %14s %14s %14s%n",
                "DTM", "White wins", "White loses", "Black wins", "Black loses");
        List<long[]> columns = new ArrayList<>();
        for (TableStats.Side side : s.sides().values()) { columns.add(side.winHistogram()); columns.add(side.lossHistogram()); }
        int rows = columns.stream().mapToInt(h -> h.length).max().orElse(0);
        long peak = Math.max(1, columns.stream().flatMapToLong(Arrays::stream).max().orElse(0));
        for (int d = 0; d < rows; d++) {
            StringBuilder row = new StringBuilder(String.format("%5d", d));
            long most = 0;
            for (long[] h : columns) {
                long n = d < h.length ? h[d] : 0;
                row.append(String.format(" %,14d", n));
                most = Math.max(most, n);
            }
            out.println(row.append("  ").append("#".repeat((int) Math.round(30.0 * most / peak))));
        }

        out.printf("%nDeepest positions%n");
        for (TableStats.Deepest d : s.deepest())
            out.printf("  %s to move, %-4s DTM %2d  %-40s best %s%n", d.side() == Color.WHITE ? "White" : "Black", d.result(), d.dtm(), d.fen(),
                    d.bestMove() == null ? "-" : d.bestMove());

        for (Color side : Color.values())
            for (TableStats.PieceSquares p : s.byPiece()) {
                if (side == Color.BLACK && !p.wins(side)) continue; // Black's boards only where Black wins
                String among = p.among().isEmpty() ? "" : ", " + p.among(), who = side == Color.WHITE ? "White" : "Black";
                double[] percent = Arrays.stream(p.winShare(side)).map(v -> 100 * v).toArray(), mean = p.meanWinDtm(side);
                java.text.DecimalFormat labels = Charts.labels(percent, 0);
                board(out, who + "'s wins, % of positions with " + who + " to move" + among + ", by " + p.piece() + " square",
                        sq -> Double.isNaN(percent[sq]) ? "." : labels.format(percent[sq]));
                board(out, "Mean DTM of " + who + "'s wins" + among + " by " + p.piece() + " square",
                        sq -> Double.isNaN(mean[sq]) ? "." : String.format("%.1f", mean[sq]));
            }
    }

    private static String moves(int longest) { return longest < 0 ? "-" : Integer.toString(longest); }

    private static String mean(double dtm) { return Double.isNaN(dtm) ? "-" : String.format("%.2f", dtm); }

    private static void board(PrintStream out, String title, IntFunction<String> cell) {
        out.printf("%n%s%n", title);
        for (int rank = 7; rank >= 0; rank--) {
            StringBuilder row = new StringBuilder().append("  ").append(rank + 1).append(' ');
            for (int file = 0; file < 8; file++) row.append(String.format("%6s", cell.apply(file + 8 * rank)));
            out.println(row);
        }
        out.println("         a     b     c     d     e     f     g     h");
    }
}
