package tablebase.cli;

import java.util.Random;
import java.util.Set;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Position;
import tablebase.probe.Tablebase;

/**
 * Probe throughput on one thread, after the table is open: DTM lookups of random legal positions (the
 * positions are made before the clock starts), and whole probes with moves, SAN and the mainline.
 */
public final class ProbeBench {
    static final String USAGE = "usage: ProbeBench (--table DIR | --tables DIR) [--endgame E] [--positions N] [--rounds R]";

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

    static int bench(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--table", "--tables", "--endgame", "--positions", "--rounds"), Set.of());
        int n = args.positiveInt("--positions", 1_000_000), rounds = args.positiveInt("--rounds", 5);
        long t0 = System.nanoTime();
        Tablebase table = Cli.openTables(args);
        System.out.printf("open (map the files, read their headers): %.1f ms%n", (System.nanoTime() - t0) / 1e6);

        String endgame = args.get("--endgame", null);
        Material material = endgame == null ? table.materials().get(0) : Material.parse(endgame);
        Random random = new Random(1);
        for (Color side : new Color[] {Color.WHITE, Color.BLACK, null}) {
            Position[] positions = new Position[n];
            for (int i = 0; i < n; i++)
                positions[i] = Position.randomLegal(material, side != null ? side : random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
            System.gc(); // a full collection lays the positions out in the order they were made, not as a young collection copied them
            long sink = 0;
            double best = 0;
            for (int r = 0; r <= rounds; r++) { // round 0 warms the JIT up
                long start = System.nanoTime();
                sink += lookups(table, positions);
                double perSecond = n / ((System.nanoTime() - start) / 1e9);
                if (r > 0) best = Math.max(best, perSecond);
            }
            System.out.printf("%s dtm lookups, %-15s %,12.0f probes/s on one thread (best of %d rounds over %,d positions; checksum %d)%n",
                    material, side == null ? "either side:" : side == Color.WHITE ? "White to move:" : "Black to move:", best, rounds, n, sink);
            int[] dtm = new int[n];
            best = 0;
            for (int r = 0; r <= rounds; r++) {
                long start = System.nanoTime();
                table.probeDtm(positions, dtm);
                double perSecond = n / ((System.nanoTime() - start) / 1e9);
                if (r > 0) best = Math.max(best, perSecond);
            }
            long batchSum = 0;
            for (int d : dtm) batchSum += d;
            if (batchSum != sink / (rounds + 1)) throw new IllegalStateException("the batch gives other DTMs than one by one");
            System.out.printf("%s dtm lookups, %-15s %,12.0f probes/s on one thread, the whole array at once (probeDtm(Position[], int[]))%n",
                    material, side == null ? "either side:" : side == Color.WHITE ? "White to move:" : "Black to move:", best);
        }

        int full = Math.min(n, 20_000);
        Position[] positions = new Position[full];
        for (int i = 0; i < full; i++) positions[i] = Position.randomLegal(material, random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
        double best = 0;
        long plies = 0;
        for (int r = 0; r <= rounds; r++) {
            long start = System.nanoTime();
            plies = 0;
            for (Position p : positions) plies += table.probe(p).mainline().size();
            if (r > 0) best = Math.max(best, full / ((System.nanoTime() - start) / 1e9));
        }
        System.out.printf("%s whole probes (every move with SAN, mainline): %,.0f probes/s on one thread (mean mainline %.1f plies)%n",
                material, best, (double) plies / full);
        return 0;
    }
}
