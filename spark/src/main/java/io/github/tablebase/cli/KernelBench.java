package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.generate.TableSolver;
import io.github.tablebase.probe.EntryPlane;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.ResultPlane;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableFigures;
import io.github.tablebase.table.TablePlan;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The DTM engine's kernels on one thread, outside Spark: a table and every smaller table it needs, each solved in
 * memory as a table solved in one task is (init, then every ply in place), with per table the seconds of its init and
 * of its plies (and the thread's processor time in each), entries a second and its longest wins. Where an engine change
 * is measured apart from Spark's stages.
 */
public final class KernelBench {
    static final String USAGE = "usage: KernelBench --endgame E [--rounds N]";

    private KernelBench() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("bench-kernel", USAGE, () -> bench(argv)));
    }

    private static int bench(String[] argv) {
        Args args = new Args(argv, Set.of("--endgame", "--rounds"), Set.of());
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        Material asked = Material.parse(args.required("--endgame")).tableMaterial();
        int rounds = args.positiveInt("--rounds", 1);
        if (!TableSolver.fitsOneTask(asked)) throw new Args.UsageException(asked.name() + " does not fit one task: its kernels run over partitions");
        solveInMemory(asked, rounds, (m, s) -> {
            PositionIndex index = new PositionIndex(m);
            TableFigures figures = TableFigures.of(index, 0, s.results().results(), s.results().late());
            long entries = 2 * index.size();
            System.out.printf("%s: %,d entries, init %.2f s, %d plies %.2f s (the thread's processor time %.2f s and %.2f s), %,.0f entries a"
                    + " second; longest win %d moves with White to move, %d with Black%n", m.name(), entries, s.initSeconds(), s.plies(),
                    s.pliesSeconds(), s.initCpuSeconds(), s.pliesCpuSeconds(), entries / (s.initSeconds() + s.pliesSeconds()),
                    figures.longestWin(Color.WHITE), figures.longestWin(Color.BLACK));
        });
        return 0;
    }

    /**
     * Solves {@code asked} and every smaller table it needs in memory on this thread, each as a table solved in one
     * task is, the smaller ones once and {@code asked} {@code rounds} times (the later ones with a warm JIT), handing
     * each solve to {@code each} in that order.
     */
    static void solveInMemory(Material asked, int rounds, java.util.function.BiConsumer<Material, TableSolver.Solved> each) {
        Map<Material, EntryResults> solved = new HashMap<>();
        for (Material m : TablePlan.of(asked)) {
            Map<Material, EntryResults> smaller = new HashMap<>();
            for (Material sub : TablePlan.exits(m)) smaller.put(sub, solved.get(sub));
            for (int round = 0; round < (m.equals(asked) ? rounds : 1); round++) {
                TableSolver.Solved s = TableSolver.solveHere(m, new Successors(m, null, smaller), Result.MAX_PLY);
                each.accept(m, s);
                solved.put(m, new ResultPlane(EntryPlane.of(s.results().results()), s.results().late()));
            }
        }
    }
}
