package io.github.tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.Launchers;
import io.github.tablebase.probe.Tablebase;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jobs/probe, jobs/serve and jobs/verify run on the probe library's jar alone: with every loaded class printed
 * ({@code JAVA_TOOL_OPTIONS=-verbose:class}), none is Spark's, Hadoop's or Scala's, and they still answer; a probe
 * maps in the classes that the first probe of the build archived.
 */
class ProbeLaunchersIT {
    private static final Map<String, String> VERBOSE = Map.of("JAVA_TOOL_OPTIONS", "-verbose:class");
    private static final String WIN = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    private static Path tables;

    @BeforeAll
    static void generate(@TempDir Path dir) throws Exception {
        tables = dir;
        Path log = dir.resolve("generate.log");
        assertEquals(0, Launchers.run(log, 300, "generate", "--endgame", "KQK", "--out", dir.resolve("kqk")), () -> read(log));
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** What a run printed, without the class-loading lines (which may fall in the middle of a printed line). */
    private static String printed(String log) { return log.replaceAll("\\[[0-9.]+s\\]\\[info\\]\\[class,load\\][^\n]*\n", ""); }

    /** The classes a run loaded, one per line of -verbose:class ("[class,load] name source: ..."). */
    private static List<String> loaded(String log) {
        return log.lines().filter(l -> l.contains("[class,load]")).map(l -> l.replaceAll(".*\\[class,load\\] (\\S+).*", "$1")).toList();
    }

    private static void assertNoSparkHadoopOrScala(String log) {
        List<String> loaded = loaded(log);
        assertTrue(loaded.contains("io.github.tablebase.probe.Tablebase"), "the verbose class log is read: " + loaded.size() + " classes");
        List<String> foreign = loaded.stream().filter(c -> c.startsWith("org.apache.spark.") || c.startsWith("org.apache.hadoop.")
                || c.startsWith("scala.")).toList();
        assertEquals(List.of(), foreign);
    }

    @Test
    void probeAndVerifyLoadNoSparkClass(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("probe.log");
        assertEquals(0, Launchers.start(VERBOSE, log, "probe", "--tables", tables, WIN).waitFor(), () -> read(log));
        String out = printed(read(log));
        int dtm;
        try (Tablebase api = Tablebase.open(tables)) {
            dtm = api.probeDtm(WIN);
        }
        assertTrue(dtm > 0 && out.contains("White to move: White mates in " + dtm), out);
        assertNoSparkHadoopOrScala(read(log));

        Path verifyLog = dir.resolve("verify.log");
        assertEquals(0, Launchers.start(VERBOSE, verifyLog, "verify", "--table", tables.resolve("kqk")).waitFor(), () -> read(verifyLog));
        assertTrue(printed(read(verifyLog)).contains("verified KQK: every packed, compressed, seed and Parquet file matches"), read(verifyLog));
        assertNoSparkHadoopOrScala(read(verifyLog));
    }

    @Test
    void aProbeMapsInTheClassesAnEarlierProbeArchived(@TempDir Path dir) throws Exception {
        Path first = dir.resolve("first.log"), second = dir.resolve("second.log");
        assertEquals(0, Launchers.run(first, 60, "probe", "--tables", tables, WIN), () -> read(first));
        assertEquals(0, Launchers.run(VERBOSE, second, 60, "probe", "--tables", tables, WIN), () -> read(second));
        String answer = read(first).lines().filter(l -> l.contains("White to move: White mates in")).findFirst().orElseThrow();
        assertTrue(printed(read(second)).contains(answer), read(second));
        assertTrue(read(second).lines().anyMatch(l -> l.contains("[class,load] io.github.tablebase.probe.Tablebase source: shared objects file")),
                () -> read(second).lines().filter(l -> l.contains("io.github.tablebase.probe.Tablebase ")).toList().toString());
    }

    @Test
    void serveLoadsNoSparkClass(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("serve.log");
        int port = 8000 + (int) (ProcessHandle.current().pid() % 1000);
        Process server = Launchers.start(VERBOSE, log, "serve", "--tables", tables, "--port", port);
        try {
            Launchers.awaitLine(log, "serving KQK", server, 60);
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/probe?fen=" + URLEncoder.encode(WIN, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"category\":\"win\""), r.body());
        } finally {
            server.destroy();
            server.waitFor();
        }
        assertNoSparkHadoopOrScala(read(log));
    }
}
