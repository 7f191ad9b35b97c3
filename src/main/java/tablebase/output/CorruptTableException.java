package tablebase.output;

/** Raised when a table answers something impossible (a missing or illegal move, a distance that does not add up): its file is damaged. */
public final class CorruptTableException extends IllegalStateException {
    CorruptTableException(String message) { super(message); }
}
