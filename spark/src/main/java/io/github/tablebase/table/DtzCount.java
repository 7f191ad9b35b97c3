package io.github.tablebase.table;

import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.Manifest;
import java.io.Serializable;

/**
 * One side to move's figures under the 50-move rule, counted from a table's {@link Dtz} codes (entry {@code 2 * index
 * + side}): its canonical positions by five-valued result ({@code byWdl[wdl + 2]}), and its longest DTZ win and loss
 * in plies with the index of one position of each (-1 and -1 where it has none).
 */
public record DtzCount(long[] byWdl, int longestWin, long longestWinAt, int longestLoss, long longestLossAt) implements Serializable {
    /** Counts side to move {@code side}'s codes under a rule of {@code rulePlies}. */
    public static DtzCount of(DtzCodes codes, int side, int rulePlies) { return of(codes, 0, codes.size(), side, rulePlies); }

    /** Counts side to move {@code side}'s codes of entries {@code from .. to - 1} ({@code from} even) under a rule of {@code rulePlies}. */
    public static DtzCount of(EntryResults codes, long from, long to, int side, int rulePlies) {
        long[] byWdl = new long[5];
        int longestWin = -1, longestLoss = -1;
        long winAt = -1, lossAt = -1;
        for (long e = from + side; e < to; e += 2) {
            int code = codes.result(e);
            if (code == Dtz.NONE) continue;
            byWdl[Dtz.wdl(code, rulePlies) + 2]++;
            int plies = Dtz.plies(code);
            if (Dtz.wins(code) && plies > longestWin) {
                longestWin = plies;
                winAt = e / 2;
            } else if (Dtz.loses(code) && plies > longestLoss) {
                longestLoss = plies;
                lossAt = e / 2;
            }
        }
        return new DtzCount(byWdl, longestWin, winAt, longestLoss, lossAt);
    }

    /** The counts of two ranges of entries, this one's first: a longest DTZ found in both is this one's. */
    public DtzCount plus(DtzCount later) {
        long[] sum = byWdl.clone();
        for (int k = 0; k < sum.length; k++) sum[k] += later.byWdl[k];
        boolean win = later.longestWin > longestWin, loss = later.longestLoss > longestLoss;
        return new DtzCount(sum, win ? later.longestWin : longestWin, win ? later.longestWinAt : longestWinAt, loss ? later.longestLoss : longestLoss,
                loss ? later.longestLossAt : longestLossAt);
    }

    /** Five results counted, {@code byWdl[wdl + 2]}, as every command prints them: "26,156,061 wins, 133,575 cursed wins, ...". */
    public static String fiveResults(long[] byWdl) {
        return String.format("%,d wins, %,d cursed wins, %,d draws, %,d blessed losses, %,d losses", byWdl[4], byWdl[3], byWdl[2], byWdl[1], byWdl[0]);
    }

    /** As the manifest lists it (a longest DTZ of 0 where there is none). */
    public Manifest.DtzSide manifestSide() {
        return new Manifest.DtzSide(byWdl[4], byWdl[3], byWdl[2], byWdl[1], byWdl[0], Math.max(0, longestWin), Math.max(0, longestLoss));
    }
}
