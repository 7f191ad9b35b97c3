package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.generate.DtzSolve;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.table.DtzCodes;
import io.github.tablebase.table.DtzCount;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TablePlan;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The DTZ kernel on one thread, outside Spark: a table and every smaller table it needs, each solved in memory, with
 * per table its time, entries a second, the five results for each side to move (canonical positions) and the
 * longest DTZ of each side with its position.
 */
public final class DtzBench {
    static final String USAGE = "usage: DtzBench --endgame E [--rule PLIES] [--fen FEN ...]";

    private DtzBench() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("bench-dtz", USAGE, () -> bench(argv)));
    }

    private static int bench(String[] argv) {
        Args args = new Args(argv, Set.of("--endgame", "--rule", "--fen"), Set.of());
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        Material asked = Material.parse(args.required("--endgame"));
        int rule = args.positiveInt("--rule", Dtz.RULE_PLIES);
        for (String fen : args.all("--fen")) // refused before the solving
            if (!Fen.parse(fen).material().tableMaterial().equals(asked.tableMaterial())) throw new Args.UsageException(fen + " is not a " + asked.name() + " position");
        Map<Material, EntryResults> solved = new HashMap<>();
        long all = System.nanoTime();
        for (Material m : TablePlan.of(asked.tableMaterial())) {
            Map<Material, EntryResults> smaller = new HashMap<>();
            for (Material sub : TablePlan.exits(m)) smaller.put(sub, solved.get(sub));
            PositionIndex index = new PositionIndex(m);
            long start = System.nanoTime();
            DtzCodes codes = DtzSolve.solve(index, new MoveGenerator(m), new Successors(m, null, smaller), rule);
            double seconds = (System.nanoTime() - start) / 1e9;
            solved.put(m, codes);
            Runtime rt = Runtime.getRuntime();
            System.out.printf("%s: %,d entries in %.2f s, %,.0f entries/s, heap %,d MB%n", m.name(), codes.size(), seconds,
                    codes.size() / seconds, (rt.totalMemory() - rt.freeMemory()) >> 20);
            for (int side = 0; side < 2; side++) System.out.println("  " + sideFigures(index, codes, side, rule));
        }
        System.out.printf("all %d tables: %.2f s%n", solved.size(), (System.nanoTime() - all) / 1e9);
        for (String fen : args.all("--fen")) {
            Position p = Fen.parse(fen);
            if (!p.material().isTableMaterial()) p = p.coloursSwapped();
            int code = solved.get(p.material()).result(2 * new PositionIndex(p.material()).index(p) + p.sideToMove().ordinal());
            System.out.printf("%s: DTZ %d, WDL %d%n", fen, Dtz.signed(code), Dtz.wdl(code, rule));
        }
        return 0;
    }

    /** One side to move's results (canonical positions) and longest DTZ win and loss, with a position of each. */
    private static String sideFigures(PositionIndex index, DtzCodes codes, int side, int rule) {
        DtzCount f = DtzCount.of(codes, side, rule);
        long[] n = f.byWdl();
        Color c = side == 0 ? Color.WHITE : Color.BLACK;
        return String.format("%s to move: %s; longest win %s, loss %s", side == 0 ? "White" : "Black", DtzCount.fiveResults(n),
                f.longestWinAt() < 0 ? "none" : f.longestWin() + " plies (" + index.position(f.longestWinAt(), c) + ")",
                f.longestLossAt() < 0 ? "none" : f.longestLoss() + " plies (" + index.position(f.longestLossAt(), c) + ")");
    }
}
