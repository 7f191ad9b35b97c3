package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.tablebase.GeneratedTables;
import io.github.tablebase.KbnkTable;
import io.github.tablebase.SparkTestSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every SQL statement of the notebooks ({@code spark.sql("""...""")} in their code cells) and of their
 * {@code .sql} twins runs through Spark SQL on a generated table and answers, so the notebooks cannot rot.
 */
class NotebooksTest {
    private static final Path NOTEBOOKS = Path.of("notebooks");
    private static final Pattern SPARK_SQL = Pattern.compile("spark\\.sql\\(\\s*\"\"\"(.*?)\"\"\"", Pattern.DOTALL);

    @BeforeAll
    static void registerTable() throws Exception {
        TableView.register(SparkTestSession.session(), KbnkTable.folder().toString());
        TableView.register(SparkTestSession.session(), GeneratedTables.folder("KQKR").toString());
    }

    /** The statements of a notebook's code cells, in order. */
    static List<String> fromNotebook(Path notebook) throws IOException {
        JsonNode nb = new ObjectMapper().readTree(notebook.toFile());
        assertEquals(4, nb.get("nbformat").asInt(), notebook + " is not an nbformat 4 notebook");
        List<String> statements = new ArrayList<>();
        for (JsonNode cell : nb.get("cells")) {
            if (!cell.get("cell_type").asText().equals("code")) continue;
            StringBuilder source = new StringBuilder();
            cell.get("source").forEach(line -> source.append(line.asText()));
            Matcher m = SPARK_SQL.matcher(source);
            while (m.find()) statements.add(normalised(m.group(1)));
        }
        return statements;
    }

    /** The statements of a .sql file: comments dropped, split at semicolons. */
    static List<String> fromSqlFile(Path file) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(file)) text.append(line.replaceFirst("--.*", "")).append('\n');
        return Stream.of(text.toString().split(";")).filter(s -> !s.isBlank()).map(NotebooksTest::normalised).toList();
    }

    private static String normalised(String sql) { return sql.strip().replaceAll("\\s+", " "); }

    private static List<Path> files(String extension) throws IOException {
        try (Stream<Path> all = Files.list(NOTEBOOKS)) {
            return all.filter(p -> p.toString().endsWith(extension)).sorted().toList();
        }
    }

    @Test
    void eachNotebookHasASqlTwinWithTheSameQueries() throws Exception {
        List<Path> notebooks = files(".ipynb");
        assertTrue(notebooks.size() >= 3, "notebooks: " + notebooks);
        for (Path notebook : notebooks) {
            Path twin = Path.of(notebook.toString().replaceFirst("\\.ipynb$", ".sql"));
            assertTrue(Files.exists(twin), twin + " is missing");
            List<String> queries = fromNotebook(notebook);
            assertTrue(queries.size() >= 3, notebook + " has " + queries.size() + " queries");
            assertEquals(fromSqlFile(twin), queries, notebook + " and " + twin + " differ");
        }
    }

    @Test
    void everyStatementOfEveryNotebookAndSqlFileRunsAndAnswers() throws Exception {
        SparkSession spark = SparkTestSession.session();
        // a statement both in a notebook and its twin runs once
        Map<String, Path> statements = new LinkedHashMap<>();
        for (Path notebook : files(".ipynb")) for (String s : fromNotebook(notebook)) statements.putIfAbsent(s, notebook);
        for (Path file : files(".sql")) for (String s : fromSqlFile(file)) statements.putIfAbsent(s, file);
        statements.forEach((statement, source) -> assertNotEquals(0, spark.sql(statement).count(), source + ": " + statement));
        assertTrue(statements.size() >= 16, statements.size() + " statements");
    }
}
