package tablebase.table;

import java.io.Serializable;

/** The result bytes of a range of whole king pairs from index {@code lo}, {@code 2 * (index - lo) + side}: a partition of a solved table. */
public record ResultBlock(long lo, byte[] results) implements Serializable {
    /** The end of the block's indexes (exclusive). */
    public long hi() { return lo + results.length / 2; }
}
