package io.github.tablebase.probe;

/** A FEN that does not parse, or a position that cannot occur on a board (touching kings, the side not to move in check). */
public final class IllegalPositionException extends TablebaseException {
    IllegalPositionException(String message) { super(message); }
}
