package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.generate.TableSolver;
import io.github.tablebase.generate.WorkFolder;
import io.github.tablebase.output.OutputFolder;
import io.github.tablebase.output.TableExport;
import io.github.tablebase.output.TableFolders;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.TableFigures;
import io.github.tablebase.table.TablePlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/** {@code jobs/generate}: solves an endgame on Spark and writes Parquet, the packed file and the manifest. */
public final class Generate {
    static final String USAGE = "usage: generate (--endgame KBNK[,KQKR...] | --up-to N [--no-pawns]) --out DIR [--work DIR] [--master local[*]]"
            + " [--partitions N] [--overwrite] [--keep-packed] [--no-parquet] [--dtz] [--verbose] [--figures FILE] [--conf spark.key=value ...]\n"
            + "  one endgame: DIR is its folder, its smaller tables go beside it; several, or every material of up to N pieces:\n"
            + "  DIR is a folder of tables, DIR/kqkr ..., where the tables already there are reused\n"
            + "  a progress line every 10 s says each table's ply and time left; --verbose prints every ply instead\n"
            + "  a table's packed files (*.tbl) go once no table of the run reads them: --keep-packed keeps them;\n"
            + "  --no-parquet leaves out the Parquet rows (for SQL) and keeps the compressed files and manifests alone\n"
            + "  --dtz also writes each table's DTZ under the 50-move rule (every table whose smaller tables have it)\n"
            + "  --figures FILE writes each table's figures (times, heap, plies, shuffle) as a JSON line into FILE\n"
            + "example: jobs/generate --endgame KQKR --out out/kqkr   (its smaller tables go beside it: out/kqk, out/krk)\n"
            + "example: jobs/generate --up-to 4 --out tables";

    private Generate() {}

    /** The heap of the executors registered now, in all ({@code spark.executor.memory} each), or 0 when none has. */
    private static long executorsHeap(JavaSparkContext jsc) {
        int executors = jsc.sc().getExecutorMemoryStatus().size() - 1; // the driver's block manager is one of them
        return executors <= 0 ? 0 : executors * jsc.sc().conf().getSizeAsBytes("spark.executor.memory", "1g");
    }

    public static void main(String[] argv) {
        System.exit(Cli.run("generate", USAGE, () -> generate(argv)));
    }

    /** Runs the command and returns its exit code; a Spark session already active is used and left running. */
    public static int generate(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--endgame", "--up-to", "--out", "--work", "--master", "--partitions", "--conf", "--figures"),
                Set.of("--overwrite", "--no-pawns", "--verbose", "--keep-packed", "--no-parquet", "--dtz"));
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        if (args.has("--endgame") == args.has("--up-to")) throw new Args.UsageException("give --endgame E[,E...] or --up-to N");
        if (args.has("--no-pawns") && !args.has("--up-to")) throw new Args.UsageException("--no-pawns goes with --up-to");
        List<Material> named = args.has("--up-to") ? upTo(args.positiveInt("--up-to", 0), !args.has("--no-pawns"))
                : Stream.of(args.get("--endgame", null).split(",")).map(Material::parse).distinct().toList();
        for (Material m : named)
            if (!m.isTableMaterial()) System.out.printf("%s is %s with the colours swapped: its table is %s%n", m.name(), m.tableMaterial().name(), m.tableMaterial().name());
        List<Material> asked = named.stream().map(Material::tableMaterial).distinct().toList();
        for (Material m : asked) {
            String why = TableSolver.unsupportedReason(m);
            if (why != null) throw new IllegalArgumentException(why);
        }
        String out = args.required("--out");
        long start = System.nanoTime();
        boolean set = asked.size() > 1 || args.has("--up-to");
        if (set && args.has("--overwrite")) throw new Args.UsageException("--overwrite replaces one table; a set reuses the tables its folder holds");

        Object stop = stopOnSignal(args.get("--work", null));
        try {
            if (set) {
                org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(out);
                return SparkOptions.withSession(args, "tablebase-generate", spark -> {
                    folder.getFileSystem(spark.sparkContext().hadoopConfiguration()).mkdirs(folder);
                    return solve(spark, asked, args, run -> TableFolders.ofSet(spark, folder, run, entriesPerFile(spark), System.out::println), start);
                });
            }
            try (OutputFolder folder = OutputFolder.prepare(out, args.has("--overwrite"), SparkOptions.hadoop(args))) {
                return SparkOptions.withSession(args, "tablebase-generate", spark -> solve(spark, asked, args,
                        run -> TableFolders.ofTable(spark, asked.get(0), folder, run, entriesPerFile(spark), System.out::println), start));
            }
        } finally {
            org.apache.spark.util.ShutdownHookManager.removeShutdownHook(stop);
        }
    }

    /** The tables a run of {@code asked} walks, each after the smaller ones it needs, each once. */
    static List<Material> order(List<Material> asked) {
        List<Material> order = new ArrayList<>();
        for (Material m : asked) for (Material step : TablePlan.of(m)) if (!order.contains(step)) order.add(step);
        return order;
    }

    /**
     * Every material of 3 to {@code pieces} pieces, kings included, with or without pawns, once: a set, each material
     * under its {@link Material#tableMaterial} (KQKR, not KRKQ, which is read from it).
     */
    static List<Material> upTo(int pieces, boolean pawns) {
        if (pieces < 3) throw new Args.UsageException("--up-to takes 3 or more pieces, not " + pieces);
        String letters = pawns ? "QRBNP" : "QRBN";
        List<String> sides = new ArrayList<>();
        sides.add("");
        for (int n = 1; n <= pieces - 2; n++) sides.addAll(multisets(letters, n, 0));
        List<Material> all = new ArrayList<>();
        for (String white : sides)
            for (String black : sides)
                if (!white.isEmpty() || !black.isEmpty())
                    if (white.length() + black.length() <= pieces - 2) {
                        Material m = Material.parse("K" + white + "K" + black);
                        if (m.isTableMaterial()) all.add(m);
                    }
        all.sort(java.util.Comparator.comparingInt(Material::size).thenComparing(Material::name));
        return all;
    }

    /** The multisets of {@code n} letters of {@code letters} from position {@code from}, letters in their order. */
    private static List<String> multisets(String letters, int n, int from) {
        if (n == 0) return List.of("");
        List<String> out = new ArrayList<>();
        for (int i = from; i < letters.length(); i++)
            for (String rest : multisets(letters, n - 1, i)) out.add(letters.charAt(i) + rest);
        return out;
    }

    private static long entriesPerFile(SparkSession spark) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        return RunSettings.of(jsc).entriesPerFile();
    }

    /**
     * On SIGINT or SIGTERM: one line instead of the stack traces of the jobs Spark stops, the running jobs cancelled,
     * no partial folder left; the plies saved in the work folder stay for the same command to resume. A hook of Spark's
     * own, above its context's priority: the JVM runs its hooks in no order, and Spark's stop would log before this one.
     */
    private static Object stopOnSignal(String work) {
        return org.apache.spark.util.ShutdownHookManager.addShutdownHook(STOP_PRIORITY, () -> {
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
            TableFolders.discardUnpacked();
            System.err.println("generate: stopped by a signal; no partial folder is left"
                    + (work == null ? "" : ", and the plies saved in " + work + " let the same command resume"));
            System.err.flush();
            // Spark's threads interrupted by the stop print their stack traces through the JVM's default handler
            System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            return scala.runtime.BoxedUnit.UNIT;
        });
    }

    /** Runs before Spark's hook that stops its context (priority 50; higher runs first). */
    private static final int STOP_PRIORITY = org.apache.spark.util.ShutdownHookManager.SPARK_CONTEXT_SHUTDOWN_PRIORITY() + 10;

    /**
     * Walks the plan of tables: the smaller tables the captures reach are checked in their folders or solved and
     * written there first, then the tables asked for (the one table asked for is always made; a set's tables are
     * reused when their folders hold them). A table is written while the next one is solved, unless the next needs
     * its files.
     */
    private static int solve(SparkSession spark, List<Material> asked, Args args, java.util.function.Function<TableExport.Run, TableFolders> where,
                             long start) throws IOException {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int partitions = args.positiveInt("--partitions", jsc.defaultParallelism());
        boolean set = asked.size() > 1 || args.has("--up-to");
        System.out.printf("%s on %s, %d partitions%n", set ? asked.size() + " endgames" : asked.get(0).name(), jsc.master(), partitions);
        boolean parquet = !args.has("--no-parquet");
        TableExport.Run run = new TableExport.Run(Versions.project(), spark.version(), jsc.master(), partitions, start, parquet,
                parquet || args.has("--keep-packed"));
        TableFolders folders = where.apply(run);
        String work = args.get("--work", null);
        Material made = set ? null : asked.get(0); // the one table asked for is made, never reused
        List<Material> order = order(asked);
        RunPlan plan = RunPlan.of(order, folders::present, made, !RunSettings.of(jsc).sliceStorage().useMemory(),
                args.has("--dtz") || RunSettings.of(jsc).dtz(), parquet);
        if (plan.seconds(jsc.defaultParallelism()) >= MachinePace.CALIBRATED_FROM_SECONDS) plan = plan.atPace(MachinePace.measure(jsc));
        long maxHeap = jsc.isLocal() ? Runtime.getRuntime().maxMemory() : executorsHeap(jsc);
        plan.lines(jsc.defaultParallelism(), jsc.isLocal(), maxHeap).forEach(System.out::println);
        if (!set && order.size() > 1)
            System.out.printf("its smaller tables go beside %s, in %s: %s%n", shown(folders.folderOf(made)), shown(folders.folderOf(order.get(0)).getParent()),
                    String.join(" ", order.stream().filter(m -> !m.equals(made)).map(m -> folders.folderOf(m).getName()).toList()));
        String refusal = jsc.isLocal() ? plan.refusal(maxHeap, jsc.defaultParallelism()) : plan.clusterRefusal(maxHeap);
        if (refusal != null) throw new IllegalArgumentException(refusal);
        ProgressLines progress = new ProgressLines(plan, jsc.defaultParallelism(), args.has("--verbose"), System.out, System::nanoTime);
        TableSolver solver = new TableSolver(jsc, partitions, RunSettings.of(jsc).entriesPerPartition(), progress);
        TableRun.Made result;
        scala.Option<String> dtzBefore = spark.conf().getOption(RunSettings.DTZ); // --dtz: for this run, on a session that may be shared
        if (args.has("--dtz")) spark.conf().set(RunSettings.DTZ, "true");
        try (FiguresLog figures = args.has("--figures") ? FiguresLog.to(java.nio.file.Path.of(args.get("--figures", null))) : FiguresLog.none()) {
            result = new TableRun(jsc, solver, folders, progress, work, args.has("--keep-packed"), jsc.defaultParallelism(), figures).run(order, made);
        } finally {
            SparkOptions.restore(spark, RunSettings.DTZ, dtzBefore);
        }
        Map<Material, Double> solveSeconds = result.seconds();
        int count = solveSeconds.size();
        if (work != null) WorkFolder.deleteTable(work, null, spark.sparkContext().hadoopConfiguration());
        if (set) {
            System.out.printf("%d tables in %s: %d made, %d reused; done in %.1f s%n", order.size(), args.get("--out", null), count,
                    order.size() - count, (System.nanoTime() - start) / 1e9);
            printSummary(order, folders, solveSeconds);
        } else {
            TableFigures last = result.figures().get(made);
            System.out.printf("%s: longest win %d moves with White to move, %d with Black to move; %,d positions a second; done in %.1f s%n",
                    made.name(), last.longestWin(Color.WHITE), last.longestWin(Color.BLACK),
                    Math.round(last.canonicalPositions() / Math.max(solveSeconds.get(made), 1e-9)), (System.nanoTime() - start) / 1e9);
            Manifest.DtzFigures dtz = folders.manifest(made).dtz();
            if (dtz != null)
                for (int s = 0; s < 2; s++) {
                    Manifest.DtzSide d = dtz.sides().get(s);
                    System.out.printf("%s under the 50-move rule, %s to move: %s; longest DTZ %d plies to win, %d to lose%n", made.name(),
                            s == 0 ? "White" : "Black", io.github.tablebase.table.DtzCount.fiveResults(new long[] {d.loss(), d.blessedLoss(), d.draw(),
                                    d.cursedWin(), d.win()}), d.longestWin(), d.longestLoss());
                }
        }
        return 0;
    }

    /**
     * The end of a set's run: each table's entries, longest wins of both sides to move, compressed bytes and solving
     * time (made) or "reused", then the set's totals, from the tables' manifests.
     */
    private static void printSummary(List<Material> order, TableFolders folders, Map<Material, Double> solveSeconds) throws IOException {
        String format = "  %-8s %,17d %11s %11s %11s %10s%n";
        System.out.printf("  %-8s %17s %11s %11s %11s %10s%n", "table", "entries", "White wins", "Black wins", "compressed", "solved");
        long entries = 0, compressed = 0, onDisk = 0;
        List<Material> sorted = new ArrayList<>(order);
        sorted.sort(java.util.Comparator.comparingInt(Material::size).thenComparing(Material::name));
        for (Material m : sorted) {
            Manifest manifest = folders.manifest(m);
            long bytes = Manifest.bytes(manifest.compressedFiles());
            Double seconds = solveSeconds.get(m);
            System.out.printf(format, m.name(), manifest.entries(), ListTables.longestWin(manifest, 0), ListTables.longestWin(manifest, 1),
                    ListTables.size(bytes), seconds == null ? "reused" : String.format("%.2f s", seconds));
            entries += manifest.entries();
            compressed += bytes;
            onDisk += folders.bytesOnDisk(m);
        }
        long materials = order.stream().flatMap(m -> Stream.of(m, m.coloursSwapped())).distinct().count();
        System.out.printf("  %d tables answering %d materials: %,d entries, %s compressed, %s on disk; solved in %.1f s summed%n", order.size(),
                materials, entries, ListTables.size(compressed), ListTables.size(onDisk), solveSeconds.values().stream().mapToDouble(Double::doubleValue).sum());
    }

    /** A folder as a user names it: a local one by its path alone. */
    private static String shown(org.apache.hadoop.fs.Path folder) {
        return "file".equals(folder.toUri().getScheme()) ? folder.toUri().getPath() : folder.toString();
    }
}
