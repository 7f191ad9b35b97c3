package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.table.DtzCodes;
import io.github.tablebase.table.SolvedPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DTZ over partitions equals the DTZ in one task ({@link DtzSolve}, checked against a brute force over the clock
 * and every position's moves in {@link DtzSolveTest}) entry by entry: a pawnless table with symmetric king pairs
 * under a short rule (cursed results), and pawns of one side (pawn levels as rounds, losses in odd plies), with the
 * slices kept as objects (each step a copy) and serialized (each task plies its own copy), through tasks that fail
 * once, and stopped and resumed from its work folder. End to end (the files, the counts, the probe, the rows), {@code
 * DtzFilesTest}'s KQKR is solved over partitions.
 */
class DtzPliesTest {
    @Test
    void aPawnlessTableOverPartitionsEqualsOneTaskEntryByEntry() throws IOException {
        assertSame("KRK", 9, 5, StorageLevel.MEMORY_ONLY(), 0);
    }

    /** A ply's tasks that fail in their first attempt, after the partition's own un-moves, are run again from the slices before: the same codes. */
    @Test
    void aPlyWhoseTasksFailOnceIsRunAgainToTheSameCodes() throws IOException {
        assertSame("KRK", 9, 3, StorageLevel.MEMORY_ONLY(), 4);
        assertSame("KRK", 9, 3, StorageLevel.MEMORY_ONLY_SER(), 4);
    }

    /**
     * A run stopped between steps (here by its progress line at the end of a pawn level) goes on from the last step
     * saved in its work folder, to the same codes: KNKP's pawn levels, some solved before the stop, some after.
     */
    @Test
    void aStoppedRunGoesOnFromItsWorkFolder(@TempDir Path tmp) throws IOException {
        Material m = Material.parse("KNKP");
        TableSolver.Layout layout = new TableSolver.Layout(m, new PositionIndex(m), new MoveGenerator(m), 3);
        String work = tmp.resolve("work").toString();
        RuntimeException stop = new RuntimeException("stopped");
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> DtzPlies.solve(SparkTestSession.context(), layout,
                () -> DtzSolveTest.exits(m, 30), 30, StorageLevel.MEMORY_ONLY_SER(), work, 0, line -> {
                    if (line.contains("pawn level 3")) throw stop;
                }));
        assertEquals(stop, thrown);
        List<String> lines = new ArrayList<>();
        List<SolvedPartition> parts = DtzPlies.solve(SparkTestSession.context(), layout, () -> DtzSolveTest.exits(m, 30), 30,
                StorageLevel.MEMORY_ONLY_SER(), work, 0, lines::add).collect();
        assertTrue(lines.get(0).contains("DTZ resuming from step") && lines.stream().noneMatch(l -> l.contains("pawn level 5")), lines.toString());
        assertEqual(m, 30, DtzSolveTest.dtz(m, 30), parts);
    }

    private static void assertSame(String name, int rule, int partitions, StorageLevel storage, int failOnceAt) throws IOException {
        Material m = Material.parse(name);
        PositionIndex index = new PositionIndex(m);
        TableSolver.Layout layout = new TableSolver.Layout(m, index, new MoveGenerator(m), partitions);
        DtzCodes expected = DtzSolveTest.dtz(m, rule);
        List<SolvedPartition> parts = DtzPlies.solve(SparkTestSession.context(), layout, () -> DtzSolveTest.exits(m, rule), rule, storage,
                null, failOnceAt, line -> {}).collect();
        assertEquals(partitions, parts.size(), name);
        long cursed = assertEqual(m, rule, expected, parts);
        if (rule < Dtz.RULE_PLIES && name.equals("KRK")) assertTrue(cursed > 0, name + " has cursed results under a rule of " + rule);
    }

    /** Checks each entry of the partitions against {@code expected}, once each; returns the cursed results. */
    private static long assertEqual(Material m, int rule, DtzCodes expected, List<SolvedPartition> parts) {
        String name = m.name();
        long checked = 0, cursed = 0;
        for (SolvedPartition p : parts) {
            for (int at = 0; at < p.results().length; at++) {
                long e = 2 * p.lo() + at;
                int code = p.late().result(e, p.results()[at] & 0xFF);
                assertEquals(expected.get(e), code, name + " rule " + rule + " entry " + e);
                if (Math.abs(Dtz.wdl(code, rule)) == 1) cursed++;
                checked++;
            }
        }
        assertEquals(expected.size(), checked, name + ": every entry once");
        return cursed;
    }
}
