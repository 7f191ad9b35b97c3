package io.github.tablebase.table;

import io.github.tablebase.probe.LatePlies;
import java.io.Serializable;

/**
 * The result bytes of a range of whole king pairs from index {@code lo}, {@code 2 * (index - lo) + side}, and the
 * plies past what a byte holds ({@code late}, by entry {@code 2 * index + side}): a partition of a solved table.
 */
public record SolvedPartition(long lo, byte[] results, LatePlies late) implements Serializable {
    /** The end of the partition's indexes (exclusive). */
    public long hi() { return lo + results.length / 2; }
}
