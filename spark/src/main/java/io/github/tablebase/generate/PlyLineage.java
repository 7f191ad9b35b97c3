package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import java.io.IOException;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;

/**
 * How a table's plies survive Spark's failures, as Spark's own {@code PeriodicCheckpointer} keeps an iterative
 * algorithm's lineage short: each ply's slices are checkpointed on the executors that make them, saved to the work
 * folder when {@link SaveClock} says so, and after a failed ply (an executor lost with the slices it kept) the last
 * ply saved is read back; three failures in a row end the run.
 */
final class PlyLineage<S> {
    /** The slices after a ply (or step), kept on the executors, and what the run knows of them. */
    record PlyState<S>(JavaRDD<S> slices, int ply, long frontier, long decided) {}

    /** A kind of slice: how it is saved, and the actions that count its frontier and its entries decided. */
    interface Slices<S> {
        WorkFolder.Codec<S> codec();

        long frontier(JavaRDD<S> slices);

        long decided(JavaRDD<S> slices);
    }

    /** Failed plies in a row before a run gives up. */
    static final int MOST_FAILURES = 3;

    private final JavaSparkContext jsc;
    private final Slices<S> kind;
    private final Material material;
    private final WorkFolder work;
    private final FailFast failFast;
    private final SolveProgress progress;
    private final StorageLevel storage;
    private final SaveClock saving = new SaveClock(System.nanoTime());
    private int failures;

    /** {@code work}: where plies are saved, or null for none; {@code storage}: how the executors keep the slices. */
    PlyLineage(JavaSparkContext jsc, Slices<S> kind, Material material, WorkFolder work, StorageLevel storage, FailFast failFast,
               SolveProgress progress) {
        this.jsc = jsc;
        this.kind = kind;
        this.storage = storage;
        this.material = material;
        this.work = work;
        this.failFast = failFast;
        this.progress = progress;
    }

    /**
     * Keeps an RDD's partitions on the executors that make them (memory, else their disk) and cuts its lineage there
     * once the next job has made them: no ply is ever made again from the ones before it.
     */
    static <T> JavaRDD<T> checkpointed(JavaRDD<T> rdd) {
        rdd.rdd().localCheckpoint();
        return rdd;
    }

    /**
     * A ply's slices, {@link #checkpointed} and kept at {@code storage}: as objects, which no task may change, or
     * serialized, where every task that reads a slice deserializes a copy of its own, which it may ply in place
     * ({@link TableSlice#next}) while the bytes Spark keeps stay as they were, for a task run again, a speculative
     * twin or the next ply's other stage.
     */
    static <T> JavaRDD<T> kept(JavaRDD<T> slices, StorageLevel storage) {
        return checkpointed(slices.persist(storage));
    }

    /** After ply {@code q}'s slices are made: saves them when the clock says so; the failures in a row start again. */
    void made(JavaRDD<S> slices, int q) throws IOException {
        if (work != null && saving.due(System.nanoTime())) {
            long saveStart = System.nanoTime();
            work.save(slices, kind.codec(), q);
            work.finish(q, Map.of("endgame", material.name(), "ply", q));
            saving.saved(saveStart, System.nanoTime());
        }
        failures = 0;
    }

    /**
     * After ply {@code q} failed with {@code failure}: the last ply saved, read back and kept; or, when nothing can
     * be read back (no work folder, nothing saved, too many failures, or a failure that stops the run), the failure.
     */
    PlyState<S> restore(int q, Exception failure) throws Exception {
        if (failFast.cause() != null) throw new IOException(failFast.cause(), failure);
        if (cancelled(failure) || jsc.sc().isStopped()) throw failure;
        int saved = work == null ? -1 : work.lastLevel();
        if (saved < 0) throw new IOException(material.name() + ": ply " + q + " failed (" + firstLine(failure) + ")"
                + (work == null ? "; give --work DIR to continue from the last ply saved instead" : ""), failure);
        if (++failures > MOST_FAILURES) throw failure;
        progress.note(String.format("%s: ply %d failed (%s); continuing from ply %d saved in %s", material.name(), q,
                firstLine(failure), saved, work.location()));
        TableSolver.label(jsc, String.format("%s: ply %d read back", material.name(), saved));
        JavaRDD<S> slices = kept(work.load(jsc, kind.codec(), saved), storage);
        return new PlyState<>(slices, saved, kind.frontier(slices), kind.decided(slices));
    }

    /**
     * Whether a ply failed because its job was cancelled: someone stopped the run on purpose (a signal, another table
     * of the set that failed), so going on from a saved ply would start a job a stopping Spark refuses. A signal that
     * stops Spark's context before the job starts fails it otherwise ("Cannot call methods on a stopped SparkContext"):
     * {@link #restore} checks the context too.
     */
    static boolean cancelled(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause())
            if (e instanceof SparkException && e.getMessage() != null && CANCELLED.matcher(e.getMessage()).lookingAt()) return true;
        return false;
    }

    /** How Spark's scheduler words a job it cancelled. */
    private static final Pattern CANCELLED = Pattern.compile("Job \\d+ cancelled ");

    private static String firstLine(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
    }

    /**
     * When a ply's slices are saved to the work folder: the first ply, then any ply once the solving since the last
     * save took at least {@link #SOLVE_PER_SAVE} times what that save took. A table whose saves are quick (up to 5
     * pieces: tens of MB) saves every ply; a 6-piece table's (gigabytes) every few minutes, so that saving costs at
     * most a tenth of the run and a crash costs at most ten saves' time of plies.
     */
    static final class SaveClock {
        static final double SOLVE_PER_SAVE = 10;
        private long lastEnd, lastTook;
        private boolean first = true;

        SaveClock(long now) { lastEnd = now; }

        boolean due(long now) { return first || now - lastEnd >= SOLVE_PER_SAVE * lastTook; }

        void saved(long start, long end) {
            first = false;
            lastTook = end - start;
            lastEnd = end;
        }
    }
}
