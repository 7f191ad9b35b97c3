package tablebase.cli;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.generate.SmallerTables;
import tablebase.generate.TableSolver;
import tablebase.generate.WorkFolder;
import tablebase.output.OutputFolder;
import tablebase.output.TableExport;
import tablebase.output.TableFolders;
import tablebase.probe.IndexedTable;
import tablebase.table.SolvedTable;
import tablebase.table.TableFiles;
import tablebase.table.TablePlan;

/** {@code jobs/generate}: solves an endgame on Spark and writes Parquet, the packed file and the manifest. */
public final class Generate {
    static final String USAGE = "usage: generate --endgame KBNK --out DIR [--work DIR] [--master local[*]] [--partitions N]"
            + " [--overwrite] [--conf spark.key=value ...]\n"
            + "example: jobs/generate --endgame KQKR --out out/kqkr   (its smaller tables go beside it: out/kqk, out/kkr)";

    /** The Spark property for the fewest entries a partition of a table gets (smaller tables get fewer partitions, down to one task). */
    public static final String ENTRIES_PER_PARTITION = TableSolver.ENTRIES_PER_PARTITION_SETTING;

    /** The Spark property for the most entries a packed part file holds (a table of more is written as several part files). */
    public static final String ENTRIES_PER_FILE = "spark.tablebase.entriesPerFile";

    private Generate() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("generate", USAGE, () -> generate(argv)));
    }

    /** Runs the command and returns its exit code; a Spark session already active is used and left running. */
    public static int generate(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--endgame", "--out", "--work", "--master", "--partitions", "--conf"),
                Set.of("--overwrite"));
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        Material material = Material.parse(args.required("--endgame"));
        String why = TableSolver.unsupportedReason(material);
        if (why != null) throw new IllegalArgumentException(why);
        String out = args.required("--out");
        long start = System.nanoTime();

        Thread stop = stopOnSignal(args.get("--work", null));
        try (OutputFolder folder = OutputFolder.prepare(out, args.has("--overwrite"), SparkOptions.hadoop(args))) {
            return SparkOptions.withSession(args, "tablebase-generate", spark -> solve(spark, material, args, folder, start));
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException e) {
                // shutting down already: the hook runs
            }
        }
    }

    /**
     * On SIGINT or SIGTERM: one line instead of the stack traces of the jobs Spark stops, the running jobs cancelled,
     * no partial folder left; the plies saved in the work folder stay for the same command to resume.
     */
    private static Thread stopOnSignal(String work) {
        Thread hook = new Thread(() -> {
            Cli.stopping();
            org.apache.logging.log4j.core.config.Configurator.setRootLevel(org.apache.logging.log4j.Level.OFF);
            SparkSession.getDefaultSession().foreach(spark -> {
                try {
                    if (!spark.sparkContext().isStopped()) spark.sparkContext().cancelAllJobs();
                } catch (RuntimeException e) {
                    // Spark's own shutdown hook stopped it meanwhile
                }
                return null;
            });
            OutputFolder.discardUncommitted();
            System.err.println("generate: stopped by a signal; no partial folder is left"
                    + (work == null ? "" : ", and the plies saved in " + work + " let the same command resume"));
        }, "generate-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /**
     * Walks the plan of tables: the smaller tables the captures reach are checked in the folders beside
     * {@code --out} or solved and written there first, then the table asked for. A table is written while the next
     * one is solved, unless the next needs its files.
     */
    private static int solve(SparkSession spark, Material material, Args args, OutputFolder folder, long start)
            throws IOException {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int partitions = args.positiveInt("--partitions", jsc.defaultParallelism());
        System.out.printf("%s on %s, %d partitions%n", material.name(), jsc.master(), partitions);
        TableExport.Run run = new TableExport.Run(Versions.project(), spark.version(), jsc.master(), partitions, start);
        TableFolders folders = new TableFolders(spark, material, folder, run,
                Long.parseLong(TableSolver.setting(jsc, ENTRIES_PER_FILE, Long.toString(IndexedTable.ENTRIES_PER_FILE))), System.out::println);
        TableSolver solver = new TableSolver(jsc, partitions,
                Long.parseLong(TableSolver.setting(jsc, ENTRIES_PER_PARTITION, Long.toString(TableSolver.ENTRIES_PER_PARTITION))), System.out::println);
        String work = args.get("--work", null);
        Map<Material, Future<TableFiles>> written = new HashMap<>();
        SolvedTable table = null;
        RunPlan plan = RunPlan.of(TablePlan.of(material), folders::present, material);
        long maxHeap = Runtime.getRuntime().maxMemory();
        plan.lines(jsc.defaultParallelism(), jsc.isLocal(), maxHeap).forEach(System.out::println);
        String refusal = jsc.isLocal() ? plan.refusal(maxHeap) : null;
        if (refusal != null) throw new IllegalArgumentException(refusal);
        int made = 0, toMake = plan.toMake().size();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            for (Material m : TablePlan.of(material)) {
                for (Future<TableFiles> w : written.values()) if (w.isDone()) finished(w); // a failed write stops the run
                TableFiles found = m.equals(material) ? null : folders.find(m);
                if (found != null) {
                    written.put(m, CompletableFuture.completedFuture(found));
                    continue;
                }
                System.out.printf("table %d of %d: %s%n", ++made, toMake, m.name());
                Map<Material, TableFiles> smaller = new HashMap<>();
                for (Material sub : TablePlan.exits(m)) smaller.put(sub, finished(written.get(sub))); // its files, once written
                SmallerTables subs = new SmallerTables(jsc, m, smaller);
                SolvedTable solved = solver.solve(m, subs, work);
                written.put(m, writer.submit(() -> {
                    try {
                        TableFiles files = folders.write(solved, subs);
                        if (work != null) WorkFolder.deleteTable(work, m, spark.sparkContext().hadoopConfiguration()); // its outputs are in place: its plies are not needed again
                        return files;
                    } finally {
                        solved.release();
                        subs.release();
                    }
                }));
                table = solved;
            }
            for (Future<TableFiles> w : written.values()) finished(w);
        } finally {
            writer.shutdownNow();
        }
        if (work != null) WorkFolder.deleteTable(work, null, spark.sparkContext().hadoopConfiguration());
        System.out.printf("%s: longest win %d moves with White to move, %d with Black to move; %,d positions a second; done in %.1f s%n",
                material.name(), table.figures().longestWin(Color.WHITE), table.figures().longestWin(Color.BLACK),
                Math.round(table.figures().canonicalPositions() / Math.max(table.seconds(), 1e-9)), (System.nanoTime() - start) / 1e9);
        return 0;
    }

    /** Waits for a write and returns the table's files, or throws what made it fail. */
    private static TableFiles finished(Future<TableFiles> write) throws IOException {
        try {
            return write.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the tables", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IOException(e.getCause());
        }
    }
}
