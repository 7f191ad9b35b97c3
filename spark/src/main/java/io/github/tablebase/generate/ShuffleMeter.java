package io.github.tablebase.generate;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.ShuffleWriteMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/** Adds up what every task writes to shuffle files, so each ply can report what it moved between partitions. */
final class ShuffleMeter extends SparkListener {
    record Reading(long records, long bytes) {
        Reading minus(Reading earlier) { return new Reading(records - earlier.records, bytes - earlier.bytes); }
    }

    private final AtomicLong records = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final SparkContext context;

    ShuffleMeter(SparkContext context) {
        this.context = context;
        context.addSparkListener(this);
    }

    @Override public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (taskEnd.taskMetrics() == null) return;
        ShuffleWriteMetrics written = taskEnd.taskMetrics().shuffleWriteMetrics();
        records.addAndGet(written.recordsWritten());
        bytes.addAndGet(written.bytesWritten());
    }

    /** The totals so far, once every event of the finished jobs has reached this listener. */
    Reading read() {
        try {
            context.listenerBus().waitUntilEmpty();
        } catch (TimeoutException e) {
            throw new IllegalStateException("Spark's listener bus did not drain", e);
        }
        return new Reading(records.get(), bytes.get());
    }

    void close() { context.removeSparkListener(this); }
}
