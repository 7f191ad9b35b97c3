package tablebase.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Piece;
import tablebase.chess.PieceType;
import tablebase.chess.Square;

/**
 * What the whole table looks like, computed with Spark SQL over its Parquet views: positions and results per side
 * to move (rows weighted by the positions they stand for), the DTM histograms, the deepest positions, and the max /
 * mean DTM of White's wins by king square (over every position, not the canonical rows).
 */
public record TableStats(TableView view, Map<Color, Side> sides, List<Deepest> deepest, Squares byBlackKing,
                         Squares byWhiteKing) {

    /**
     * One side to move: its legal positions, its wins and losses, and the histogram of their DTM, index = DTM.
     * "Decided" is what the side that mates gets: White's wins with White to move, Black's losses with Black to move.
     */
    public record Side(Color side, long legal, long wins, long losses, long[] winHistogram, long[] lossHistogram) {
        public long decided() { return side == Color.WHITE ? wins : losses; }

        /** The histogram of the decided positions. */
        public long[] histogram() { return side == Color.WHITE ? winHistogram : lossHistogram; }

        public int maxDtm() { return histogram().length - 1; }

        public double meanDtm() {
            long[] h = histogram();
            long n = 0, weighted = 0;
            for (int d = 0; d < h.length; d++) { n += h[d]; weighted += d * h[d]; }
            return n == 0 ? 0 : (double) weighted / n;
        }

        public long drawn() { return legal - wins - losses; }

        public double decidedShare() { return (double) decided() / legal; }
    }

    /** One of the deepest positions of a side (a canonical row). */
    public record Deepest(Color side, String result, int dtm, String fen, String bestMove) {}

    /**
     * Max and mean DTM of the won White-to-move positions by the square of one king; -1 / NaN where there are
     * none. {@code among} says which positions count ("light-square bishop" when White has a bishop, else "").
     */
    public record Squares(String king, String among, int[] max, double[] mean) {}

    public static final int DEEPEST_PER_SIDE = 10;

    public static TableStats compute(SparkSession spark, TableView view) {
        String t = view.name();
        Material material = view.material();
        List<String> columns = material.columnNames();
        String whiteKing = columns.get(material.kingIndex(Color.WHITE)), blackKing = columns.get(material.kingIndex(Color.BLACK));

        Map<Color, Side> sides = new EnumMap<>(Color.class);
        for (Color c : Color.values()) {
            String stm = "'" + c.fenLetter() + "'";
            long legal = 0;
            Map<String, long[]> histograms = new java.util.HashMap<>();
            for (String result : List.of("win", "loss")) {
                List<Row> bins = spark.sql("SELECT dtm, sum(positions) FROM " + t + " WHERE stm = " + stm + " AND result = '" + result
                        + "' GROUP BY dtm ORDER BY dtm").collectAsList();
                long[] histogram = new long[bins.isEmpty() ? 0 : bins.get(bins.size() - 1).getInt(0) + 1];
                for (Row r : bins) histogram[r.getInt(0)] = r.getLong(1);
                histograms.put(result, histogram);
            }
            Row all = spark.sql("SELECT sum(positions) FROM " + t + " WHERE stm = " + stm).first();
            legal = all.isNullAt(0) ? 0 : all.getLong(0);
            long[] win = histograms.get("win"), loss = histograms.get("loss");
            sides.put(c, new Side(c, legal, Arrays.stream(win).sum(), Arrays.stream(loss).sum(), win, loss));
        }

        List<Deepest> deepest = new ArrayList<>();
        for (Color c : Color.values()) {
            for (Row r : spark.sql("SELECT result, dtm, fen, best_move FROM " + t + " WHERE stm = '" + c.fenLetter()
                    + "' AND result != 'draw' ORDER BY dtm DESC, key LIMIT " + DEEPEST_PER_SIDE).collectAsList())
                deepest.add(new Deepest(c, r.getString(0), r.getInt(1), r.getString(2), r.getString(3)));
        }
        // With a bishop, one bishop colour shows where the mate happens (the corners of the bishop's colour).
        int bishop = material.pieces().indexOf(new Piece(Color.WHITE, PieceType.BISHOP));
        String among = bishop < 0 ? "" : "light-square bishop";
        String where = bishop < 0 ? "" : " AND " + lightSquare(columns.get(bishop));
        String every = view.everyPosition();
        return new TableStats(view, sides, deepest, squares(spark, every, blackKing, "Black king", among, where),
                squares(spark, every, whiteKing, "White king", among, where));
    }

    /** SQL: the square named in {@code column} ('c4') is light, file + rank odd. */
    static String lightSquare(String column) {
        return "(ascii(" + column + ") + cast(substr(" + column + ", 2, 1) AS INT)) % 2 = 1"; // ascii('a') + 1 is even: a1 is dark
    }

    private static Squares squares(SparkSession spark, String table, String column, String king, String among, String where) {
        int[] max = new int[64];
        double[] mean = new double[64];
        Arrays.fill(max, -1);
        Arrays.fill(mean, Double.NaN);
        for (Row r : spark.sql("SELECT " + column + ", max(dtm), avg(dtm) FROM " + table + " WHERE stm = 'w' AND result = 'win'" + where
                        + " GROUP BY " + column).collectAsList()) {
            int sq = Square.parse(r.getString(0));
            max[sq] = r.getInt(1);
            mean[sq] = r.getDouble(2);
        }
        return new Squares(king, among, max, mean);
    }
}
