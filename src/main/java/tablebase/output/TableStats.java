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
import tablebase.generate.LoneKingRules;

/**
 * What the whole table looks like, computed with Spark SQL over its Parquet view: positions and results per
 * side, the DTM histogram, the deepest positions, and the max / mean DTM (White to move) by king square.
 */
public record TableStats(TableView view, Map<Color, Side> sides, List<Deepest> deepest, Squares byBlackKing,
                         Squares byWhiteKing) {

    /**
     * One side to move: its legal positions, how many are decided (won for White to move, lost for Black to
     * move), and the histogram of their DTM, index = DTM.
     */
    public record Side(Color side, long legal, long decided, long[] histogram, double meanDtm) {
        public int maxDtm() { return histogram.length - 1; }

        public long drawn() { return legal - decided; }

        public double decidedShare() { return (double) decided / legal; }
    }

    /** One of the deepest positions of a side. */
    public record Deepest(Color side, int dtm, String fen, String bestMove) {}

    /**
     * Max and mean DTM of the won White-to-move positions by the square of one king; -1 / NaN where there are
     * none. {@code among} says which positions count ("light-square bishop" when White has a bishop, else "").
     */
    public record Squares(String king, String among, int[] max, double[] mean) {}

    public static final int DEEPEST_PER_SIDE = 10;

    public static TableStats compute(SparkSession spark, TableView view) {
        if (view.indexed())
            throw new IllegalArgumentException("stats covers the lone-king tables (KBNK and the like); query the general table "
                    + view.name() + " with jobs/sql");
        String t = view.name();
        Material material = view.material();
        List<String> columns = material.columnNames();
        String whiteKing = columns.get(material.kingIndex(Color.WHITE)), blackKing = columns.get(material.kingIndex(Color.BLACK));

        long[] legal = legalPositions(material);
        Map<Color, Side> sides = new EnumMap<>(Color.class);
        for (Color c : Color.values()) {
            String stm = "'" + c.fenLetter() + "'";
            List<Row> bins = spark.sql("SELECT dtm, count(*) FROM " + t + " WHERE stm = " + stm + " GROUP BY dtm ORDER BY dtm")
                    .collectAsList();
            long[] histogram = new long[bins.isEmpty() ? 1 : bins.get(bins.size() - 1).getInt(0) + 1];
            for (Row r : bins) histogram[r.getInt(0)] = r.getLong(1);
            long decided = Arrays.stream(histogram).sum(), weighted = 0;
            for (int d = 0; d < histogram.length; d++) weighted += d * histogram[d];
            sides.put(c, new Side(c, legal[c.ordinal()], decided, histogram, decided == 0 ? 0 : (double) weighted / decided));
        }

        List<Deepest> deepest = new ArrayList<>();
        for (Color c : Color.values()) {
            for (Row r : spark.sql("SELECT dtm, fen, best_move FROM " + t + " WHERE stm = '" + c.fenLetter()
                    + "' ORDER BY dtm DESC, key LIMIT " + DEEPEST_PER_SIDE).collectAsList())
                deepest.add(new Deepest(c, r.getInt(0), r.getString(1), r.getString(2)));
        }
        // With a bishop, one bishop colour shows where the mate happens (the corners of the bishop's colour).
        int bishop = material.pieces().indexOf(new Piece(Color.WHITE, PieceType.BISHOP));
        String among = bishop < 0 ? "" : "light-square bishop";
        String where = bishop < 0 ? "" : " AND " + lightSquare(columns.get(bishop));
        return new TableStats(view, sides, deepest, squares(spark, t, blackKing, "Black king", among, where),
                squares(spark, t, whiteKing, "White king", among, where));
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
        for (Row r : spark.sql("SELECT " + column + ", max(dtm), avg(dtm) FROM " + table + " WHERE stm = 'w'" + where + " GROUP BY " + column)
                .collectAsList()) {
            int sq = Square.parse(r.getString(0));
            max[sq] = r.getInt(1);
            mean[sq] = r.getDouble(2);
        }
        return new Squares(king, among, max, mean);
    }

    /** Legal positions per side to move (index = Color ordinal), counted from the rules rather than the table. */
    static long[] legalPositions(Material material) {
        LoneKingRules rules = new LoneKingRules(material);
        long[] legal = new long[2];
        for (long placement = 0; placement < rules.placementSpace(); placement++) {
            if (!rules.isValid(placement)) continue;
            legal[Color.WHITE.ordinal()] += Long.bitCount(rules.whiteToMoveLegal(placement));
            legal[Color.BLACK.ordinal()] += Long.bitCount(rules.blackToMoveLegal(placement));
        }
        return legal;
    }
}
