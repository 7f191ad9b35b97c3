package io.github.tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.KbnkTable;
import io.github.tablebase.Launchers;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.output.TableExport;
import io.github.tablebase.probe.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the driver in the middle of a run, then the same command again: it continues and ends identical; a
 * SIGTERM stops a run in one line, leaving no partial folder and the plies saved.
 */
class ResumeIT {
    @Test
    void aKilledTableContinuesFromItsLastSavedPlyAndWritesTheSameFiles(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("kbnk"), work = dir.resolve("work");
        // partitions of at most 1,000,000 entries: KBNK's plies run as Spark stages over 2 partitions and are saved
        Object[] command = {"--endgame", "KBNK", "--out", out, "--work", work, "--partitions", 2, "--verbose", "--keep-packed",
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
        for (String file : List.of("kbnk.bin", "kbnk.tbl", "kbnk.cdtm"))
            assertArrayEquals(Files.readAllBytes(reference.resolve(file)), Files.readAllBytes(out.resolve(file)), file);
        var spark = SparkTestSession.session();
        var expected = spark.read().parquet(reference.resolve(TableExport.PARQUET).toString());
        var resumed = spark.read().parquet(out.resolve(TableExport.PARQUET).toString());
        assertEquals(expected.count(), resumed.count());
        assertEquals(0, expected.exceptAll(resumed).count());
        Manifest a = Manifest.read(reference.resolve(Manifest.FILE)), b = Manifest.read(out.resolve(Manifest.FILE));
        assertEquals(a.endgame(), b.endgame());
        assertEquals(a.sides(), b.sides(), "positions, longest wins and histograms");
        assertEquals(a.packedFiles(), b.packedFiles());
        assertEquals(a.seedFile(), b.seedFile());
    }

    @Test
    void aSignalStopsTheRunInOneLineWithNoPartialFolderAndTheSameCommandResumes(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("kqqk"), work = dir.resolve("work"), log = dir.resolve("stopped.log");
        Object[] command = {"--endgame", "KQQK", "--out", out, "--work", work, "--partitions", 2, "--verbose", "--keep-packed", "--conf", "spark.tablebase.entriesPerPartition=1"};
        Process run = Launchers.start(log, "generate", command);
        try {
            Launchers.awaitLine(log, "KQQK: ply  4:", run, 600);
            run.destroy(); // SIGTERM to the driver's JVM (jobs/generate execs it)
            assertTrue(run.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the run did not stop");
        } finally {
            run.destroyForcibly();
        }
        String text = read(log);
        assertEquals(143, run.exitValue(), text);
        List<String> ends = text.lines().filter(l -> l.startsWith("generate: ")).toList();
        assertEquals(List.of("generate: stopped by a signal; no partial folder is left, and the plies saved in " + work + " let the same command resume"),
                ends, text);
        assertFalse(text.lines().anyMatch(l -> l.startsWith("\tat ")), text);
        assertFalse(text.contains("continuing from ply"), "a stopped run goes on from no saved ply:\n" + text);
        try (Stream<Path> beside = Files.list(dir)) {
            assertTrue(beside.noneMatch(p -> p.getFileName().toString().contains(".partial-")), "no partial folder in " + dir);
        }
        assertFalse(Files.exists(out));

        Path again = dir.resolve("again.log");
        assertEquals(0, Launchers.run(again, 600, "generate", command), () -> read(again));
        assertTrue(read(again).contains("KQQK: resuming from ply "), read(again));
        Path plain = dir.resolve("plain"), plainLog = dir.resolve("plain.log");
        assertEquals(0, Launchers.run(plainLog, 600, "generate", "--endgame", "KQQK", "--out", plain.resolve("kqqk"), "--keep-packed"), () -> read(plainLog));
        assertArrayEquals(Files.readAllBytes(plain.resolve("kqqk/kqqk.tbl")), Files.readAllBytes(out.resolve("kqqk.tbl")));
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (Exception e) {
            return "(no log: " + e + ")";
        }
    }
}
