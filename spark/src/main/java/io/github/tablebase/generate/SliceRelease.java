package io.github.tablebase.generate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.Success$;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.storage.RDDBlockId;

/**
 * Drops a ply's slice of a partition as soon as the next ply's slice of that partition is made, not when the whole
 * next ply is: the heap then holds about one copy of the table while a ply runs, not two. Nothing reads the old
 * slice after that task: its lineage is cut (each ply is {@linkplain PlyLineage#checkpointed checkpointed}), the
 * next ply's map stage reads the new slices, and a task run again or a lost executor's slices make the run go back
 * to the work folder, as before. A task that fails keeps the old slice, for its retry; a speculative twin still
 * running when the other attempt succeeds is killed, its slice not needed. The executor drops the old slice once the
 * task that read it has let it go.
 */
final class SliceRelease extends SparkListener implements AutoCloseable {
    /** The job property naming the RDD whose slices a ply's result tasks make obsolete. */
    static final String RELEASES = "spark.tablebase.releasesSlicesOf";
    private final SparkContext sc;
    private final Map<Integer, Integer> releasedByStage = new ConcurrentHashMap<>();

    SliceRelease(SparkContext sc) {
        this.sc = sc;
        sc.addSparkListener(this);
    }

    /** Runs {@code ply} (an action making the next slices from {@code before}) with {@code before}'s slices dropped as it goes. */
    <T> T releasing(JavaRDD<?> before, TableSolver.Action<T> ply) throws Exception {
        sc.setLocalProperty(RELEASES, Integer.toString(before.id()));
        try {
            return ply.run();
        } finally {
            sc.setLocalProperty(RELEASES, null);
        }
    }

    @Override public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
        String rdd = submitted.properties() == null ? null : submitted.properties().getProperty(RELEASES);
        if (rdd != null) releasedByStage.put(submitted.stageInfo().stageId(), Integer.parseInt(rdd));
    }

    @Override public void onStageCompleted(SparkListenerStageCompleted completed) {
        releasedByStage.remove(completed.stageInfo().stageId());
    }

    @Override public void onTaskEnd(SparkListenerTaskEnd end) {
        Integer rdd = releasedByStage.get(end.stageId());
        // the ply's slices are made by its result tasks; its map tasks only read the old ones
        if (rdd == null || !"ResultTask".equals(end.taskType()) || end.reason() != Success$.MODULE$) return;
        SparkEnv env = SparkEnv.get();
        if (env != null) env.blockManager().master().removeBlock(new RDDBlockId(rdd, end.taskInfo().partitionId()));
    }

    @Override public void close() { sc.removeSparkListener(this); }
}
