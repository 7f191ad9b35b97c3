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
    private RunPlan.Step table;
    private long tableStart, lastLine;

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

    /** A table starts: "table k of n", its entries, and the time left in the run. */
    void startTable(Material material) {
        table = toMake.stream().filter(s -> s.material().equals(material)).findFirst().orElseThrow();
        made++;
        double left = 0;
        for (RunPlan.Step s : toMake.subList(made - 1, toMake.size())) left += s.seconds(cores) * pace(s);
        out.printf("table %d of %d: %s, %,d entries; about %s left in the run%n", made, toMake.size(), material.name(), table.entries(),
                RunPlan.duration(left));
        tableStart = lastLine = clock.nanos();
    }

    /** The table started last is solved, in {@code seconds}. */
    void solved(double seconds) {
        plannedSolve[kind(table)] += table.solveSeconds(cores);
        tookSolve[kind(table)] += seconds;
    }

    @Override public void note(String line) {
        out.println(line);
    }

    @Override public void ply(Material material, int ply, long decided, long entries, boolean live, String line) {
        if (verbose) {
            out.println(line);
            return;
        }
        if (!live || table == null || !table.material().equals(material) || seconds(lastLine) < EVERY_SECONDS) return;
        lastLine = clock.nanos();
        double in = seconds(tableStart), estimate = table.solveSeconds(cores) * pace(table);
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
