package io.github.tablebase.cli;

import static io.github.tablebase.cli.ProgressLines.EVERY_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Material;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress a run prints, on a clock the test moves: a line every 10 s with the time left, or every ply when verbose. */
class ProgressLinesTest {
    private static final Material KRK = Material.parse("KRK"), KRKN = Material.parse("KRKN");
    private long now;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private ProgressLines lines(boolean verbose) {
        RunPlan plan = RunPlan.of(List.of(KRK, KRKN), m -> false, KRKN);
        return new ProgressLines(plan, 2, verbose, new PrintStream(printed, true, StandardCharsets.UTF_8), () -> now);
    }

    private List<String> said() {
        List<String> all = printed.toString(StandardCharsets.UTF_8).lines().toList();
        printed.reset();
        return all;
    }

    private void plies(ProgressLines progress, Material m, int plies, double secondsEach) {
        for (int q = 1; q <= plies; q++) {
            now += (long) (secondsEach * 1e9);
            progress.ply(m, q, 1000L * q, 100_000, true, m.name() + ": ply " + q);
        }
    }

    @Test
    void aQuietRunSaysItsPlyAndTimeLeftEveryTenSecondsAndAVerboseOneEveryPly() {
        ProgressLines quiet = lines(false);
        quiet.startTable(KRK);
        assertTrue(said().get(0).startsWith("table 1 of 2: KRK, "));
        plies(quiet, KRK, 30, 1); // a ply a second: a line at the 10th, 20th and 30th
        List<String> quietLines = said();
        assertEquals(3, quietLines.size(), quietLines::toString);
        assertTrue(quietLines.get(0).startsWith("KRK: ply 10, 10,000 of 100,000 entries won or lost so far, 10 s in; "), quietLines::toString);

        ProgressLines verbose = lines(true);
        verbose.startTable(KRK);
        said();
        plies(verbose, KRK, 30, 1);
        assertEquals(30, said().size());

        // a table solved in one task reports its plies once solved: a quiet run has nothing left to estimate
        quiet.startTable(KRKN);
        said();
        now += (long) 60e9;
        quiet.ply(KRKN, 1, 10, 100_000, false, "KRKN: ply 1: 10 wins  (one task)");
        assertEquals(List.of(), said());
    }

    @Test
    void theTimeLeftFollowsThePaceTheRunHasMeasuredOnceItHasRunTenSeconds() {
        RunPlan plan = RunPlan.of(List.of(KRK, KRKN), m -> false, KRKN);
        double krk = plan.steps().get(0).seconds(2), krkn = plan.steps().get(1).seconds(2);
        ProgressLines progress = lines(false);
        progress.startTable(KRK);
        assertTrue(said().get(0).endsWith("about " + RunPlan.duration(krk + krkn) + " left in the run"));
        ProgressLines early = lines(false);
        early.startTable(KRK);
        now += (long) 5e9;
        early.solved(KRK); // too little time to say how fast this machine is: the plan's rate stands
        early.startTable(KRKN);
        assertTrue(said().get(1).endsWith("about " + RunPlan.duration(krkn) + " left in the run"));

        double took = 25, pace = took / plan.steps().get(0).solveSeconds(2); // a KRK solved this long after the run began: this much slower than the plan said
        now += (long) (20 * 1e9);
        progress.solved(KRK);
        progress.startTable(KRKN);
        List<String> afterKrk = said();
        assertTrue(afterKrk.get(0).endsWith("about " + RunPlan.duration(pace * krkn) + " left in the run"));
        double solve = plan.steps().get(1).solveSeconds(2) * pace;
        plies(progress, KRKN, 1, Math.ceil(solve + 10)); // past the estimate
        assertTrue(said().get(0).endsWith("longer than the " + RunPlan.duration(solve) + " estimated"));
    }

    @Test
    void thePlansPaceOfThisMachineStandsUntilTheRunHasMeasuredItsOwn() {
        RunPlan plan = RunPlan.of(List.of(KRK, KRKN), m -> false, KRKN).atPace(3);
        RunPlan.Step krk = plan.steps().get(0), krkn = plan.steps().get(1);
        ProgressLines progress = new ProgressLines(plan, 2, false, new PrintStream(printed, true, StandardCharsets.UTF_8), () -> now);
        progress.startTable(KRK);
        assertTrue(said().get(0).endsWith("about " + RunPlan.duration(3 * (krk.seconds(2) + krkn.seconds(2))) + " left in the run"));
        now += (long) (2 * 1e9);
        progress.solved(KRK); // too soon to say: the plan's pace stands
        progress.startTable(KRKN);
        assertTrue(said().get(0).endsWith("about " + RunPlan.duration(3 * krkn.seconds(2)) + " left in the run"));
        now += (long) (20 * 1e9);
        progress.written(KRK); // 22 s for KRK: the run's own pace from now on
        double pace = 22 / krk.seconds(2);
        now += (long) (EVERY_SECONDS * 1e9);
        progress.ply(KRKN, 1, 1, krkn.entries(), true, "");
        double estimate = pace * krkn.solveSeconds(2), in = 20 + EVERY_SECONDS;
        assertTrue(estimate > in);
        assertTrue(said().get(0).endsWith("about " + RunPlan.duration(estimate - in) + " left to solve"), "the run's own pace");
    }

    @Test
    void aTableSolvedButNotYetWrittenCountsItsSolvingAloneAndItsWritingOnceWritten() {
        Material knpkn = Material.parse("KNPKN"), kqpkr = Material.parse("KQPKR");
        RunPlan plan = RunPlan.of(List.of(knpkn, kqpkr), m -> false, kqpkr);
        RunPlan.Step first = plan.steps().get(0), second = plan.steps().get(1);
        double solve = first.solveSeconds(2), write = first.seconds(2) - solve;
        ProgressLines progress = new ProgressLines(plan, 2, false, new PrintStream(printed, true, StandardCharsets.UTF_8), () -> now);
        progress.startTable(knpkn);
        now += (long) (2 * solve * 1e9); // solved at half the plan's rate, its writing not yet done
        progress.solved(knpkn);
        progress.startTable(kqpkr);
        assertTrue(said().get(1).endsWith("about " + RunPlan.duration(2 * second.seconds(2)) + " left in the run"),
                "the pace of the first table's solving alone");
        now += (long) (write * 1e9); // written at the plan's rate
        progress.written(knpkn);
        progress.ply(kqpkr, 1, 1, second.entries(), true, "");
        double pace = (2 * solve + write) / (solve + write);
        assertTrue(said().get(0).endsWith("about " + RunPlan.duration(second.solveSeconds(2) * pace - write) + " left to solve"),
                "the pace of the first table's solving and writing");
    }

    @Test
    void theSmallerTablesPaceSaysNothingOfASixPieceTableWhichHasARateOfItsOwn() {
        Material krrrkq = Material.parse("KRRRKQ");
        RunPlan plan = RunPlan.of(List.of(KRK, krrrkq), m -> false, krrrkq);
        double big = plan.steps().get(1).seconds(2);
        ProgressLines progress = new ProgressLines(plan, 2, false, new PrintStream(printed, true, StandardCharsets.UTF_8), () -> now);
        progress.startTable(KRK);
        now += (long) ((30 * plan.steps().get(0).seconds(2) + 10) * 1e9);
        progress.solved(KRK); // a KRK far slower than planned
        progress.startTable(krrrkq);
        assertTrue(said().get(1).endsWith("about " + RunPlan.duration(big) + " left in the run"), "the 6-piece plan's own rate");
    }
}
