package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        String refused = RunPlan.of(order, smallerReused, null, false).refusal(four, 2);
        org.junit.jupiter.api.Assertions.assertNotNull(refused);
        org.junit.jupiter.api.Assertions.assertTrue(refused.startsWith("KRRRKQ needs a heap of about ") && refused.contains("sliceStorage=DISK_ONLY"), refused);
        assertEquals(null, RunPlan.of(order, smallerReused, null, true).refusal(four, 2));
        // KRRRKQ was made as objects in a 4.7 GB driver (docs/figures.md): the plan lets it
        assertEquals(null, RunPlan.of(order, smallerReused, null, false).refusal(made, 2));
    }
}
