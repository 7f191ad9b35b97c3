package io.github.tablebase.table;

import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.LatePlies;
import io.github.tablebase.probe.Result;
import java.io.Serializable;
import java.util.BitSet;
import java.util.function.IntUnaryOperator;

/**
 * The result bytes of a range of whole king pairs from index {@code lo}, {@code 2 * (index - lo) + side}, the
 * plies past what a byte holds ({@code late}, by entry {@code 2 * index + side}), and the entries whose captures and
 * promotions give their result ({@code byExits}, as the results: one leads where the best moves lead, a draw for a
 * draw, else the ply before; never a late ply's), which the compressed files may mark: a partition of a solved table.
 */
public record SolvedPartition(long lo, byte[] results, LatePlies late, BitSet byExits) implements Serializable {
    /** The end of the partition's indexes (exclusive). */
    public long hi() { return lo + results.length / 2; }

    /**
     * The partition from index {@code lo} of a table's DTZ: {@code entries} entries, {@code code} giving the {@link Dtz}
     * code of entry {@code 2 * lo + at} from {@code at}. A DTZ code is a {@link Result} code (a win in n plies the code
     * of ply 2n - 1, a loss the code of ply 2n), so a DTZ partition is written and read as a DTM one; codes past a
     * byte are listed as late plies. No DTZ file marks entries: none is marked.
     */
    public static SolvedPartition ofDtz(long lo, int entries, IntUnaryOperator code) {
        byte[] results = new byte[entries];
        int late = 0;
        for (int at = 0; at < entries; at++) {
            int c = code.applyAsInt(at);
            if (c > Result.code(Result.MAX_PLY)) {
                late++;
                c = Result.code(Result.MAX_PLY);
            }
            results[at] = (byte) c;
        }
        long[] lateEntries = new long[late];
        int[] latePlies = new int[late];
        late = 0;
        for (int at = 0; late < lateEntries.length; at++) {
            int c = code.applyAsInt(at);
            if (c <= Result.code(Result.MAX_PLY)) continue;
            lateEntries[late] = 2 * lo + at;
            latePlies[late++] = Result.ply(c);
        }
        return new SolvedPartition(lo, results, LatePlies.of(Result.MAX_PLY, lateEntries, latePlies), new BitSet());
    }
}
