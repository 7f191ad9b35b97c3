package io.github.tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.Launchers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generation whose slices do not fit Spark's storage memory (here: a storage fraction of a thousandth) keeps
 * them on the executor's disk and writes the same table. Before the slices were checkpointed, it replayed every
 * earlier ply at each ply in partitions (KQKR: 101.6 s instead of 9) and, in one task, wrote a table of draws with
 * exit 0 (KQKR: longest win 0 moves).
 */
class GenerateMemoryIT {
    @Test
    void slicesThatDoNotFitInMemoryGoToDiskAndMakeTheSameTable(@TempDir Path dir) throws Exception {
        byte[] expected = Files.readAllBytes(GeneratedTables.folder("KQKR").resolve("kqkr.tbl"));
        String[][] splits = {{"--partitions", "2", "--conf", "spark.tablebase.entriesPerPartition=1"}, {"--partitions", "1"}};
        for (int k = 0; k < splits.length; k++) {
            Path out = dir.resolve("run-" + k).resolve("kqkr"), log = dir.resolve("generate-" + k + ".log");
            Object[] command = new Object[7 + splits[k].length];
            Object[] head = {"--endgame", "KQKR", "--out", out, "--keep-packed", "--conf", "spark.memory.fraction=0.001"};
            System.arraycopy(head, 0, command, 0, head.length);
            System.arraycopy(splits[k], 0, command, head.length, splits[k].length);
            int exit = Launchers.run(log, 300, "generate", command);
            String text = Files.readString(log);
            assertEquals(0, exit, text);
            assertFalse(text.lines().anyMatch(l -> l.startsWith("\tat ")), text);
            assertArrayEquals(expected, Files.readAllBytes(out.resolve("kqkr.tbl")), String.join(" ", splits[k]));
        }
    }
}
