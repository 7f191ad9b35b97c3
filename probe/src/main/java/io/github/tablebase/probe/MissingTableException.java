package io.github.tablebase.probe;

/** The position's material (or one a capture leads to) has no table among those opened. */
public final class MissingTableException extends TablebaseException {
    MissingTableException(String message) { super(message); }
}
