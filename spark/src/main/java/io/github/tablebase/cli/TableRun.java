package io.github.tablebase.cli;

import io.github.tablebase.chess.Material;
import io.github.tablebase.generate.TableSolver;
import io.github.tablebase.generate.WorkFolder;
import io.github.tablebase.output.TableFolders;
import io.github.tablebase.table.DtzFiles;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.SolvedTable;
import io.github.tablebase.table.TableFigures;
import io.github.tablebase.table.TableFiles;
import io.github.tablebase.table.TablePlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A run's walk through its plan: each table to make is solved as soon as the tables its captures and promotions reach
 * are written, then written on a writer thread while other tables solve. Tables solved in one task (every table of up
 * to 4 pieces) solve side by side, one a core; so does a table that fits one task (every table of up to 5 pieces) when
 * another table solves or waits beside it, else it solves alone over several partitions, on every core. Unless
 * the packed files are kept, a table's are dropped once every table of the run that reads them is written, so that a
 * finished set holds its compressed files, manifests and Parquet.
 */
final class TableRun {
    private final JavaSparkContext jsc;
    private final TableSolver solver;
    private final TableFolders folders;
    private final ProgressLines progress;
    private final String work;
    private final boolean keepPacked;
    private final int cores;
    private final FiguresLog figuresLog;

    /** What the run made: each table's solving time and figures. */
    record Made(Map<Material, Double> seconds, Map<Material, TableFigures> figures) {}

    /** A table solved, the smaller tables it read (released once it is written), its DTZ to write beside it (or null). */
    private record Solved(SolvedTable table, SmallerTables smaller, JavaRDD<SolvedPartition> dtz) {}

    TableRun(JavaSparkContext jsc, TableSolver solver, TableFolders folders, ProgressLines progress, String work, boolean keepPacked, int cores,
             FiguresLog figuresLog) {
        this.jsc = jsc;
        this.solver = solver;
        this.folders = folders;
        this.progress = progress;
        this.work = work;
        this.keepPacked = keepPacked;
        this.cores = cores;
        this.figuresLog = figuresLog;
    }

    /** Makes the tables of {@code order} (those its folders do not hold, and {@code made} always), smaller first. */
    Made run(List<Material> order, Material made) throws IOException {
        Map<Material, CompletableFuture<TableFiles>> written = new HashMap<>();
        Made result = new Made(new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Cores coresFree = new Cores(cores);
        ExecutorService solvers = Executors.newFixedThreadPool(cores), writer = Executors.newSingleThreadExecutor(),
                unpacker = Executors.newSingleThreadExecutor();
        Readers readers = new Readers(order);
        Map<Material, TableFolders.Found> found = new HashMap<>();
        for (Material m : order) {
            TableFolders.Found f = m.equals(made) ? null : folders.find(m);
            if (f != null) found.put(m, f);
        }
        CompletableFuture<Void> walked = new CompletableFuture<>(); // the plan walked: every table ready at the start is counted before one takes cores
        try {
            for (Material m : order) {
                rethrow(failure.get());
                if (found.containsKey(m)) {
                    TableFiles packed = found.get(m).packed();
                    written.put(m, packed != null ? CompletableFuture.completedFuture(packed) : unpackedIfRead(m, order, found, written, unpacker));
                    readers.done(m);
                    continue;
                }
                Map<Material, CompletableFuture<TableFiles>> needs = new HashMap<>();
                for (Material sub : TablePlan.exits(m)) needs.put(sub, written.get(sub));
                List<CompletableFuture<?>> before = new ArrayList<>(needs.values());
                before.add(walked);
                CompletableFuture<TableFiles> files = CompletableFuture.allOf(before.toArray(CompletableFuture[]::new))
                        .thenRun(coresFree::ready)
                        .thenApplyAsync(v -> solve(m, needs, coresFree, result, failure), solvers)
                        .thenApplyAsync(s -> write(s, readers, coresFree), writer);
                files.whenComplete((f, e) -> {
                    if (e != null && failure.compareAndSet(null, cause(e))) jsc.cancelAllJobs(); // the others stop: the run reports the first
                });
                written.put(m, files);
            }
            coresFree.open(walked);
            settle(written.values());
            rethrow(failure.get());
            readers.dropAll();
            return result;
        } catch (IOException | RuntimeException e) {
            if (failure.compareAndSet(null, e)) jsc.cancelAllJobs();
            coresFree.open(walked);
            settle(written.values());
            throw e;
        } finally {
            solvers.shutdownNow();
            writer.shutdownNow();
            unpacker.shutdownNow();
            folders.deleteUnpacked();
        }
    }

    /**
     * A table found with its compressed files alone: its packed files made again once every table it reaches is
     * written, if a table this run makes reads it; else never (null).
     */
    private CompletableFuture<TableFiles> unpackedIfRead(Material m, List<Material> order, Map<Material, TableFolders.Found> found,
                                                         Map<Material, CompletableFuture<TableFiles>> written, ExecutorService unpacker) {
        if (order.stream().noneMatch(r -> !found.containsKey(r) && TablePlan.exits(r).contains(m))) return CompletableFuture.completedFuture(null);
        CompletableFuture<?>[] reached = TablePlan.of(m).stream().filter(t -> !t.equals(m)).map(written::get).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(reached).thenApplyAsync(v -> {
            try {
                return folders.unpack(m);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, unpacker);
    }

    /** Solves a table once its smaller tables are written, holding one core (in one task) or all of them. */
    private Solved solve(Material m, Map<Material, CompletableFuture<TableFiles>> needs, Cores coresFree, Made result,
                         AtomicReference<Throwable> failure) {
        int share = coresFree.take(solver.partitions(m) == 1, cores > 1 && TableSolver.fitsOneTask(m));
        try {
            if (failure.get() != null) throw new CompletionException(failure.get());
            progress.startTable(m);
            Map<Material, TableFiles> smaller = new HashMap<>();
            for (Map.Entry<Material, CompletableFuture<TableFiles>> e : needs.entrySet()) smaller.put(e.getKey(), e.getValue().join());
            boolean dtzAsked = RunSettings.of(jsc).dtz();
            Map<Material, DtzFiles> dtz = new HashMap<>();
            if (dtzAsked)
                for (Material sub : smaller.keySet()) {
                    DtzFiles files = folders.dtzFiles(sub);
                    if (files != null) dtz.put(sub, files);
                }
            SmallerTables subs = new SmallerTables(jsc, m, smaller, dtz);
            if (dtzAsked && !subs.haveDtz()) progress.note(m.name() + ": no DTZ: a smaller table it reaches was made without its DTZ");
            SolvedTable solved = solver.solve(m, subs, work, share < cores && solver.partitions(m) > 1);
            JavaRDD<SolvedPartition> dtzPlane = dtzAsked && subs.haveDtz() ? solver.solveDtz(solved, subs, work) : null;
            progress.solved(m);
            coresFree.solved();
            result.seconds().put(m, solved.solve().seconds());
            result.figures().put(m, solved.figures());
            return new Solved(solved, subs, dtzPlane);
        } catch (IOException e) {
            throw new CompletionException(e);
        } finally {
            coresFree.give(share);
        }
    }

    /** Writes a solved table into its folder, then drops the packed files no table of the run still reads. */
    private TableFiles write(Solved s, Readers readers, Cores coresFree) {
        Material m = s.table().material();
        try {
            TableFolders.Wrote wrote = folders.write(s.table(), s.smaller(), s.dtz());
            progress.written(m);
            figuresLog.table(s.table(), wrote);
            long windows = s.smaller().windowBytesRead();
            if (windows > 0)
                progress.note(String.format("%s: read its smaller tables larger than %s a king pair at a time, %,.1f MB in all", m.name(),
                        RunSettings.SMALLER_TABLE_BYTES, windows / 1e6));
            TableFiles files = wrote.files();
            if (work != null) WorkFolder.deleteTable(work, m, jsc.hadoopConfiguration()); // its outputs are in place: its plies are not needed again
            readers.done(m);
            return files;
        } catch (IOException e) {
            throw new CompletionException(e);
        } finally {
            s.table().release();
            if (s.dtz() != null) s.dtz().unpersist(false);
            s.smaller().release();
            coresFree.written();
        }
    }

    /**
     * Which tables of the run read each table's packed files, and which tables are written: a table's packed files
     * go once it and every table reading them are written (the files unpacked for this run always; the tables' own
     * unless kept).
     */
    private final class Readers {
        private final Map<Material, Set<Material>> readers = new HashMap<>();
        private final Set<Material> done = new HashSet<>(), dropped = new HashSet<>();

        /** Each table of the run reads the tables its captures and promotions reach (a table found written reads none). */
        Readers(List<Material> order) {
            for (Material m : order) for (Material sub : TablePlan.exits(m)) readers.computeIfAbsent(sub, k -> new HashSet<>()).add(m);
        }

        /** A table written (or found written): the packed files that no table left to write reads are dropped. */
        synchronized void done(Material m) throws IOException {
            done.add(m);
            for (Material t : new ArrayList<>(done))
                if (!dropped.contains(t) && done.containsAll(readers.getOrDefault(t, Set.of()))) drop(t);
        }

        synchronized void dropAll() throws IOException {
            for (Material t : new ArrayList<>(done)) if (!dropped.contains(t)) drop(t);
        }

        private void drop(Material t) throws IOException {
            folders.releasePacked(t, keepPacked);
            dropped.add(t);
        }
    }

    /**
     * The run's cores, lent to the tables that solve; no table starts while as many solved tables wait for the writer
     * as there are cores, so that solved tables do not pile up in memory when writing is the slower.
     */
    static final class Cores {
        private final int total;
        /** Cores no table holds; tables whose smaller tables are written and that hold no core yet; tables solved, not yet written. */
        private int free, ready, unwritten;
        /** Whether the tables ready at the start are counted. */
        private boolean open;

        Cores(int total) {
            this.total = total;
            this.free = total;
        }

        /** Counts the tables ready at the start (completing {@code walked} counts them, on this thread), then lends cores. */
        void open(CompletableFuture<Void> walked) {
            walked.complete(null);
            synchronized (this) {
                open = true;
                notifyAll();
            }
        }

        /** A table's smaller tables are written: it may solve. */
        synchronized void ready() {
            ready++;
        }

        /**
         * Waits for cores and returns how many a {@link #ready} table takes: one when it is solved in one task
         * ({@code oneTask}), or may be ({@code mayShare}) and another table solves or may solve beside it; else all.
         */
        synchronized int take(boolean oneTask, boolean mayShare) {
            try {
                while (true) {
                    boolean others = ready > 1 || free < total;
                    if (!open || unwritten >= total) {
                        wait(); // the tables ready at the start are not all counted yet, or the writer is behind
                        continue;
                    }
                    if (oneTask || mayShare && others) {
                        if (free > 0) {
                            free--;
                            ready--;
                            return 1;
                        }
                    } else if (free == total) {
                        free = 0;
                        ready--;
                        return total;
                    }
                    wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CompletionException(e);
            }
        }

        synchronized void give(int n) {
            free += n;
            notifyAll();
        }

        /** A table is solved: it waits for the writer. */
        synchronized void solved() {
            unwritten++;
        }

        /** A solved table is written (or failed). */
        synchronized void written() {
            unwritten--;
            notifyAll();
        }
    }

    /** Waits for every future to end, whatever its outcome. */
    private static void settle(Iterable<CompletableFuture<TableFiles>> futures) {
        for (CompletableFuture<TableFiles> f : futures) {
            try {
                f.join();
            } catch (RuntimeException e) {
                // its failure is the run's, or follows from it
            }
        }
    }

    private static Throwable cause(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) e = e.getCause();
        return e;
    }

    private static void rethrow(Throwable e) throws IOException {
        if (e == null) return;
        if (e instanceof IOException io) throw io;
        if (e instanceof RuntimeException r) throw r;
        if (e instanceof Error error) throw error;
        throw new IOException(e);
    }
}
