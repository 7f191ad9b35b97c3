package io.github.tablebase.cli;

import io.github.tablebase.chess.Material;
import io.github.tablebase.generate.SolveProgress;
import java.io.PrintStream;
import java.util.List;

/**
 * A generate run's progress as the user reads it: "table k of n" with the time left in the run, then per table a
 * line every {@link #EVERY_SECONDS} seconds with its ply and the time left, or, verbose, every ply's line. The
 * estimates start from the plan's measured rates at the plan's pace of this machine and follow this run's pace once it has run for
 * {@link #PACE_AFTER_SECONDS} seconds (the first tables are too small to say): the wall-clock time from its first table's
 * start to the last table solved or written, against the plan's time for the work done by then, each table's solving once
 * solved and its writing once written (a large table's writing, which follows its solving, takes as long as it). Wall-clock
 * time, since tables solve and write side by side and a busy machine slows them all. Tables of up to five pieces and of six have rates of their
 * own, and so paces of their own: the 5-piece tables before a 6-piece one say nothing of its pace.
 */
final class ProgressLines implements SolveProgress {
    static final double EVERY_SECONDS = 10, PACE_AFTER_SECONDS = 10;
    private final List<RunPlan.Step> toMake;
    private final int cores;
    private final double machinePace;
    private final boolean verbose;
    private final PrintStream out;
    private final Clock clock;
    private int made;
    /**
     * This run's tables up to five pieces [0] and six [1]: the plan's time for the work done so far, when the first
     * started and when the last was solved or written (nanoseconds).
     */
    private final double[] plannedDone = new double[2];
    private final long[] kindStart = new long[2], lastDone = new long[2];
    private final boolean[] kindStarted = new boolean[2];
    /** The tables being solved (several at once when each takes one task): their plan's step, start and last line. */
    private final java.util.Map<Material, Solving> solving = new java.util.HashMap<>();

    private static final class Solving {
        final RunPlan.Step step;
        final long start;
        long lastLine;

        Solving(RunPlan.Step step, long start) {
            this.step = step;
            this.start = lastLine = start;
        }
    }

    /** Nanoseconds, from {@link System#nanoTime} or a test's clock. */
    interface Clock {
        long nanos();
    }

    ProgressLines(RunPlan plan, int cores, boolean verbose, PrintStream out, Clock clock) {
        this.toMake = plan.toMake();
        this.cores = cores;
        this.machinePace = plan.pace();
        this.verbose = verbose;
        this.out = out;
        this.clock = clock;
    }

    /** A table starts: "table k of n", its entries, and the time left in the run (the tables started before it, and still solving, left out). */
    synchronized void startTable(Material material) {
        RunPlan.Step table = step(material);
        made++;
        double left = 0;
        for (RunPlan.Step s : toMake.subList(made - 1, toMake.size())) left += s.seconds(cores) * pace(s);
        out.printf("table %d of %d: %s, %,d entries; about %s left in the run%n", made, toMake.size(), material.name(), table.entries(),
                RunPlan.duration(left));
        long now = clock.nanos();
        solving.put(material, new Solving(table, now));
        if (!kindStarted[kind(table)]) {
            kindStarted[kind(table)] = true;
            kindStart[kind(table)] = now;
        }
    }

    /** A table is solved. */
    synchronized void solved(Material material) {
        RunPlan.Step table = solving.remove(material).step;
        done(table, table.solveSeconds(cores));
    }

    /** A table is written. */
    synchronized void written(Material material) {
        RunPlan.Step table = step(material);
        done(table, table.seconds(cores) - table.solveSeconds(cores));
    }

    private void done(RunPlan.Step table, double plannedSeconds) {
        plannedDone[kind(table)] += plannedSeconds;
        lastDone[kind(table)] = clock.nanos();
    }

    private RunPlan.Step step(Material material) {
        return toMake.stream().filter(s -> s.material().equals(material)).findFirst().orElseThrow();
    }

    @Override public synchronized void note(String line) {
        out.println(line);
    }

    @Override public synchronized void ply(Material material, int ply, long decided, long entries, boolean live, String line) {
        if (verbose) {
            out.println(line);
            return;
        }
        Solving now = solving.get(material);
        if (!live || now == null || seconds(now.lastLine) < EVERY_SECONDS) return;
        now.lastLine = clock.nanos();
        RunPlan.Step table = now.step;
        double in = seconds(now.start), estimate = table.solveSeconds(cores) * pace(table);
        out.printf("%s: ply %d, %,d of %,d entries won or lost so far, %s in; %s%n", material.name(), ply, decided, entries, RunPlan.duration(in),
                in < estimate ? "about " + RunPlan.duration(estimate - in) + " left to solve" : "longer than the " + RunPlan.duration(estimate) + " estimated");
    }

    /**
     * How many times the time of the plan's rates this run's tables of the kind of {@code step} took; the plan's pace of
     * this machine until it has run long enough to say.
     */
    private double pace(RunPlan.Step step) {
        int k = kind(step);
        double took = (lastDone[k] - kindStart[k]) / 1e9;
        return plannedDone[k] > 0 && took >= PACE_AFTER_SECONDS ? took / plannedDone[k] : machinePace;
    }

    private static int kind(RunPlan.Step step) { return step.material().size() > 5 ? 1 : 0; }

    private double seconds(long since) {
        return (clock.nanos() - since) / 1e9;
    }
}
