package io.github.tablebase.cli;

import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.SampleCheck;
import io.github.tablebase.probe.Tablebase;
import java.util.List;
import java.util.Set;

/**
 * {@code jobs/verify}: reads every file of a table (or a folder of tables) that its manifest lists, the packed parts,
 * the seed file and the Parquet files, and checks it against its SHA-256; with {@code --sample N}, checks instead N
 * random positions of each table against their moves ({@link SampleCheck}).
 */
public final class Verify {
    static final String USAGE = "usage: verify (--table DIR | --tables DIR) [--sample N [--seed S]]\n"
            + "  checks every file against the SHA-256 in its manifest; with --sample, then N random positions of each table\n"
            + "  against what their moves imply (through captures into the smaller tables), their best moves, and the\n"
            + "  compressed files against the packed ones where kept, on every core (the same positions for a seed on any\n"
            + "  machine), a line a table and a total\n"
            + "example: jobs/verify --tables out";

    private Verify() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("verify", USAGE, () -> verify(argv)));
    }

    static int verify(String[] argv) throws Exception {
        Args args = new Args(argv, Cli.tableOptions("--sample", "--seed"), Set.of());
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        if (args.has("--sample")) return sample(args);
        long start = System.nanoTime();
        try (Tablebase tables = Cli.openTables(args, Tablebase.Check.SHA256)) {
            System.out.printf("verified %s: every packed, compressed, seed and Parquet file matches the SHA-256 in its manifest (%.1f s)%s%n",
                    String.join(", ", tables.materials().stream().map(Material::name).toList()), (System.nanoTime() - start) / 1e9, refusedNote(tables));
            return tables.refused().isEmpty() ? 0 : 1;
        }
    }

    /** What the total says of the tables left out (each told in a line of its own before): nothing when none. */
    private static String refusedNote(Tablebase tables) {
        int n = tables.refused().size();
        return n == 0 ? "" : "; " + n + (n == 1 ? " table" : " tables") + " damaged or unreadable, left out (see above)";
    }

    /**
     * Checks every file's SHA-256, then {@code --sample} positions of every table, a line each and a total; exit 1 when
     * any disagrees.
     */
    private static int sample(Args args) throws Exception {
        int positions = args.positiveInt("--sample", 0);
        long seed = args.get("--seed", null) == null ? 1 : Long.parseLong(args.get("--seed", null));
        long start = System.nanoTime(), checked = 0;
        int failed = 0;
        // the checksums first: a damaged file is a CorruptTableException, one line and exit 1
        int refused;
        Set<Material> leftOut = new java.util.HashSet<>();
        try (Tablebase sums = Cli.openTables(args, Tablebase.Check.SHA256)) {
            System.out.printf("%d tables: every file matches the SHA-256 in its manifest (%.1f s)%s%n", sums.materials().size(),
                    (System.nanoTime() - start) / 1e9, refusedNote(sums));
            refused = sums.refused().size();
            for (Tablebase.Refused r : sums.refused()) if (r.material() != null) leftOut.add(r.material());
        }
        List<Material> materials;
        // the packed files against the compressed ones, half the cache each; where no packed files are kept (a finished
        // set), one tablebase of the compressed files with the whole cache, not the same blocks decoded twice
        Tablebase packed = Cli.openTables(args, Tablebase.Check.HEADERS, Tablebase.Source.PACKED, 2);
        boolean anyPacked = packed.materials().stream().anyMatch(packed::readsPacked);
        if (!anyPacked) {
            packed.close();
            packed = Cli.openTables(args, Tablebase.Check.HEADERS, Tablebase.Source.COMPRESSED_FIRST, 1);
        }
        Tablebase compressed = anyPacked ? Cli.openTables(args, Tablebase.Check.HEADERS, Tablebase.Source.COMPRESSED_FIRST, 2) : packed;
        try {
            materials = packed.materials().stream().filter(m -> !leftOut.contains(m) && compressed.materials().contains(m)).toList();
            for (Material m : materials) {
                long tableStart = System.nanoTime();
                SampleCheck.Report r = SampleCheck.run(packed, compressed, m, positions, seed);
                System.out.printf("%s: %,d random positions checked against their moves%s in %.1f s: %s%n", m.name(), r.checked(),
                        packed.readsPacked(m) ? ", best moves and compressed file" : " (compressed files: no packed ones kept)",
                        (System.nanoTime() - tableStart) / 1e9, r.mismatches() == 0 ? "all agree" : r.mismatches() + " disagree, first " + r.firstMismatch());
                checked += r.checked();
                if (r.mismatches() > 0) failed++;
            }
        } finally {
            packed.close();
            if (compressed != packed) compressed.close();
        }
        System.out.printf("%d tables, %,d positions checked in %.1f s: %s%s%n", materials.size(), checked, (System.nanoTime() - start) / 1e9,
                failed == 0 ? "all agree" : failed + " tables disagree", refused == 0 ? "" : "; " + refused + " left out as damaged");
        return failed == 0 && refused == 0 ? 0 : 1;
    }
}
