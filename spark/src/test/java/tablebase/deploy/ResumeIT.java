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
import tablebase.output.TableExport;
import tablebase.probe.Manifest;

/** kill -9 of the driver in the middle of a run, then the same command again: it continues and ends identical. */
class ResumeIT {
    @Test
    void aKilledTableContinuesFromItsLastSavedPlyAndWritesTheSameFiles(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("kbnk"), work = dir.resolve("work");
        // partitions of at most 1,000,000 entries: KBNK's plies run as Spark stages over 2 partitions and are saved
        Object[] command = {"--endgame", "KBNK", "--out", out, "--work", work, "--partitions", 2,
                "--conf", "spark.tablebase.entriesPerPartition=1000000"};
        Path firstLog = dir.resolve("first.log");
        Process first = Launchers.start(firstLog, "generate", command);
        try {
            Launchers.awaitLine(firstLog, "KBNK: ply 30:", first, 600);
        } finally {
            first.destroyForcibly(); // jobs/generate execs the JVM: this is kill -9 of the driver
            first.waitFor();
        }
        assertEquals(137, first.exitValue(), "killed by SIGKILL");
        assertFalse(Files.exists(out), "nothing at the final path");
        try (Stream<Path> levels = Files.list(work.resolve("kbnk"))) {
            assertTrue(levels.anyMatch(p -> p.getFileName().toString().startsWith("level-")), "plies saved in " + work);
        }

        Path secondLog = dir.resolve("second.log");
        assertEquals(0, Launchers.run(secondLog, 900, "generate", command), () -> read(secondLog));
        String second = read(secondLog);
        assertTrue(second.contains("reusing KBK") && second.contains("reusing KNK"), second);
        assertTrue(second.contains("KBNK: resuming from ply "), second);
        assertFalse(second.contains("KBNK: ply  1:"), "the first plies were not done again:\n" + second);
        assertFalse(Files.exists(work), "the work folder is removed once the outputs are in place");

        Path reference = KbnkTable.folder();
        for (String file : List.of("kbnk.bin", "kbnk.tbl"))
            assertArrayEquals(Files.readAllBytes(reference.resolve(file)), Files.readAllBytes(out.resolve(file)), file);
        var spark = SparkTestSession.session();
        var expected = spark.read().parquet(reference.resolve(TableExport.PARQUET).toString());
        var resumed = spark.read().parquet(out.resolve(TableExport.PARQUET).toString());
        assertEquals(expected.count(), resumed.count());
        assertEquals(0, expected.exceptAll(resumed).count());
        Map<String, Object> a = Manifest.read(reference.resolve(Manifest.FILE)), b = Manifest.read(out.resolve(Manifest.FILE));
        for (String key : List.of("endgame", "positions", "longest_dtm", "dtm_histogram", "packed_files", "seed_file"))
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
