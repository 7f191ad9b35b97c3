package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.output.Charts;
import io.github.tablebase.output.TableStats;
import io.github.tablebase.output.TableView;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.Tablebase;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/** {@code jobs/stats}: a table's statistics with Spark SQL over its Parquet export, and optionally PNG charts. */
public final class Stats {
    static final String USAGE = "usage: stats (--table DIR | --tables DIR) [--plots OUT_DIR] [--master local[*]] [--conf spark.key=value ...]\n"
            + "  --table: one table's statistics in full; --tables: a folder of tables, two lines each (the materials read from a twin's table too)\n"
            + "  and the set's totals (--plots: each table's charts in OUT_DIR/<table>)\n"
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
                TableStats stats = TableView.readingRows(() -> TableStats.compute(spark, TableView.register(spark, args.get("--table", null))));
                print(stats, System.out);
                if (plots != null) for (Path file : Charts.write(stats, Path.of(plots))) System.out.println("wrote " + file);
                return 0;
            }
            String folder = args.get("--tables", null);
            java.util.SortedMap<String, Boolean> tables = TableView.tableFolders(spark, folder);
            boolean anyRows = tables.containsValue(true);
            List<TableView> views = anyRows ? TableView.registerFolder(spark, folder, Stats::warn) : List.of();
            // with charts, each table's statistics in full, its lines from them; else its lines alone
            Map<Material, TableSummary> held = new java.util.HashMap<>();
            List<TableStats> full = new ArrayList<>();
            for (TableView view : views) {
                if (view.coloursSwapped()) continue; // a material read from its twin: summed up from it below
                try {
                    TableStats stats = plots == null ? null : TableView.readingRows(() -> TableStats.compute(spark, view));
                    Map<Color, TableStats.Side> sides = stats != null ? stats.sides() : TableView.readingRows(() -> TableStats.sides(spark, view));
                    held.put(view.material(), new TableSummary(view.material(), sides, TableView.readingRows(() -> TableStats.deepestWins(spark, view, sides))));
                    if (stats != null) full.add(stats);
                } catch (java.io.IOException e) { // its rows damaged: the others are summed up
                    warn(view.name() + " left out: " + e.getMessage());
                }
            }
            List<String> withoutRows = tables.entrySet().stream().filter(t -> !t.getValue()).map(Map.Entry::getKey).toList();
            if (!withoutRows.isEmpty()) held.putAll(fromFiles(folder, withoutRows, plots != null));
            if (held.isEmpty()) throw new java.io.IOException("no table of " + folder + " could be read");
            // each table held, and the materials read from a twin: both names of KQKR
            java.util.SortedSet<Material> materials = new java.util.TreeSet<>(
                    java.util.Comparator.comparingInt(Material::size).thenComparing(Material::name));
            for (Material m : held.keySet()) {
                materials.add(m);
                materials.add(m.coloursSwapped());
            }
            printSummaryHeader(System.out);
            for (Material m : materials) {
                TableSummary own = held.get(m);
                printSummary(own != null ? own : held.get(m.coloursSwapped()).coloursSwapped(), System.out);
            }
            printSetTotals(held.values(), materials.size(), System.out);
            for (TableStats stats : full)
                System.out.printf("wrote %d charts of %s in %s%n", Charts.write(stats, Path.of(plots, stats.view().name())).size(),
                        stats.view().material().name(), Path.of(plots, stats.view().name()));
            return 0;
        });
    }

    private static void warn(String line) { System.err.println("stats: warning: " + line); }

    /**
     * The lines of tables made without their Parquet rows (--no-parquet), by folder: each side's figures from its
     * manifest, a longest win found in its files by the probe ({@link Tablebase#positionOfPly}: a pass over the table;
     * the table's folder must be local). Damaged ones are left out with a warning.
     */
    private static Map<Material, TableSummary> fromFiles(String folder, List<String> tables, boolean plots) throws java.io.IOException {
        Map<Material, TableSummary> held = new java.util.HashMap<>();
        Path root = localPath(folder);
        // a cache as large as half the heap: a table's blocks decoded once for both sides' passes (KRPKQ's stored side: 355 MB)
        long cache = Math.max(io.github.tablebase.probe.BlockCache.defaultBytes(), Runtime.getRuntime().maxMemory() / 2);
        try (Tablebase tablebase = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, cache)) {
            for (Tablebase.Refused r : tablebase.refused()) warn(r.folder().getFileName() + " left out: " + r.reason());
            for (String table : tables) {
                long start = System.nanoTime();
                Manifest manifest = Manifest.read(localPath(table).resolve(Manifest.FILE));
                Material m = manifest.material();
                if (!tablebase.answered().contains(m)) continue; // refused above
                if (plots) warn(m.name() + ": no charts, its table was made without its Parquet rows (--no-parquet)");
                Map<Color, TableStats.Side> sides = new java.util.EnumMap<>(Color.class);
                Map<Color, String> fens = new java.util.EnumMap<>(Color.class);
                for (Color c : Color.values()) {
                    Manifest.SideFigures f = manifest.sides().get(c.ordinal());
                    Manifest.Counts n = f.positions();
                    sides.put(c, new TableStats.Side(c, n.win() + n.loss() + n.draw(), n.win(), n.loss(), histogram(f.winIn()), histogram(f.lossIn())));
                    if (f.longestWin() > 0)
                        tablebase.positionOfPly(m, c, 2 * f.longestWin() - 1).ifPresent(p -> fens.put(c, Fen.of(p)));
                }
                held.put(m, new TableSummary(m, sides, fens));
                // a pass over each table: a set takes minutes, so each one says when it is done
                System.err.printf("stats: %s (%d of %d) read from its files in %.1f s%n", m.name(), held.size(), tables.size(), (System.nanoTime() - start) / 1e9);
            }
        }
        return held;
    }

    /** The local folder of a path Spark names ({@code file:/...} or a plain path). */
    private static Path localPath(String folder) throws java.io.IOException {
        java.net.URI uri = new org.apache.hadoop.fs.Path(folder).toUri();
        if (uri.getScheme() != null && !uri.getScheme().equals("file"))
            throw new java.io.IOException(folder + ": tables made without their Parquet rows are read from a local folder only");
        return Path.of(uri.getPath());
    }

    /** Positions by moves to mate, index = moves, as the manifest lists them. */
    private static long[] histogram(java.util.SortedMap<Integer, Long> byMoves) {
        long[] h = new long[byMoves.isEmpty() ? 0 : byMoves.lastKey() + 1];
        byMoves.forEach((moves, n) -> h[moves] = n);
        return h;
    }

    /** A table's lines: per side to move its results, its longest win and a position of it. */
    record TableSummary(Material material, Map<Color, TableStats.Side> sides, Map<Color, String> deepestWins) {
        /** The summary of the material with the colours swapped: each side's figures become the other's, each position seen from the other side. */
        TableSummary coloursSwapped() {
            Map<Color, TableStats.Side> swapped = new java.util.EnumMap<>(Color.class);
            Map<Color, String> fens = new java.util.EnumMap<>(Color.class);
            for (Color c : Color.values()) {
                swapped.put(c.opponent(), sides.get(c).coloursSwapped());
                if (deepestWins.containsKey(c)) fens.put(c.opponent(), Fen.of(Fen.parse(deepestWins.get(c)).coloursSwapped()));
            }
            return new TableSummary(material.coloursSwapped(), swapped, fens);
        }
    }

    private static final String SUMMARY = "%-8s %-6s %,17d %,17d %,17d %,17d %7s %7s  %s%n";

    private static void printSummaryHeader(PrintStream out) {
        out.printf("%-8s %-6s %17s %17s %17s %17s %7s %7s  %s%n", "table", "to", "legal", "won", "lost", "drawn", "longest", "mean", "a longest win");
        out.printf("%-8s %-6s %17s %17s %17s %17s %7s %7s  %s%n", "", "move", "positions", "", "", "", "win", "win", "(FEN)");
    }

    /** One table in two lines, one per side to move: positions won, lost and drawn, the longest and mean win in moves, a longest win. */
    static void printSummary(TableSummary t, PrintStream out) {
        for (TableStats.Side s : t.sides().values())
            out.printf(SUMMARY, t.material().name(), s.side() == Color.WHITE ? "White" : "Black", s.legal(), s.wins(), s.losses(), s.drawn(),
                    moves(s.longestWin()), mean(s.meanWinDtm()), t.deepestWins().getOrDefault(s.side(), "-"));
    }

    /** The set's totals over its tables (each material once), per side to move, and its longest win. */
    private static void printSetTotals(java.util.Collection<TableSummary> tables, int materials, PrintStream out) {
        out.printf("%nthe set: %d tables answering %d materials%n", tables.size(), materials);
        for (Color c : Color.values()) {
            long legal = 0, won = 0, lost = 0, winDtm = 0;
            TableSummary longest = null;
            for (TableSummary t : tables) {
                TableStats.Side s = t.sides().get(c);
                legal += s.legal();
                won += s.wins();
                lost += s.losses();
                for (int d = 0; d < s.winHistogram().length; d++) winDtm += d * s.winHistogram()[d];
                if (longest == null || s.longestWin() > longest.sides().get(c).longestWin()) longest = t;
            }
            out.printf(SUMMARY, "all", c == Color.WHITE ? "White" : "Black", legal, won, lost, legal - won - lost,
                    longest == null ? "-" : moves(longest.sides().get(c).longestWin()), mean(won == 0 ? Double.NaN : (double) winDtm / won),
                    longest == null || !longest.deepestWins().containsKey(c) ? "-" : longest.material().name() + " " + longest.deepestWins().get(c));
        }
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
        if (!s.rule50().isEmpty()) {
            out.printf("%nUnder the 50-move rule (positions; DTZ in plies to a capture, pawn move or mate)%n");
            for (TableStats.Rule50 side : s.rule50().values()) out.println(side.line());
        }

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
