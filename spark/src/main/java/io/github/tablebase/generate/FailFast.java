package io.github.tablebase.generate;

import io.github.tablebase.table.TableInvariantException;
import java.util.Set;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Stops a stage at the first task that fails in a way no retry can fix (a broken invariant, memory), instead of
 * letting Spark run it three more times: Spark retries any task failure, and a deterministic one only costs time
 * and buries its message. Listens while a table is solved; {@link #cause} says what stopped it.
 */
final class FailFast extends SparkListener implements AutoCloseable {
    private static final Set<String> FATAL = Set.of(TableInvariantException.class.getName(), OutOfMemoryError.class.getName());
    private final SparkContext sc;
    private volatile String cause;

    FailFast(SparkContext sc) {
        this.sc = sc;
        sc.addSparkListener(this);
    }

    @Override public void onTaskEnd(SparkListenerTaskEnd end) {
        if (!(end.reason() instanceof ExceptionFailure failure) || !FATAL.contains(failure.className())) return;
        if (cause == null) cause = failure.className().substring(failure.className().lastIndexOf('.') + 1) + ": " + failure.description();
        sc.cancelStage(end.stageId(), cause);
    }

    /** What stopped a stage, or null. */
    String cause() { return cause; }

    @Override public void close() { sc.removeSparkListener(this); }
}
