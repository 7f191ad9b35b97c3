package io.github.tablebase.table;

import java.io.Serializable;
import java.util.Map;

/**
 * How a table's solving went, as the driver measured it: for the progress lines and for the figures a run writes
 * ({@code jobs/generate --figures}).
 *
 * @param seconds from the start of its init to its figures
 * @param positions the canonical legal positions solved
 * @param peakHeapBytes the largest heap left after a garbage collection in the driver's JVM while it solved (local
 *     mode: the executors' too), 0 when none ran
 * @param liveHeapBytes the largest live heap sampled by full collections, 0 unless asked for
 * @param executorsPeakHeapBytes each executor's peak heap after GC since it started, on a cluster (empty in local mode)
 * @param plies the last ply that decided an entry
 * @param shuffledBytes what the plies wrote to Spark's shuffle files in all (0 for a table solved in one task)
 * @param largestPlyShuffledBytes the most one ply wrote
 */
public record SolveFigures(double seconds, long positions, long peakHeapBytes, long liveHeapBytes, Map<String, Long> executorsPeakHeapBytes,
                           int plies, long shuffledBytes, long largestPlyShuffledBytes) implements Serializable {}
