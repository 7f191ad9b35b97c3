package io.github.tablebase.probe;

/**
 * A table's result codes by entry {@code 2 * index + side}, both sides to move (see {@link Result}): what the
 * generator reads of a smaller table for its captures and promotions, from a mapped packed table or from windows of
 * one read a king pair at a time. Implementations only read: any number of threads may share one.
 */
public interface EntryResults {
    /** The result code of an entry. */
    int result(long entry);
}
