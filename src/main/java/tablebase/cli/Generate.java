package tablebase.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.generate.TableSolver;
import tablebase.generate.HalfMove;
import tablebase.generate.LoneKingRules;
import tablebase.generate.RetrogradeJob;
import tablebase.generate.WorkFolder;
import tablebase.output.Manifest;
import tablebase.output.OutputFolder;
import tablebase.output.TableExport;
import tablebase.output.TableFolders;
import tablebase.table.SolvedTable;
import tablebase.table.TablePlan;

/** {@code jobs/generate}: solves an endgame on Spark and writes Parquet, the packed file and the manifest. */
public final class Generate {
    static final String USAGE = "usage: generate --endgame KBNK --out DIR [--general] [--work DIR] [--master local[*]] [--partitions N]"
            + " [--overwrite] [--conf spark.key=value ...]";

    /** The Spark property for the fewest entries a partition of a table gets (smaller tables get fewer partitions, down to one task). */
    static final String ENTRIES_PER_PARTITION = "spark.tablebase.entriesPerPartition";

    private Generate() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("generate", USAGE, () -> generate(argv)));
    }

    /** Runs the command and returns its exit code; a Spark session already active is used and left running. */
    public static int generate(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--endgame", "--out", "--work", "--master", "--partitions", "--conf"),
                Set.of("--overwrite", "--general"));
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        Material material = Material.parse(args.required("--endgame"));
        boolean general = args.has("--general") || LoneKingRules.unsupportedReason(material) != null;
        if (general) {
            String why = TableSolver.unsupportedReason(material);
            if (why != null) throw new IllegalArgumentException(why);
        }
        String out = args.required("--out");
        long start = System.nanoTime();

        try (OutputFolder folder = OutputFolder.prepare(out, args.has("--overwrite"))) {
            return SparkOptions.withSession(args, "tablebase-generate", spark -> general
                    ? solveGeneral(spark, material, args, folder, start)
                    : solveAndWrite(spark, new LoneKingRules(material), args, folder, start));
        }
    }

    /**
     * Any pawnless endgame through the general job: the smaller tables its captures reach are read back from
     * the folders beside {@code --out} or generated into them first.
     */
    private static int solveGeneral(SparkSession spark, Material material, Args args, OutputFolder folder, long start)
            throws java.io.IOException {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int partitions = args.positiveInt("--partitions", jsc.defaultParallelism());
        System.out.printf("%s on %s, %d partitions (general job)%n", material.name(), jsc.master(), partitions);
        Manifest.Run run = new Manifest.Run(Versions.project(), spark.version(), jsc.master(), partitions, start);
        TableFolders folders = new TableFolders(spark, material, folder, run, partitions, System.out::println);
        TableSolver solver = new TableSolver(jsc, partitions,
                jsc.getConf().getLong(ENTRIES_PER_PARTITION, TableSolver.ENTRIES_PER_PARTITION), System.out::println);
        Map<Material, SolvedTable> tables = new HashMap<>();
        String work = args.get("--work", null);
        SolvedTable table = null;
        for (Material m : TablePlan.of(material)) {
            table = m.equals(material) ? null : folders.find(m);
            if (table == null) {
                Map<Material, SolvedTable> smaller = new HashMap<>();
                for (Material sub : TablePlan.captures(m)) smaller.put(sub, tables.get(sub));
                table = solver.solve(m, smaller, work);
                folders.write(table, smaller);
                if (work != null) WorkFolder.deleteTable(work, m); // its outputs are in place: its plies are not needed again
            }
            tables.put(m, table);
        }
        if (work != null) WorkFolder.deleteTable(work, null);
        System.out.printf("%s: longest win %d moves with White to move, %d with Black to move; %,d positions a second; done in %.1f s%n",
                material.name(), table.longestWin(Color.WHITE), table.longestWin(Color.BLACK),
                Math.round(table.positions() / Math.max(table.seconds(), 1e-9)), (System.nanoTime() - start) / 1e9);
        return 0;
    }

    private static int solveAndWrite(SparkSession spark, LoneKingRules rules, Args args, OutputFolder folder, long start)
            throws java.io.IOException {
        Material material = rules.material();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int partitions = args.positiveInt("--partitions", jsc.defaultParallelism());
        System.out.printf("%s on %s, %d partitions%n", material.name(), jsc.master(), partitions);
        WorkFolder work = args.has("--work") ? WorkFolder.open(args.get("--work", null), material, partitions) : null;
        if (work != null) {
            List<HalfMove> done = work.finished();
            if (!done.isEmpty()) {
                HalfMove last = done.get(done.size() - 1);
                System.out.printf("resuming from %s: %d half-moves finished, the last %s depth %d%n", work.location(),
                        done.size(), last.side() == Color.WHITE ? "white" : "black", last.depth());
            }
        }
        RetrogradeJob.Solved solved = new RetrogradeJob(jsc, rules, partitions)
                .run(h -> System.out.println(h.progressLine()), work);
        Manifest.Run run = new Manifest.Run(Versions.project(),
                spark.version(), jsc.master(), partitions, start);
        TableExport.write(spark, solved, folder, run);
        folder.commit();
        if (work != null) work.delete(); // the outputs are in place: the half-moves are not needed again
        System.out.printf("%s: %,d White-to-move wins (longest mate %d), %,d Black-to-move losses; wrote %s in %.1f s%n",
                material.name(), solved.total(Color.WHITE), solved.maxDepth(Color.WHITE), solved.total(Color.BLACK),
                folder.target(), (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
