package tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.KbnkTable;
import tablebase.Launchers;
import tablebase.SparkTestSession;
import tablebase.output.Manifest;
import tablebase.output.TableExport;

/** kill -9 of the driver in the middle of a run, then the same command again: it continues and ends identical. */
class ResumeIT {
    @Test
    void aKilledRunContinuesFromItsLastFinishedHalfMoveAndWritesTheSameTable(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("kbnk"), work = dir.resolve("work");
        Object[] command = {"--endgame", "KBNK", "--out", out, "--work", work, "--partitions", 2};

        Path firstLog = dir.resolve("first.log");
        Process first = Launchers.start(firstLog, "generate", command);
        try {
            Launchers.awaitLine(firstLog, "white depth 15", first, 600);
        } finally {
            first.destroyForcibly(); // jobs/generate execs the JVM: this is kill -9 of the driver
            first.waitFor();
        }
        assertEquals(137, first.exitValue(), "killed by SIGKILL");
        assertFalse(Files.exists(out), "nothing at the final path");
        try (Stream<Path> levels = Files.list(work)) {
            assertTrue(levels.anyMatch(p -> p.getFileName().toString().startsWith("level-")), "half-moves saved in " + work);
        }

        Path secondLog = dir.resolve("second.log");
        assertEquals(0, Launchers.run(secondLog, 900, "generate", command), () -> read(secondLog));
        String second = read(secondLog);
        assertTrue(second.contains("resuming from"), second);
        assertFalse(second.contains("black depth  0 "), "the checkmates were not found again:\n" + second);
        assertFalse(second.contains("white depth  1 "), second);
        assertFalse(Files.exists(work), "the work folder is removed once the outputs are in place");

        Path reference = KbnkTable.folder();
        assertArrayEquals(Files.readAllBytes(reference.resolve("kbnk.bin")), Files.readAllBytes(out.resolve("kbnk.bin")));
        var spark = SparkTestSession.session();
        var expected = spark.read().parquet(reference.resolve(TableExport.PARQUET).toString());
        var resumed = spark.read().parquet(out.resolve(TableExport.PARQUET).toString());
        assertEquals(expected.count(), resumed.count());
        assertEquals(0, expected.exceptAll(resumed).count());
        Map<String, Object> a = Manifest.read(reference.resolve(TableExport.MANIFEST)), b = Manifest.read(out.resolve(TableExport.MANIFEST));
        for (String key : List.of("endgame", "positions", "max_dtm", "dtm_histogram", "half_moves", "packed_file"))
            assertEquals(a.get(key), b.get(key), key);
    }

    @Test
    void aKilledGeneralTableContinuesFromItsLastSavedPlyAndWritesTheSameFiles(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("kqkr"), work = dir.resolve("work");
        // partitions of at most 400,000 entries: KQKR's plies run as Spark stages and are saved
        Object[] command = {"--endgame", "KQKR", "--out", out, "--work", work, "--partitions", 2,
                "--conf", "spark.tablebase.entriesPerPartition=400000"};
        Path firstLog = dir.resolve("first.log");
        Process first = Launchers.start(firstLog, "generate", command);
        try {
            Launchers.awaitLine(firstLog, "KQKR: ply 30:", first, 600);
        } finally {
            first.destroyForcibly();
            first.waitFor();
        }
        assertEquals(137, first.exitValue(), "killed by SIGKILL");
        assertFalse(Files.exists(out), "nothing at the final path");
        try (Stream<Path> levels = Files.list(work.resolve("kqkr"))) {
            assertTrue(levels.anyMatch(p -> p.getFileName().toString().startsWith("level-")), "plies saved in " + work);
        }

        Path secondLog = dir.resolve("second.log");
        assertEquals(0, Launchers.run(secondLog, 900, "generate", command), () -> read(secondLog));
        String second = read(secondLog);
        assertTrue(second.contains("reusing KQK") && second.contains("reusing KKR"), second);
        assertTrue(second.contains("KQKR: resuming from ply "), second);
        assertFalse(second.contains("KQKR: ply  1:"), "the first plies were not done again:\n" + second);
        assertFalse(Files.exists(work), "the work folder is removed once the outputs are in place");

        Path reference = Files.createDirectories(dir.resolve("reference")).resolve("kqkr"), referenceLog = dir.resolve("reference.log");
        assertEquals(0, Launchers.run(referenceLog, 600, "generate", "--endgame", "KQKR", "--out", reference), () -> read(referenceLog));
        assertArrayEquals(Files.readAllBytes(reference.resolve("kqkr.tbl")), Files.readAllBytes(out.resolve("kqkr.tbl")));
        Map<String, Object> a = Manifest.read(reference.resolve(TableExport.MANIFEST)), b = Manifest.read(out.resolve(TableExport.MANIFEST));
        for (String key : List.of("endgame", "positions", "longest_dtm", "dtm_histogram", "indexed_file"))
            assertEquals(a.get(key), b.get(key), key);
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (Exception e) {
            return "(no log: " + e + ")";
        }
    }
}
