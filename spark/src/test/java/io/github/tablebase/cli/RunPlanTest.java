package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A plan's heap counts the tables that solve at once: on two cores, the largest and the largest beside it in one task. */
class RunPlanTest {
    private static long indexes(String name) { return new PositionIndex(Material.parse(name)).size(); }

    @Test
    void theHeapOfTwoCoresCountsTheLargestTableThatMaySolveBesideTheLargest() {
        List<Material> order = List.of(Material.parse("KRK"), Material.parse("KRKN"), Material.parse("KRNKR"), Material.parse("KRPKR"));
        RunPlan plan = RunPlan.of(order, m -> false, null);
        long alone = plan.localHeap(1), beside = plan.localHeap(2);
        assertEquals((long) (RunPlan.HEAP_PER_INDEX * indexes("KRNKR")), beside - alone, "KRNKR beside KRPKR");
        // a 6-piece table is solved over partitions, alone: nothing beside it but the largest 5-piece table
        RunPlan six = RunPlan.of(List.of(Material.parse("KRNKR"), Material.parse("KRRKR"), Material.parse("KRRRKQ")), m -> false, null);
        assertEquals((long) (RunPlan.HEAP_PER_INDEX * indexes("KRNKR")), six.localHeap(2) - six.localHeap(1));
        RunPlan one = RunPlan.of(List.of(Material.parse("KRK"), Material.parse("KRNKR")), m -> m.size() < 5, null);
        assertEquals(one.localHeap(1), one.localHeap(2), "a plan of one table to make has nothing beside it");
    }

    @Test
    void slicesOnDiskLetKrrrkqRunInAFourGigabyteDriverThatSlicesAsObjectsWouldOverrun() {
        List<Material> order = List.of(Material.parse("KRRKQ"), Material.parse("KRRRK"), Material.parse("KRRRKQ"));
        long four = 4L << 30, made = 4700L << 20;
        java.util.function.Predicate<Material> smallerReused = m -> m.size() < 6; // as in the runs of docs/figures.md
        String refused = RunPlan.of(order, smallerReused, null, false, false, true).refusal(four, 2);
        org.junit.jupiter.api.Assertions.assertNotNull(refused);
        org.junit.jupiter.api.Assertions.assertTrue(refused.startsWith("KRRRKQ needs a heap of about ") && refused.contains("sliceStorage=DISK_ONLY"), refused);
        assertEquals(null, RunPlan.of(order, smallerReused, null, true, false, true).refusal(four, 2));
        // KRRRKQ was made as objects in a 4.7 GB driver (docs/figures.md): the plan lets it
        assertEquals(null, RunPlan.of(order, smallerReused, null, false, false, true).refusal(made, 2));
    }

    /**
     * With DTZ a run needs the heap of the task that solves a table's DTZ whole, at its peak a short an entry and a
     * byte an index besides the export's planes: KRPKR's 2 GB driver holds its solve but not its DTZ.
     */
    @Test
    void aRunWithDtzCountsTheHeapOfTheTaskThatSolvesIt() {
        List<Material> order = List.of(Material.parse("KRPKR"));
        long indexes = new io.github.tablebase.chess.PositionIndex(Material.parse("KRPKR")).size(), two = 2L << 30;
        assertEquals(null, RunPlan.of(order, m -> false, null, false, false, true).refusal(two, 2));
        String refused = RunPlan.of(order, m -> false, null, false, true, true).refusal(two, 2);
        org.junit.jupiter.api.Assertions.assertNotNull(refused);
        org.junit.jupiter.api.Assertions.assertTrue(refused.contains("with --dtz"), refused);
        // the task's least: the codes (a short an entry, two entries an index) and the levels (a byte an index)
        long least = RunPlan.SPARK_HEAP + 5 * indexes;
        org.junit.jupiter.api.Assertions.assertTrue(RunPlan.of(order, m -> false, null, false, true, true).localHeap(2) > least);
    }

    /**
     * The plan's time against runs measured on 2026-12-03's machine (no tables reused, without Parquet rows, nothing
     * else running), at the paces its calibration measured there (KRRK's second solve 1.09 to 1.32 s): the 4-piece set
     * in 144.4 s, KRNKR over its smaller tables in 136.2, 180.0 and 196.9 s. A plan's estimate lands within a factor of
     * 2 of the run.
     */
    @Test
    void thePlanAtTheMachinesPaceLandsWithinTwiceTheTimeOfRunsMeasuredThere() {
        RunPlan set = RunPlan.of(Generate.order(Generate.upTo(4, true)), m -> false, null, false, false, false);
        assertEquals(35, set.toMake().size());
        Material krnkr = Material.parse("KRNKR");
        RunPlan one = RunPlan.of(Generate.order(List.of(krnkr)), m -> m.size() < 5, krnkr, false, false, false);
        for (double calibration : new double[] {1.09, 1.32}) {
            double pace = calibration / MachinePace.REFERENCE_SECONDS;
            assertWithinTwice(144.4, set.atPace(pace).seconds(2), "the 4-piece set at pace " + pace);
            for (double measured : new double[] {136.2, 180.0, 196.9}) assertWithinTwice(measured, one.atPace(pace).seconds(2), "KRNKR at pace " + pace);
        }
        assertTrue(set.atPace(2.5).lines(2, true, 8L << 30).get(0).contains("(this machine's pace: 2.5 times the time of the rates' own)"));
        assertTrue(!set.lines(2, true, 8L << 30).get(0).contains("pace"), "a plan not calibrated says no pace");
    }

    private static void assertWithinTwice(double measured, double estimated, String what) {
        assertTrue(estimated <= 2 * measured && measured <= 2 * estimated, what + ": estimated " + estimated + " s, measured " + measured + " s");
    }

    /** With DTZ a table's time counts its DTZ, a 6-piece table's with pawns too (solved over partitions). */
    @Test
    void aRunWithDtzCountsItsTime() {
        for (String name : new String[] {"KRPKR", "KRPPKR"}) {
            Material m = Material.parse(name);
            assertTrue(RunPlan.of(List.of(m), x -> false, null, false, true, true).seconds(2) > RunPlan.of(List.of(m), x -> false, null, false, false, true).seconds(2), name);
        }
    }

    /** Without Parquet rows a table is planned quicker, and in each kind of run its writing still takes time after its solving (the pace counts them apart). */
    @Test
    void aRunWithoutRowsIsPlannedQuickerAndEveryTableStillTakesTimeToWrite() {
        for (String name : new String[] {"KRK", "KQKR", "KRPKR", "KRRRKQ"}) {
            Material m = Material.parse(name);
            double[] seconds = new double[2];
            for (int rows = 0; rows < 2; rows++) {
                RunPlan.Step step = RunPlan.of(List.of(m), x -> false, null, false, false, rows == 1).steps().get(0);
                seconds[rows] = step.seconds(2);
                assertTrue(step.seconds(2) > step.solveSeconds(2), name + ": its writing");
            }
            assertTrue(seconds[0] < seconds[1], name + ": without rows " + seconds[0] + " s, with " + seconds[1]);
        }
    }
}
