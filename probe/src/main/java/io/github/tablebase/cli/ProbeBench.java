package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.Tablebase;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;

/**
 * Probe throughput on one thread, after the table is open: DTM lookups of random legal positions, made before the
 * clock starts, each round on positions no round probed before (so that a table larger than the caches is read from
 * memory, not from what the last round left in cache); whole probes with moves, SAN and the mainline, warm and each
 * on a table just opened (cold).
 */
public final class ProbeBench {
    static final String USAGE = "usage: ProbeBench (--table DIR | --tables DIR) [--cache-mb N] [--packed] [--endgame E] [--positions N] [--rounds R]";

    private ProbeBench() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("probe-bench", USAGE, () -> bench(argv)));
    }

    /** One round of lookups, in a method of its own: compiled whole, not replaced on the stack mid-loop. */
    private static long lookups(Tablebase table, Position[] positions) {
        long sum = 0;
        for (Position p : positions) sum += table.probeDtm(p);
        return sum;
    }

    /** Random legal positions, {@code side} to move (either when null), laid out in the order they were made. */
    private static Position[] randomPositions(Material material, Color side, int n, Random random) {
        Position[] positions = new Position[n];
        for (int i = 0; i < n; i++)
            positions[i] = Position.randomLegal(material, side != null ? side : random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
        System.gc(); // a full collection lays the positions out in the order they were made, not as a young collection copied them
        return positions;
    }

    /** The median and best of the timed rounds (round 0 left out). */
    private static String spread(double[] perSecond) {
        double[] timed = Arrays.copyOfRange(perSecond, 1, perSecond.length);
        Arrays.sort(timed);
        return String.format("median %,12.0f, best %,12.0f", timed[timed.length / 2], timed[timed.length - 1]);
    }

    /** The median and 95th percentile of some times in milliseconds. */
    private static String percentiles(double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return String.format("median %.3f ms, 95th percentile %.3f ms", sorted[sorted.length / 2], sorted[(int) (0.95 * (sorted.length - 1))]);
    }

    /** Lookups of random positions of {@code side} to move (either when null): new ones each round, the last again, batched. */
    private static void lookupFigures(Tablebase table, Material material, Color side, int n, int rounds, Random random) {
        String label = side == null ? "either side:" : side == Color.WHITE ? "White to move:" : "Black to move:";
        double[] oneByOne = new double[rounds + 1], batched = new double[rounds + 1], again = new double[rounds + 1];
        int[] dtm = new int[n];
        Position[] positions = null;
        long sum = 0;
        for (int r = 0; r <= rounds; r++) { // round 0 warms the JIT up; each round probes positions no round probed before
            positions = randomPositions(material, side, n, random);
            long start = System.nanoTime();
            sum = lookups(table, positions);
            oneByOne[r] = n / ((System.nanoTime() - start) / 1e9);
            Position[] others = randomPositions(material, side, n, random);
            start = System.nanoTime();
            table.probeDtm(others, dtm);
            batched[r] = n / ((System.nanoTime() - start) / 1e9);
        }
        for (int r = 0; r <= rounds; r++) { // the last round's positions again: their entries are in cache as far as it holds them
            long start = System.nanoTime();
            if (lookups(table, positions) != sum) throw new IllegalStateException("the same positions gave other DTMs");
            again[r] = n / ((System.nanoTime() - start) / 1e9);
        }
        table.probeDtm(positions, dtm);
        long batchSum = 0;
        for (int d : dtm) batchSum += d;
        if (batchSum != sum) throw new IllegalStateException("the batch gives other DTMs than one by one");
        System.out.printf("%s dtm lookups, %-15s %s probes/s on one thread, one by one (%,d new positions a round)%n", material, label, spread(oneByOne), n);
        System.out.printf("%s dtm lookups, %-15s %s probes/s on one thread, one by one, the same positions again%n", material, label, spread(again));
        System.out.printf("%s dtm lookups, %-15s %s probes/s on one thread, the whole array at once (probeDtm(Position[], int[]), new positions)%n", material, label, spread(batched));
    }

    /** Whole probes of {@code positions}, round after round on the same table: its blocks held as far as its cache holds them. */
    private static void wholeProbeFigures(Tablebase table, Material material, Position[] positions, int rounds) {
        double best = 0;
        long plies = 0;
        double[] ms = new double[positions.length];
        for (int r = 0; r <= rounds; r++) {
            long start = System.nanoTime();
            plies = 0;
            for (int k = 0; k < positions.length; k++) {
                long one = System.nanoTime();
                plies += table.probe(positions[k]).mainline().size();
                ms[k] = (System.nanoTime() - one) / 1e6;
            }
            if (r > 0) best = Math.max(best, positions.length / ((System.nanoTime() - start) / 1e9));
        }
        System.out.printf("%s whole probes (every move with SAN, mainline), warm: %,.0f probes/s on one thread, the last round's %s (mean mainline %.1f plies)%n",
                material, best, percentiles(ms), (double) plies / positions.length);
        System.out.printf("decompressed blocks held: %,d of at most %,d bytes; heap used %,d MB%n", table.cacheUsed(), table.cacheBudget(),
                (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
    }

    /** A side to move whose positions the table of {@code material} stores: a lookup of it reads one entry. */
    private static Color storedSide(Tablebase table, Material material) { return table.stores(material, Color.WHITE) ? Color.WHITE : Color.BLACK; }

    /** A first lookup, and a whole probe, each on a table just opened: the blocks they need decoded from the files. */
    private static void coldFigures(Args args, Material material, Position[] positions, Random random) throws Exception {
        double[] firstLookups = new double[20];
        for (int k = 0; k < firstLookups.length; k++) {
            try (Tablebase again = Cli.openTables(args)) { // the JVM warm, the table's blocks not yet held
                Position p = Position.randomLegal(material, storedSide(again, material), random);
                long start = System.nanoTime();
                again.probeDtm(p);
                firstLookups[k] = (System.nanoTime() - start) / 1e6;
            }
        }
        System.out.printf("a first lookup after open, the JVM warm, %d random positions (each in a block not yet held): %s%n", firstLookups.length, percentiles(firstLookups));
        double[] cold = new double[Math.min(positions.length, 200)];
        long plies = 0;
        for (int k = 0; k < cold.length; k++) {
            try (Tablebase again = Cli.openTables(args)) {
                long start = System.nanoTime();
                plies += again.probe(positions[k]).mainline().size();
                cold[k] = (System.nanoTime() - start) / 1e6;
            }
        }
        System.out.printf("%s whole probes, cold (each on a Tablebase just opened, the JVM warm), %d random positions: %s (mean mainline %.1f plies)%n",
                material, cold.length, percentiles(cold), (double) plies / cold.length);
    }

    static int bench(String[] argv) throws Exception {
        Args args = new Args(argv, Cli.tableOptions("--endgame", "--positions", "--rounds"), Set.of(Cli.TABLE_FLAG));
        int n = args.positiveInt("--positions", 1_000_000), rounds = args.positiveInt("--rounds", 5);
        long t0 = System.nanoTime();
        Tablebase table = Cli.openTables(args);
        System.out.printf("open (map the files, read their headers): %.1f ms%n", (System.nanoTime() - t0) / 1e6);

        String endgame = args.get("--endgame", null);
        Material material = endgame == null ? table.materials().get(0) : Material.parse(endgame);
        Random random = new Random(1);
        Position first = Position.randomLegal(material, storedSide(table, material), random);
        t0 = System.nanoTime();
        table.probeDtm(first);
        System.out.printf("first lookup after open (its block read from the file and decompressed when compressed): %.2f ms%n", (System.nanoTime() - t0) / 1e6);
        for (Color side : new Color[] {Color.WHITE, Color.BLACK, null}) lookupFigures(table, material, side, n, rounds, random);
        Position[] positions = randomPositions(material, null, Math.min(n, 20_000), random);
        wholeProbeFigures(table, material, positions, rounds);
        coldFigures(args, material, positions, random);
        return 0;
    }
}
