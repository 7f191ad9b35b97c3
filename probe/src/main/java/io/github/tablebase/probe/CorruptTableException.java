package io.github.tablebase.probe;

/**
 * A table file that is damaged: a wrong header or size, a SHA-256 that differs from its manifest, or an
 * answer that cannot be (a missing or illegal move, a distance that does not add up).
 */
public final class CorruptTableException extends TablebaseException {
    public CorruptTableException(String message) { super(message); }
}
