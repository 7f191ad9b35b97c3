package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.KbnkTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jobs/sql --file}: the notebooks' SQL twins run exactly as their second line says, and a folder of tables is one set of views. */
class SqlFilesTest {
    private static CliRun sql(String... args) { return CliRun.of("sql", Sql.USAGE, "", () -> Sql.sql(args)); }

    @Test
    void eachNotebooksSqlTwinRunsAsItsSecondLineSays() throws Exception {
        List<Path> twins;
        try (Stream<Path> files = Files.list(Path.of("notebooks"))) {
            twins = files.filter(f -> f.toString().endsWith(".sql")).sorted().toList();
        }
        assertTrue(twins.size() >= 3, twins.toString());
        for (Path twin : twins) {
            Matcher m = Pattern.compile("Run it with jobs/sql (.*?), which").matcher(Files.readAllLines(twin).get(1));
            assertTrue(m.find(), twin + " says how to run it on its second line");
            List<String> args = new ArrayList<>();
            for (String word : m.group(1).split(" "))
                args.add(word.equals("out/kbnk") ? KbnkTable.folder().toString() : word.equals("out/kqkr") ? GeneratedTables.folder("KQKR").toString() : word);
            CliRun r = sql(args.toArray(String[]::new));
            assertEquals(0, r.exit(), twin + ": " + r.err());
            long statements = Files.readString(twin).replaceAll("--[^\n]*", "").chars().filter(c -> c == ';').count();
            assertEquals(statements, r.out().lines().filter(l -> l.matches("\\(\\d+ rows?\\)")).count(), twin + ":\n" + r.out());
        }
    }

    @Test
    void aFileKeepsQuotedSemicolonsAndDashesAndAFolderIsEveryTableAsAView(@TempDir Path dir) throws Exception {
        assertEquals(List.of("SELECT 'a;b' AS x, \"--\" AS y", "SELECT 1"), SqlScript.statements("-- a comment\nSELECT 'a;b' AS x, \"--\" AS y; -- the end\n\nSELECT 1;\n"));
        assertThrows(IllegalArgumentException.class, () -> SqlScript.statements("SELECT 'a"));
        GeneratedTables.folder("KQKR");
        Path file = dir.resolve("two.sql");
        Files.writeString(file, "-- two tables of one folder\nSELECT 'a;b' AS x, count(*) AS kqkr_rows FROM kqkr;\nSELECT count(*) AS kqk_rows FROM kqk WHERE result = 'win';\n");
        CliRun r = sql("--tables", GeneratedTables.root().toString(), "--file", file.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("a;b") && r.out().contains("kqkr_rows") && r.out().contains("kqk_rows"), r.out());
        assertEquals(2, r.out().lines().filter(l -> l.equals("(1 row)")).count(), r.out());
        CliRun none = sql("--tables", dir.toString(), "SELECT 1");
        assertEquals(1, none.exit());
        assertTrue(none.err().contains("holds no table folder"), none.err());
        CliRun both = sql("--table", dir.toString(), "--file", file.toString(), "SELECT 1");
        assertEquals(2, both.exit());
    }
}
