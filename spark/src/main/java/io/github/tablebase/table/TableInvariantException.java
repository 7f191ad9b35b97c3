package io.github.tablebase.table;

/**
 * A broken invariant of the engine (an entry refuted more often than it has moves, a smaller table without an entry
 * for a legal position): a bug or a damaged input, which a retry cannot fix, so the run stops at the first one.
 */
public final class TableInvariantException extends IllegalStateException {
    public TableInvariantException(String message) { super(message); }
}
