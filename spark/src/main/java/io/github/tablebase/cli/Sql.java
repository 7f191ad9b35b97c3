package io.github.tablebase.cli;

import io.github.tablebase.output.TableView;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code jobs/sql}: runs Spark SQL, a query or a file of statements, with a table (or every table of a folder)
 * registered as views named after its endgame ({@code kbnk}, {@code kbnk_positions}).
 */
public final class Sql {
    static final String USAGE = "usage: sql (--table DIR | --tables DIR) [--csv | --json] [--master local[*]] [--conf spark.key=value ...]"
            + " (\"SELECT ...\" | --file FILE.sql)\n"
            + "  --table: one table's folder; --tables: a folder of table folders, each a view named after its endgame;\n"
            + "  --file: a file of statements ending in ';', with -- comments, each result printed in turn\n"
            + "example: jobs/sql --table out/kbnk \"SELECT dtm, sum(positions) FROM kbnk WHERE result = 'win' GROUP BY dtm ORDER BY dtm\"";
    /** Rows an aligned table shows; --csv and --json stream every row. */
    static final int ALIGNED_ROWS = 1000;

    private Sql() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("sql", USAGE, () -> sql(argv)));
    }

    static int sql(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--table", "--tables", "--file", "--master", "--conf"), Set.of("--csv", "--json"));
        if (args.has("--csv") && args.has("--json")) throw new Args.UsageException("--csv and --json exclude each other");
        if (args.has("--table") == args.has("--tables")) throw new Args.UsageException("give --table DIR or --tables DIR");
        List<String> statements;
        if (args.has("--file")) {
            if (!args.positional().isEmpty()) throw new Args.UsageException("give a query or --file, not both");
            Path file = Path.of(args.get("--file", null));
            if (!Files.isRegularFile(file)) throw new NoSuchFileException(file + ": no such file");
            statements = SqlScript.statements(Files.readString(file));
            if (statements.isEmpty()) throw new IllegalArgumentException(file + " holds no statement");
        } else {
            if (args.positional().size() != 1) throw new Args.UsageException("give one query, quoted, or --file FILE.sql");
            statements = List.of(args.positional().get(0));
        }
        return SparkOptions.withSession(args, "tablebase-sql", spark -> {
            if (args.has("--table")) TableView.register(spark, args.get("--table", null)).registerColoursSwapped(spark);
            else TableView.registerFolder(spark, args.get("--tables", null), leftOut -> System.err.println("sql: warning: " + leftOut));
            for (int k = 0; k < statements.size(); k++) {
                if (k > 0 && !args.has("--json") && !args.has("--csv")) System.out.println();
                Dataset<Row> result = query(spark, statements.get(k));
                TableView.readingRows(() -> { // a Parquet file damaged inside: one line naming it
                    if (args.has("--json")) json(result, System.out);
                    else if (args.has("--csv")) csv(result, System.out);
                    else aligned(result, System.out);
                    return null;
                });
            }
            return 0;
        });
    }

    /** The query's result; a query Spark cannot parse or resolve is an IllegalArgumentException with Spark's first line. */
    static Dataset<Row> query(SparkSession spark, String query) {
        try {
            return spark.sql(query);
        } catch (Exception e) { // Scala declares no exceptions: AnalysisException, a checked one, arrives unannounced
            if (e instanceof AnalysisException) throw new IllegalArgumentException("bad query: " + e.getMessage().strip());
            throw e;
        }
    }

    static void json(Dataset<Row> result, PrintStream out) {
        for (Iterator<String> lines = result.toJSON().toLocalIterator(); lines.hasNext(); ) out.println(lines.next());
    }

    static void csv(Dataset<Row> result, PrintStream out) {
        out.println(String.join(",", List.of(result.columns()).stream().map(Sql::csvField).toList()));
        for (Iterator<Row> rows = result.toLocalIterator(); rows.hasNext(); ) {
            Row r = rows.next();
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) fields.add(r.isNullAt(i) ? "" : csvField(String.valueOf(r.get(i))));
            out.println(String.join(",", fields));
        }
    }

    static void aligned(Dataset<Row> result, PrintStream out) {
        String[] columns = result.columns();
        List<Row> rows = result.takeAsList(ALIGNED_ROWS + 1);
        int shown = Math.min(rows.size(), ALIGNED_ROWS);
        int[] width = new int[columns.length];
        boolean[] numeric = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            width[i] = columns[i].length();
            String type = result.schema().fields()[i].dataType().typeName();
            numeric[i] = type.matches("integer|long|short|byte|double|float|decimal.*");
        }
        List<String[]> cells = new ArrayList<>();
        for (Row r : rows.subList(0, shown)) {
            String[] c = new String[columns.length];
            for (int i = 0; i < columns.length; i++) {
                c[i] = r.isNullAt(i) ? "NULL" : String.valueOf(r.get(i));
                width[i] = Math.max(width[i], c[i].length());
            }
            cells.add(c);
        }
        out.println(line(columns, width, new boolean[columns.length]));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < columns.length; i++) rule.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        out.println(rule);
        for (String[] c : cells) out.println(line(c, width, numeric));
        if (rows.size() > ALIGNED_ROWS)
            out.printf("(only the first %d rows; add a LIMIT, or use --csv or --json for every row)%n", ALIGNED_ROWS);
        else out.printf("(%d row%s)%n", shown, shown == 1 ? "" : "s");
    }

    private static String line(String[] cells, int[] width, boolean[] rightAligned) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) s.append(" | ");
            String pad = " ".repeat(width[i] - cells[i].length());
            s.append(rightAligned[i] ? pad + cells[i] : cells[i] + (i == cells.length - 1 ? "" : pad));
        }
        return s.toString();
    }

    private static String csvField(String value) {
        if (!value.contains(",") && !value.contains("\"") && !value.contains("\n")) return value;
        return '"' + value.replace("\"", "\"\"") + '"';
    }
}
