package io.github.tablebase.output;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Piece;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Square;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What the whole table looks like, computed with Spark SQL over its Parquet views: positions and results per side
 * to move (rows weighted by the positions they stand for), the DTM histograms of wins and losses, the deepest
 * positions, and for every piece what its square does to the result, either side to move (over every position, not
 * the canonical rows).
 */
public record TableStats(TableView view, Map<Color, Side> sides, Map<Color, Rule50> rule50, List<Deepest> deepest, List<PieceSquares> byPiece) {
    /**
     * One side to move under the 50-move rule, in positions (for a table made with DTZ): its wins, cursed wins, draws,
     * blessed losses and losses ({@code byWdl[wdl + 2]}), and its longest DTZ in plies.
     */
    public record Rule50(Color side, long[] byWdl, int longestDtz) {
        /** "White to move: 26,156,061 wins, 133,575 cursed wins, ...; longest DTZ 153 plies". */
        public String line() {
            return String.format("%s to move: %s; longest DTZ %d plies", side == Color.WHITE ? "White" : "Black",
                    io.github.tablebase.table.DtzCount.fiveResults(byWdl), longestDtz);
        }
    }


    /** One side to move: its legal positions, its wins and losses, and their histograms by DTM, index = DTM. */
    public record Side(Color side, long legal, long wins, long losses, long[] winHistogram, long[] lossHistogram) {
        /** The longest win of the side to move in moves, -1 when it never wins. */
        public int longestWin() { return winHistogram.length - 1; }

        /** The longest loss of the side to move in moves, -1 when it never loses. */
        public int longestLoss() { return lossHistogram.length - 1; }

        public double meanWinDtm() { return mean(winHistogram); }

        public double meanLossDtm() { return mean(lossHistogram); }

        private static double mean(long[] h) {
            long n = 0, weighted = 0;
            for (int d = 0; d < h.length; d++) { n += h[d]; weighted += d * h[d]; }
            return n == 0 ? Double.NaN : (double) weighted / n;
        }

        public long drawn() { return legal - wins - losses; }

        /** The same figures for the other side to move of the material with the colours swapped (KKQ's Black from KQK's White). */
        public Side coloursSwapped() { return new Side(side.opponent(), legal, wins, losses, winHistogram, lossHistogram); }

        /** A count as a share of the legal positions. */
        public double share(long n) { return (double) n / legal; }

        /** "White to move: 99.1% won, 0.0% lost, 0.9% drawn". */
        public String shares() {
            return String.format("%s to move: %.1f%% won, %.1f%% lost, %.1f%% drawn", side == Color.WHITE ? "White" : "Black", 100 * share(wins),
                    100 * share(losses), 100 * share(drawn()));
        }
    }

    /** One of the deepest positions of a side (a canonical row). */
    public record Deepest(Color side, String result, int dtm, String fen, String bestMove) {}

    /**
     * What one piece's square does to the result, for each side to move ({@code [side.ordinal()][square]}): the share
     * of positions the side to move wins and the mean DTM of those wins, by square; NaN where the piece never stands
     * or the side never wins. {@code among} says which positions count ("light-square bishop" when White has a
     * bishop, else "").
     */
    public record PieceSquares(String piece, String column, String among, double[][] winShare, double[][] meanWinDtm) {
        public double[] winShare(Color toMove) { return winShare[toMove.ordinal()]; }

        public double[] meanWinDtm(Color toMove) { return meanWinDtm[toMove.ordinal()]; }

        /** Whether the side to move wins anywhere: a board of its wins says something. */
        public boolean wins(Color toMove) {
            return java.util.Arrays.stream(winShare(toMove)).anyMatch(v -> v > 0);
        }
    }

    public static final int DEEPEST_PER_SIDE = 10;

    public static TableStats compute(SparkSession spark, TableView view) {
        String t = view.name();
        Material material = view.material();
        Map<Color, Side> sides = sides(spark, view);
        List<Deepest> deepest = new ArrayList<>();
        for (Color c : Color.values()) {
            for (Row r : spark.sql("SELECT result, dtm, fen, best_move FROM " + t + " WHERE stm = '" + c.fenLetter()
                    + "' AND result != 'draw' ORDER BY dtm DESC, key LIMIT " + DEEPEST_PER_SIDE).collectAsList())
                deepest.add(new Deepest(c, r.getString(0), r.getInt(1), r.getString(2), r.getString(3)));
        }
        // With a bishop, one bishop colour shows where the mate happens (the corners of the bishop's colour).
        int bishop = material.pieces().indexOf(new Piece(Color.WHITE, PieceType.BISHOP));
        return new TableStats(view, sides, rule50(spark, view), deepest, byPiece(spark, view, bishop));
    }

    /** Each side to move's results under the 50-move rule, in one pass over the rows; empty for a table made without DTZ. */
    public static Map<Color, Rule50> rule50(SparkSession spark, TableView view) {
        Map<Color, Rule50> sides = new EnumMap<>(Color.class);
        for (Row r : spark.sql("SELECT stm, wdl, sum(positions), max(abs(dtz)) FROM " + view.name() + " WHERE wdl IS NOT NULL GROUP BY stm, wdl")
                .collectAsList()) {
            Color c = r.getString(0).equals("w") ? Color.WHITE : Color.BLACK;
            Rule50 side = sides.computeIfAbsent(c, x -> new Rule50(x, new long[5], 0));
            side.byWdl()[r.getInt(1) + 2] = r.getLong(2);
            sides.put(c, new Rule50(c, side.byWdl(), Math.max(side.longestDtz(), r.getInt(3))));
        }
        return sides;
    }

    /** Each side to move's positions, results and DTM histograms, in one pass over the rows. */
    public static Map<Color, Side> sides(SparkSession spark, TableView view) {
        String t = view.name();
        // one pass over the rows: positions per side to move, result and DTM (a draw's DTM is null)
        List<Row> groups = spark.sql("SELECT stm, result, dtm, sum(positions) FROM " + t + " GROUP BY stm, result, dtm").collectAsList();
        Map<Color, Side> sides = new EnumMap<>(Color.class);
        for (Color c : Color.values()) {
            String stm = String.valueOf(c.fenLetter());
            long legal = 0;
            long[][] byResult = new long[2][]; // win, loss
            for (int r = 0; r < 2; r++) {
                String result = r == 0 ? "win" : "loss";
                int max = groups.stream().filter(g -> g.getString(0).equals(stm) && g.getString(1).equals(result))
                        .mapToInt(g -> g.getInt(2)).max().orElse(-1);
                byResult[r] = new long[max + 1];
            }
            for (Row g : groups) {
                if (!g.getString(0).equals(stm)) continue;
                legal += g.getLong(3);
                if (!g.getString(1).equals("draw")) byResult[g.getString(1).equals("win") ? 0 : 1][g.getInt(2)] = g.getLong(3);
            }
            sides.put(c, new Side(c, legal, Arrays.stream(byResult[0]).sum(), Arrays.stream(byResult[1]).sum(), byResult[0], byResult[1]));
        }
        return sides;
    }

    /**
     * A deepest win of each side to move that wins somewhere, as a FEN ({@code sides} gives the longest): the one of
     * the smallest key, so that a table gives the same position every time.
     */
    public static Map<Color, String> deepestWins(SparkSession spark, TableView view, Map<Color, Side> sides) {
        Map<Color, String> fens = new EnumMap<>(Color.class);
        if (sides.values().stream().allMatch(s -> s.longestWin() < 0)) return fens;
        for (Row r : spark.sql("SELECT stm, min_by(fen, key) FROM " + view.name() + " WHERE result = 'win' AND dtm = CASE stm WHEN 'w' THEN "
                + sides.get(Color.WHITE).longestWin() + " ELSE " + sides.get(Color.BLACK).longestWin() + " END GROUP BY stm").collectAsList())
            fens.put(r.getString(0).equals("w") ? Color.WHITE : Color.BLACK, r.getString(1));
        return fens;
    }

    /**
     * Every piece's board over every position (among those whose White bishop {@code bishop} stands on a light square,
     * unless it is -1): one pass over the table's rows, each piece's square stacked into rows and grouped with the
     * row's images ({@link TableView#imageSymmetries}, as the view of every position lists them), then each group
     * spread over its images' squares here, a few thousand groups: eight times fewer rows than a pass over every
     * position.
     */
    private static List<PieceSquares> byPiece(SparkSession spark, TableView view, int bishop) {
        Material material = view.material();
        List<String> columns = material.columnNames();
        StringBuilder stack = new StringBuilder("stack(" + columns.size());
        for (String c : columns) stack.append(", '").append(c).append("', ").append(c);
        stack.append(")");
        // per piece, side to move, square, the bishop's square and the row's images: positions, wins, their DTM summed
        long[][][][] sums = new long[columns.size()][2][64][3];
        String query = "SELECT piece, stm, sq, " + (bishop < 0 ? "''" : columns.get(bishop)) + " AS bishop, " + TableView.imageSymmetries(material)
                + " AS symmetries, count(*), count_if(result = 'win'), sum(IF(result = 'win', dtm, 0)) FROM " + view.name() + " LATERAL VIEW "
                + stack + " s AS piece, sq GROUP BY piece, stm, sq, bishop, symmetries";
        for (Row r : spark.sql(query).collectAsList()) {
            int piece = columns.indexOf(r.getString(0)), side = r.getString(1).equals("w") ? 0 : 1, sq = Square.parse(r.getString(2));
            int bishopSquare = bishop < 0 ? -1 : Square.parse(r.getString(3));
            for (int symmetry : r.<Integer>getList(4)) {
                if (bishopSquare >= 0 && !Square.isLight(Square.transform(bishopSquare, symmetry))) continue;
                long[] at = sums[piece][side][Square.transform(sq, symmetry)];
                at[0] += r.getLong(5);
                at[1] += r.getLong(6);
                at[2] += r.getLong(7);
            }
        }
        List<PieceSquares> pieces = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Piece p = material.piece(i);
            String column = columns.get(i), number = column.replaceAll("\\D", ""); // "wq2": the second White queen
            String name = (p.color() == Color.WHITE ? "White " : "Black ") + p.type().name().toLowerCase() + (number.isEmpty() ? "" : " " + number);
            double[][] share = new double[2][64], mean = new double[2][64];
            for (int side = 0; side < 2; side++)
                for (int sq = 0; sq < 64; sq++) {
                    long[] at = sums[i][side][sq];
                    share[side][sq] = at[0] == 0 ? Double.NaN : (double) at[1] / at[0];
                    mean[side][sq] = at[1] == 0 ? Double.NaN : (double) at[2] / at[1];
                }
            pieces.add(new PieceSquares(name, column, bishop < 0 ? "" : "light-square bishop", share, mean));
        }
        return pieces;
    }
}
