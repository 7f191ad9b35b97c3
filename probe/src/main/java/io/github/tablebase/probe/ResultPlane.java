package io.github.tablebase.probe;

/**
 * A table's results, entry {@code 2 * index + side}: the result bytes, mapped, and the plies past what a byte holds.
 * It only reads: any number of threads may share one.
 */
public record ResultPlane(EntryPlane bytes, LatePlies late) implements EntryResults {
    /** The result code of an entry, as {@link Result} spells it: a draw, no canonical legal position, or ply + 1. */
    @Override public int result(long entry) { return late.result(entry, bytes.get(entry)); }
}
