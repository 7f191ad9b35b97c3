package io.github.tablebase.cli;

import io.github.tablebase.chess.Material;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * How many times as long as the machine of {@link RunPlan}'s rates this run's machine takes: KRK and KRRK solved in
 * memory on one thread of an executor, then KRRK again, timed by the wall clock (a busy machine is a slower one),
 * against {@link #REFERENCE_SECONDS}. The second KRRK, its JIT warm, varies by 5 % from run to run where the first
 * varied by 30 %, Spark starting beside it. The rates alone said 1.9 to 2.7 times too little on a slower machine of
 * the same kind (2026-12-03), where a plan's estimate should be off by 2 at most.
 */
final class MachinePace {
    /** The table solved, after its smaller table KRK: 3.7 million entries, each solve all of it the engine's kernels. */
    static final Material CALIBRATION = Material.parse("KRRK");
    /**
     * The calibration's seconds on the machine of the rates: 1.17 s on 2026-12-03's machine (the median of five runs of
     * jobs/generate, 1.09 to 1.22 s; 1.32 s in a sixth), where runs took 2.4 to 2.7 times as long as the rates say (the
     * 4-piece set 144.4 s against 60.4, KRNKR over its smaller tables 180.0 and 196.9 s against 73.2, nothing else
     * running), over 2.5. Its kernels alone were 3.9 times as slow as those of the machine the rates were measured on
     * (KPKP: docs/figures.md, Kernels): a run is not all kernels.
     */
    static final double REFERENCE_SECONDS = 1.17 / 2.5;
    /** A plan at the rates' pace shorter than this is mostly fixed costs: it is said without a calibration. */
    static final double CALIBRATED_FROM_SECONDS = 10;

    private MachinePace() {}

    /** This run's pace: the calibration solved in a job of one task, on an executor as the run's tables are. */
    static double measure(JavaSparkContext jsc) {
        jsc.setJobDescription("the machine's pace: " + CALIBRATION.name() + " solved in memory");
        try {
            return jsc.parallelize(List.of(0), 1).map(x -> calibrationSeconds()).first() / REFERENCE_SECONDS;
        } finally {
            jsc.setJobDescription(null);
        }
    }

    /** The seconds of the calibration's second KRRK, solved on this thread. */
    static double calibrationSeconds() {
        double[] seconds = {0};
        KernelBench.solveInMemory(CALIBRATION, 2, (m, s) -> seconds[0] = s.initSeconds() + s.pliesSeconds()); // the last: KRRK again
        return seconds[0];
    }
}
