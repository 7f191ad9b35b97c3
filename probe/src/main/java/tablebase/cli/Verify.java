package tablebase.cli;

import java.util.Set;
import tablebase.chess.Material;
import tablebase.probe.Tablebase;

/**
 * {@code jobs/verify}: reads every file of a table (or a folder of tables) that its manifest lists, the packed parts,
 * the seed file and the Parquet files, and checks it against its SHA-256.
 */
public final class Verify {
    static final String USAGE = "usage: verify (--table DIR | --tables DIR)\n"
            + "example: jobs/verify --tables out";

    private Verify() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("verify", USAGE, () -> verify(argv)));
    }

    static int verify(String[] argv) throws Exception {
        Args args = new Args(argv, Cli.tableOptions(), Set.of());
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        long start = System.nanoTime();
        try (Tablebase tables = Cli.openTables(args, Tablebase.Check.SHA256)) {
            System.out.printf("verified %s: every packed, compressed, seed and Parquet file matches the SHA-256 in its manifest (%.1f s)%n",
                    String.join(", ", tables.materials().stream().map(Material::name).toList()), (System.nanoTime() - start) / 1e9);
        }
        return 0;
    }
}
