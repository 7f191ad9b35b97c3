package tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.Launchers;

/**
 * A generation whose slices Spark cannot keep in memory (here: a storage fraction of a thousandth) stops with one
 * line that says so. In partitions it used to replay every earlier ply at each ply, ever slower (KQKR: 101.6 s
 * instead of 9); in one task it wrote a wrong table (KQKR: longest win 0 moves).
 */
class GenerateMemoryIT {
    @Test
    void slicesSparkCannotKeepStopTheRunWithOneLine(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generate.log");
        int exit = Launchers.run(log, 300, "generate", "--endgame", "KQKR", "--out", dir.resolve("kqkr"), "--partitions", 2,
                "--conf", "spark.tablebase.entriesPerPartition=1", "--conf", "spark.memory.fraction=0.001");
        String out = Files.readString(log);
        assertEquals(1, exit, out);
        List<String> errors = out.lines().filter(l -> l.startsWith("generate: ")).toList();
        assertEquals(1, errors.size(), out);
        assertTrue(errors.get(0).startsWith("generate: error: KQKR: Spark could not keep the table's slices in memory"), out);
        assertTrue(errors.get(0).contains("DRIVER_MEMORY"), out);
        assertTrue(out.contains("KQKR: ply 1: slices Spark did not keep"), out);
        assertFalse(out.lines().anyMatch(l -> l.startsWith("\tat ")), out);
        assertFalse(Files.exists(dir.resolve("kqkr")), "nothing at the final path");
        for (String smaller : new String[] {"kqk", "kkr"}) // solved in one task each, kept, and written whole beside it
            assertTrue(Files.isRegularFile(dir.resolve(smaller).resolve(smaller + ".tbl")), smaller);
    }

    /** Solved in one task, a slice Spark did not keep was read back made again, unsolved: a table of draws, written with exit 0. */
    @Test
    void aSliceMadeAgainIsNeverWrittenAsTheTable(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generate.log");
        int exit = Launchers.run(log, 300, "generate", "--endgame", "KQKR", "--out", dir.resolve("kqkr"), "--conf", "spark.memory.fraction=0.001");
        String out = Files.readString(log);
        assertEquals(1, exit, out);
        List<String> errors = out.lines().filter(l -> l.startsWith("generate: ")).toList();
        assertEquals(1, errors.size(), out);
        assertTrue(errors.get(0).startsWith("generate: error: KQKR: Spark could not keep the table's slices in memory until its results were read"), out);
        assertFalse(Files.exists(dir.resolve("kqkr")), "nothing at the final path");
    }
}
