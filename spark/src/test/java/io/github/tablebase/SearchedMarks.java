package io.github.tablebase;

import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.ResultPlane;
import io.github.tablebase.table.Successors;
import java.util.BitSet;

/**
 * The entries whose captures and promotions give their result, found as a prober finds a marked entry's result: every
 * legal exit looked up in the smaller tables, their best taken. What the solve's marks must equal.
 */
public final class SearchedMarks {
    private SearchedMarks() {}

    /**
     * By entry from {@code 2 * lo}, for indexes {@code lo .. hi - 1}: legal, with an exit, its result held in its
     * byte (not a late ply), and the best of its exits that result; the table's results {@code own}, its exits read
     * through {@code successors}.
     */
    public static BitSet byEntry(Successors successors, PositionIndex index, ResultPlane own, long lo, long hi) {
        MoveGenerator gen = new MoveGenerator(index.material());
        BitSet marks = new BitSet();
        int[] squares = new int[index.material().size()], moves = new int[256];
        for (long i = lo; i < hi; i++) {
            if (!index.decode(i, squares)) continue;
            for (int side = 0; side < 2; side++) {
                long entry = 2 * i + side;
                int b = own.bytes().get(entry), result = own.late().result(entry, b);
                if (result == Result.NONE || result != b) continue;
                int n = gen.legalExits(squares, side, moves);
                if (n == 0) continue;
                Result.Fold fold = new Result.Fold();
                for (int k = 0; k < n; k++) fold.add(successors.exitResult(squares, moves[k], 1 - side));
                if (fold.result() == result) marks.set((int) (entry - 2 * lo));
            }
        }
        return marks;
    }
}
