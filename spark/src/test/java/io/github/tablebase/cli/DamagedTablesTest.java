package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.tablebase.GeneratedTables;
import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.web.ProbeServer;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder of tables with one table's compressed file cut short and a folder whose manifest is not JSON: each is told
 * once, and the other tables keep answering through the API, {@code probe}, {@code serve} and {@code verify}.
 */
class DamagedTablesTest {
    private static final String KQK = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1", KQKR = "8/8/8/3k4/8/8/4r3/KQ6 w - - 0 1", KRKQ = "8/8/8/3K4/8/8/4R3/kq6 b - - 0 1";
    @TempDir static Path root;
    /** KQKR's compressed file cut short, and a folder whose manifest is not JSON; the rows of the same tables, two damaged. */
    private static Path set, rows;
    private static Tablebase whole;

    @BeforeAll
    static void damagedSet() throws Exception {
        Path kqkr = GeneratedTables.folder("KQKR");
        whole = Tablebase.open(kqkr);
        set = root.resolve("set");
        rows = root.resolve("rows");
        for (String name : List.of("kqkr", "kqk", "krk")) {
            copy(kqkr.resolveSibling(name), set.resolve(name));
            copy(kqkr.resolveSibling(name), rows.resolve(name));
        }
        Path krk = onlyFile(rows.resolve("krk").resolve("parquet")), kqk = onlyFile(rows.resolve("kqk").resolve("parquet"));
        byte[] krkRows = Files.readAllBytes(krk), kqkRows = Files.readAllBytes(kqk);
        java.util.Arrays.fill(krkRows, 8, krkRows.length - 8, (byte) 0x5A); // its size and marks kept, its footer lost: found before any query
        Files.write(krk, krkRows);
        int footer = java.nio.ByteBuffer.wrap(kqkRows, kqkRows.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        java.util.Arrays.fill(kqkRows, 8, kqkRows.length - 8 - footer, (byte) 0); // its rows lost, its footer kept: found by reading them
        Files.write(kqk, kqkRows);
        Path cdtm = set.resolve("kqkr").resolve("kqkr.cdtm");
        byte[] bytes = Files.readAllBytes(cdtm);
        Files.write(cdtm, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Files.createDirectories(set.resolve("notes"));
        Files.writeString(set.resolve("notes").resolve("manifest.json"), "{ not json");
    }

    private static Path onlyFile(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> parquet = files.filter(f -> f.toString().endsWith(".parquet")).toList();
            assertEquals(1, parquet.size(), parquet.toString());
            return parquet.get(0);
        }
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target);
            }
        }
    }

    @Test
    void theOtherTablesAnswerAndTheDamagedOneSaysWhy() throws Exception {
        try (Tablebase tb = Tablebase.open(set)) {
            assertEquals(List.of(Material.parse("KQK"), Material.parse("KRK")), tb.materials());
            assertEquals(2, tb.refused().size(), tb.refused().toString());
            Tablebase.Refused kqkr = tb.refused().stream().filter(r -> r.folder().endsWith("kqkr")).findFirst().orElseThrow();
            assertEquals(Material.parse("KQKR"), kqkr.material());
            assertTrue(kqkr.reason().contains("kqkr.cdtm"), kqkr.reason());
            Tablebase.Refused notes = tb.refused().stream().filter(r -> r.folder().endsWith("notes")).findFirst().orElseThrow();
            assertEquals(null, notes.material());
            assertEquals(whole.probe(KQK).dtm(), tb.probe(KQK).dtm());
            for (String fen : List.of(KQKR, KRKQ)) {
                CorruptTableException e = assertThrows(CorruptTableException.class, () -> tb.probeDtm(Tablebase.position(fen)));
                assertTrue(e.getMessage().contains("the KQKR table cannot be read") && e.getMessage().contains("kqkr.cdtm"), e.getMessage());
            }
        }
        // a table folder asked for by itself is still refused outright
        assertThrows(CorruptTableException.class, () -> Tablebase.open(set.resolve("kqkr")));
    }

    @Test
    void probeWarnsOnceForEachAndAnswersTheOthers() {
        CliRun r = CliRun.of("probe", Probe.USAGE, "", () -> Probe.probe(new String[] {"--tables", set.toString(), KQK}));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("White to move: White mates in " + whole.probe(KQK).dtm()), r.out());
        List<String> warnings = r.err().lines().toList();
        assertEquals(2, warnings.size(), r.err());
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("probe: warning: KQKR left out, ") && w.contains("kqkr.cdtm")), r.err());
        CliRun damaged = CliRun.of("probe", Probe.USAGE, "", () -> Probe.probe(new String[] {"--tables", set.toString(), KQKR}));
        assertEquals(1, damaged.exit());
        assertTrue(damaged.err().contains("probe: error: the KQKR table cannot be read"), damaged.err());
        assertTrue(damaged.err().lines().noneMatch(l -> l.startsWith("\tat ")), damaged.err());
    }

    @Test
    void theServerAnswers503ForTheDamagedMaterialAlone() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Tablebase tb = Tablebase.open(set); ProbeServer server = ProbeServer.start(tb, "127.0.0.1", 0, 2)) {
            JsonNode listed = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(server.uri().resolve("api/tables")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            List<String> refused = new ArrayList<>();
            listed.get("refused").forEach(t -> refused.add(t.get("endgame").asText()));
            assertEquals(List.of("KQKR", "KRKQ"), refused, listed.toString());
            assertTrue(listed.get("refused").get(0).get("reason").asText().contains("kqkr.cdtm"), listed.toString());
            for (String fen : List.of(KQKR, KRKQ, KQK)) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri().resolve("api/probe?fen=" + URLEncoder.encode(fen, StandardCharsets.UTF_8)))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (fen.equals(KQK)) {
                    assertEquals(200, r.statusCode(), r.body());
                    continue;
                }
                assertEquals(503, r.statusCode(), r.body());
                assertEquals(1, r.body().lines().count(), r.body());
                assertTrue(new ObjectMapper().readTree(r.body()).get("error").asText().startsWith("damaged table: the KQKR table cannot be read"), r.body());
            }
        }
    }

    @Test
    void verifyChecksTheOthersAndFails() {
        CliRun sums = CliRun.of("verify", Verify.USAGE, "", () -> Verify.verify(new String[] {"--tables", set.toString()}));
        assertEquals(1, sums.exit(), sums.out() + sums.err());
        assertTrue(sums.out().contains("verified KQK, KRK") && sums.out().contains("2 tables damaged or unreadable, left out"), sums.out());
        assertEquals(2, sums.err().lines().count(), sums.err());
        CliRun sample = CliRun.of("verify", Verify.USAGE, "", () -> Verify.verify(new String[] {"--tables", set.toString(), "--sample", "200"}));
        assertEquals(1, sample.exit(), sample.out() + sample.err());
        assertTrue(sample.out().contains("KQK: 200 random positions") && sample.out().contains("KRK: 200 random positions"), sample.out());
        assertTrue(sample.out().contains("2 tables, 400 positions checked") && sample.out().contains("all agree; 2 left out as damaged"), sample.out());
    }

    @Test
    void sqlAndStatsLeaveOutARowFileCutShortAndNameOneDamagedInside() {
        CliRun sql = CliRun.of("sql", Sql.USAGE, "", () -> Sql.sql(new String[] {"--tables", rows.toString(), "--csv",
                "SELECT count(*) AS n FROM kqkr WHERE result = 'win'"}));
        assertEquals(0, sql.exit(), sql.out() + sql.err());
        assertTrue(sql.out().startsWith("n\n") && Long.parseLong(sql.out().lines().toList().get(1)) > 0, sql.out());
        assertEquals(1, sql.err().lines().count(), sql.err());
        assertTrue(sql.err().startsWith("sql: warning: krk left out: ") && sql.err().contains("footer cannot be read"), sql.err());
        CliRun inside = CliRun.of("sql", Sql.USAGE, "", () -> Sql.sql(new String[] {"--tables", rows.toString(), "SELECT count(*) FROM kqk WHERE dtm > 3"}));
        assertEquals(1, inside.exit(), inside.err());
        List<String> lines = inside.err().lines().toList();
        assertEquals(2, lines.size(), inside.err()); // the warning, then the error
        assertTrue(lines.get(1).startsWith("sql: error: ") && lines.get(1).contains("kqk/parquet/part-") && lines.get(1).contains("cannot be read"), inside.err());
        CliRun stats = CliRun.of("stats", Stats.USAGE, "", () -> Stats.stats(new String[] {"--tables", rows.toString()}));
        assertEquals(0, stats.exit(), stats.err());
        assertTrue(stats.out().contains("KQKR") && stats.out().contains("KRKQ") && !stats.out().contains("KQK "), stats.out());
        assertTrue(stats.err().contains("stats: warning: krk left out") && stats.err().contains("stats: warning: kqk left out")
                && stats.err().contains("cannot be read"), stats.err());
        assertTrue(stats.err().lines().noneMatch(l -> l.startsWith("\tat ")), stats.err());
    }
}
