package io.github.tablebase.probe;

/**
 * What a probe can go wrong with, in three kinds a caller tells apart: {@link MissingTableException} (the
 * position's material is not in the folder), {@link IllegalPositionException} (a bad FEN or a position that
 * cannot occur) and {@link CorruptTableException} (a damaged file). Each message is one line.
 */
public abstract sealed class TablebaseException extends RuntimeException
        permits MissingTableException, IllegalPositionException, CorruptTableException {
    TablebaseException(String message) { super(message); }
}
