package tablebase.cli;

import java.io.PrintStream;
import java.util.List;
import tablebase.chess.Material;
import tablebase.generate.SolveProgress;

/**
 * A generate run's progress as the user reads it: "table k of n" with the time left in the run, then per table a
 * line every {@link #EVERY_SECONDS} seconds with its ply and the time left, or, verbose, every ply's line. The
 * estimates start from the plan's measured rates and follow this run's pace (how much slower or faster than the plan
 * its tables solved) once it has solved for {@link #PACE_AFTER_SECONDS} seconds: the first tables are too small to say.
 * Tables of up to five pieces and of six have rates of their own, and so paces of their own: the 5-piece tables
 * before a 6-piece one say nothing of its pace.
 */
final class ProgressLines implements SolveProgress {
    static final double EVERY_SECONDS = 10, PACE_AFTER_SECONDS = 10;
    private final List<RunPlan.Step> toMake;
    private final int cores;
    private final boolean verbose;
    private final PrintStream out;
    private final Clock clock;
    private int made;
    /** This run's tables so far, up to five pieces [0] and six [1]: their plan's estimates of their solving, and what it took. */
    private final double[] plannedSolve = new double[2], tookSolve = new double[2];
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
        this.verbose = verbose;
        this.out = out;
        this.clock = clock;
    }

    /** A table starts: "table k of n", its entries, and the time left in the run (the tables started before it, and still solving, left out). */
    synchronized void startTable(Material material) {
        RunPlan.Step table = toMake.stream().filter(s -> s.material().equals(material)).findFirst().orElseThrow();
        made++;
        double left = 0;
        for (RunPlan.Step s : toMake.subList(made - 1, toMake.size())) left += s.seconds(cores) * pace(s);
        out.printf("table %d of %d: %s, %,d entries; about %s left in the run%n", made, toMake.size(), material.name(), table.entries(),
                RunPlan.duration(left));
        solving.put(material, new Solving(table, clock.nanos()));
    }

    /** A table is solved, in {@code seconds}. */
    synchronized void solved(Material material, double seconds) {
        RunPlan.Step table = solving.remove(material).step;
        plannedSolve[kind(table)] += table.solveSeconds(cores);
        tookSolve[kind(table)] += seconds;
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

    /** How many times the plan's estimate this run's tables of the kind of {@code step} took to solve, 1 until it has measured enough. */
    private double pace(RunPlan.Step step) {
        int k = kind(step);
        return tookSolve[k] >= PACE_AFTER_SECONDS ? tookSolve[k] / plannedSolve[k] : 1;
    }

    private static int kind(RunPlan.Step step) { return step.material().size() > 5 ? 1 : 0; }

    private double seconds(long since) {
        return (clock.nanos() - since) / 1e9;
    }
}
