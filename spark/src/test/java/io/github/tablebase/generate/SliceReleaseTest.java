package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.SparkTestSession;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * A ply's old slices go as the new ones are made, while the ply still runs, and only after the task that read
 * them succeeded: a task that fails is run again from the old slice, which its lineage, cut at each ply, could not
 * make again (Spark retrying a task that failed once: {@link SparkFailuresTest}).
 */
class SliceReleaseTest {
    private static final int PARTS = 4;

    @Test
    void anOldBlockGoesAsSoonAsItsTaskSucceedsWhileThePlyStillRuns() throws Exception {
        JavaSparkContext jsc = SparkTestSession.context();
        JavaRDD<Integer> before = kept(jsc);
        int id = before.id();
        // local[2]: the last task starts once two others have ended, and then waits to see one of their old blocks go
        JavaRDD<Boolean> after = before.map(p -> p < PARTS - 1 || within(20_000, () -> IntStream.range(0, PARTS - 1).anyMatch(q -> !present(id, q))));
        List<Boolean> seen;
        try (SliceRelease release = new SliceRelease(jsc.sc())) {
            seen = release.releasing(before, after::collect);
            jsc.sc().listenerBus().waitUntilEmpty();
        }
        assertTrue(seen.get(PARTS - 1), "no old block went while the ply ran");
        assertTrue(within(20_000, () -> IntStream.range(0, PARTS).noneMatch(p -> present(id, p))), "old blocks left after the ply");
    }

    @Test
    void aTaskThatFailsKeepsItsOldBlock() throws Exception {
        JavaSparkContext jsc = SparkTestSession.context();
        JavaRDD<Integer> before = kept(jsc);
        int id = before.id();
        JavaRDD<Integer> after = before.map(p -> {
            if (p == 1) throw new IllegalStateException("injected failure, every attempt");
            return p;
        });
        try (SliceRelease release = new SliceRelease(jsc.sc())) {
            assertThrows(Exception.class, () -> release.releasing(before, after::collect));
            jsc.sc().listenerBus().waitUntilEmpty();
        }
        assertTrue(within(20_000, () -> !present(id, 0)), "a task that succeeded kept its old block");
        Thread.sleep(1000); // a removal sent by mistake would land by then
        assertTrue(present(id, 1), "the failed task's old block went");
        before.unpersist(true);
    }

    /** {@link #PARTS} partitions, kept and checkpointed as a ply's slices are: a block gone cannot be made again. */
    private static JavaRDD<Integer> kept(JavaSparkContext jsc) {
        JavaRDD<Integer> rdd = PlyLineage.checkpointed(jsc.parallelize(IntStream.range(0, PARTS).boxed().toList(), PARTS)
                .map(p -> p).persist(StorageLevel.MEMORY_ONLY()));
        assertEquals(PARTS, rdd.count());
        return rdd;
    }

    private interface Condition {
        boolean holds();
    }

    /** Whether {@code condition} holds within {@code millis}. */
    private static boolean within(long millis, Condition condition) throws InterruptedException {
        for (long end = System.currentTimeMillis() + millis; System.currentTimeMillis() < end; Thread.sleep(10))
            if (condition.holds()) return true;
        return false;
    }

    private static boolean present(int rdd, int partition) {
        return SparkEnv.get().blockManager().getStatus(new RDDBlockId(rdd, partition)).isDefined();
    }
}
