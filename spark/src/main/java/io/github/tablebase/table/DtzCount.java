package io.github.tablebase.table;

import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.Manifest;

/**
 * One side to move's figures under the 50-move rule, counted from a table's {@link Dtz} codes (entry {@code 2 * index
 * + side}): its canonical positions by five-valued result ({@code byWdl[wdl + 2]}), and its longest DTZ win and loss
 * in plies with the index of one position of each (-1 and -1 where it has none).
 */
public record DtzCount(long[] byWdl, int longestWin, long longestWinAt, int longestLoss, long longestLossAt) {
    /** Counts side to move {@code side}'s codes under a rule of {@code rulePlies}. */
    public static DtzCount of(DtzCodes codes, int side, int rulePlies) {
        long[] byWdl = new long[5];
        int longestWin = -1, longestLoss = -1;
        long winAt = -1, lossAt = -1;
        for (long e = side; e < codes.size(); e += 2) {
            int code = codes.get(e);
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

    /** Five results counted, {@code byWdl[wdl + 2]}, as every command prints them: "26,156,061 wins, 133,575 cursed wins, ...". */
    public static String fiveResults(long[] byWdl) {
        return String.format("%,d wins, %,d cursed wins, %,d draws, %,d blessed losses, %,d losses", byWdl[4], byWdl[3], byWdl[2], byWdl[1], byWdl[0]);
    }

    /** As the manifest lists it (a longest DTZ of 0 where there is none). */
    public Manifest.DtzSide manifestSide() {
        return new Manifest.DtzSide(byWdl[4], byWdl[3], byWdl[2], byWdl[1], byWdl[0], Math.max(0, longestWin), Math.max(0, longestLoss));
    }
}
