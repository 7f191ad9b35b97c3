package io.github.tablebase.generate;

import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;

/**
 * The peak heap after GC of each executor, since it started, as its tasks report it: on a cluster, what the
 * executors hold (the driver's own is {@link LiveHeap}); in local mode the executor is the driver.
 */
final class ExecutorHeaps implements java.io.Serializable {
    /** This JVM's peak heap after GC since it started: an executor's, watched from its first task on. */
    private static final LiveHeap WATCH = new LiveHeap(false); // never closed: it lives as long as the JVM

    private final CollectionAccumulator<Tuple2<String, Long>> reports;

    ExecutorHeaps(JavaSparkContext jsc) { reports = jsc.sc().collectionAccumulator("executors' peak heap"); }

    /** Reports this executor's peak, at the end of a task's kernel; returns what the kernel made. */
    <T> T after(T made) {
        reports.add(new Tuple2<>(org.apache.spark.SparkEnv.get().executorId(), WATCH.peak()));
        return made;
    }

    /** Each executor's peak heap after GC, by its id; none in local mode (the executor is the driver). */
    TreeMap<String, Long> peaks() {
        TreeMap<String, Long> peaks = new TreeMap<>();
        for (Tuple2<String, Long> r : reports.value()) peaks.merge(r._1(), r._2(), Math::max);
        peaks.remove("driver");
        return peaks;
    }

    /** "; executors' peak live heap (after GC): 0 1,234 MB, 1 1,100 MB", or nothing in local mode. */
    String describe() {
        TreeMap<String, Long> peaks = peaks();
        if (peaks.isEmpty()) return "";
        StringBuilder b = new StringBuilder("; executors' peak live heap (after GC):");
        peaks.forEach((id, bytes) -> b.append(String.format(" %s %,d MB,", id, bytes >> 20)));
        return b.substring(0, b.length() - 1);
    }
}
