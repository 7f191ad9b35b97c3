package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The rows as another SQL engine reads them: the README's DuckDB queries, run through DuckDB's JDBC driver on KQKR's
 * files, answer as Spark's views do, and every row's {@code squares} are its key's.
 */
class DuckDbRowsTest {
    /** The README's DuckDB queries: the {@code sql} blocks of its DuckDB section, on {@code out/kqkr}. */
    private static List<String> readmeQueries() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("### DuckDB");
        assertTrue(section >= 0, "README.md has no DuckDB section");
        String text = readme.substring(section, readme.indexOf("\n## ", section));
        List<String> queries = new ArrayList<>();
        for (Matcher m = Pattern.compile("```sql\n(.*?)```", Pattern.DOTALL).matcher(text); m.find(); ) queries.add(m.group(1).strip());
        assertEquals(2, queries.size(), text);
        return queries;
    }

    /** The first two columns of each row, as text, keyed by the first. */
    private static TreeMap<String, String> duckDb(Connection c, String query) throws Exception {
        TreeMap<String, String> answer = new TreeMap<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(query)) {
            while (r.next()) answer.put(r.getString(1), r.getString(2));
        }
        return answer;
    }

    private static TreeMap<String, String> spark(SparkSession spark, String query) {
        TreeMap<String, String> answer = new TreeMap<>();
        for (Row r : spark.sql(query).collectAsList()) answer.put(String.valueOf(r.get(0)), String.valueOf(r.get(1)));
        return answer;
    }

    @Test
    void duckDbAnswersTheReadmesQuestionsFromTheFilesAsSparkDoes() throws Exception {
        Path kqkr = GeneratedTables.folder("KQKR");
        SparkSession spark = SparkTestSession.session();
        TableView.register(spark, kqkr.toString());
        List<String> queries = readmeQueries();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            String files = kqkr.resolve(TableExport.PARQUET).toString();
            TreeMap<String, String> depths = duckDb(c, queries.get(0).replace("out/kqkr/parquet", files).replace(";", ""));
            assertEquals(spark(spark, "SELECT dtm, sum(positions) FROM kqkr WHERE stm = 'w' AND result = 'win' GROUP BY dtm"), depths);
            assertEquals(35, depths.keySet().stream().mapToInt(Integer::parseInt).max().orElseThrow(), "KQKR's longest win, 35 moves");
            TreeMap<String, String> mates = duckDb(c, queries.get(1).replace("out/kqkr/parquet", files).replace(";", ""));
            assertEquals(spark(spark, "SELECT bk, sum(positions) FROM kqkr WHERE stm = 'b' AND result = 'loss' AND dtm = 0 GROUP BY bk"), mates);
            assertTrue(mates.size() >= 4, mates.toString());

            // every row's squares are the squares its key names
            PositionIndex index = new PositionIndex(Material.parse("KQKR"));
            int[] squares = new int[4];
            int checked = 0;
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT key, squares FROM '" + files + "/*.parquet' USING SAMPLE 20000 ROWS")) {
                while (r.next()) {
                    assertTrue(index.decode(r.getLong(1), squares));
                    long packed = r.getLong(2);
                    for (int k = 0; k < 4; k++) assertEquals(squares[k], (int) (packed >> 6 * k & 63), "key " + r.getLong(1));
                    checked++;
                }
            }
            assertEquals(20_000, checked);
        }
    }
}
