package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.SolvedResults;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Result;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.TableFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine under Spark's own failures (the test session retries a failed task up to 4 times): a ply whose tasks
 * fail halfway, after their slices' own un-moves, is made again from the ply before and gives the same table, the
 * slices kept as objects (each ply a copy) or serialized on disk (each task plying its own copy in place); a
 * broken invariant stops the run at its first failed task, with its message.
 */
class SparkFailuresTest {
    private static final Material KQKR = Material.parse("KQKR");

    /** The failed task attempts of the jobs run while it listens, with their messages. */
    private static final class Failures extends SparkListener implements AutoCloseable {
        private final List<String> messages = java.util.Collections.synchronizedList(new ArrayList<>());

        Failures() { SparkTestSession.context().sc().addSparkListener(this); }

        @Override public void onTaskEnd(SparkListenerTaskEnd end) {
            if (end.reason() instanceof ExceptionFailure f) messages.add(end.stageId() + "/" + end.taskInfo().index() + ": " + f.description());
        }

        /** A copy: a task Spark had already started may still end, and add its failure, while a test reads. */
        List<String> seen() {
            synchronized (messages) { return new ArrayList<>(messages); }
        }

        @Override public void close() { SparkTestSession.context().sc().removeSparkListener(this); }
    }

    @Test
    void aPlyWhoseTasksFailAfterTheirOwnUnmovesIsMadeAgainIntoTheSameTable() throws Exception {
        SolvedResults reference = TableSolverTest.solve(KQKR, 3).get(KQKR); // KQK and KRK written for the runs below
        TableSolver solver = new TableSolver(SparkTestSession.context(), 3, 1, System.out::println);
        for (String storage : new String[] {"MEMORY_AND_DISK", "DISK_ONLY"})
            for (int ply : new int[] {5, 6}) { // a ply of wins, and one of losses, which counts moves off
                SparkTestSession.session().conf().set(RunSettings.FAIL_ONCE_AT_PLY, Integer.toString(ply));
                SparkTestSession.session().conf().set(RunSettings.SLICE_STORAGE, storage);
                SolvedResults retried;
                try (Failures failures = new Failures()) {
                    retried = TableSolverTest.solve(solver, KQKR, null);
                    SparkTestSession.context().sc().listenerBus().waitUntilEmpty();
                    List<String> seen = failures.seen();
                    assertEquals(3, seen.size(), "each of the 3 tasks of ply " + ply + " failed once: " + seen);
                    assertTrue(seen.stream().allMatch(m -> m.contains("injected failure")), seen::toString);
                } finally {
                    SparkTestSession.session().conf().unset(RunSettings.FAIL_ONCE_AT_PLY);
                    SparkTestSession.session().conf().unset(RunSettings.SLICE_STORAGE);
                }
                assertArrayEquals(reference.results(), retried.results(), "KQKR, slices " + storage + ", after the tasks of ply " + ply + " failed halfway");
            }
    }

    /** Cancels the {@code n}-th job started while it listens, as a signal's stop or a set's failed table cancels them. */
    private static final class CancelNthJob extends SparkListener implements AutoCloseable {
        private final java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        private final int n;

        CancelNthJob(int n) {
            this.n = n;
            SparkTestSession.context().sc().addSparkListener(this);
        }

        @Override public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
            if (started.incrementAndGet() == n) SparkTestSession.context().sc().cancelJob(start.jobId());
        }

        @Override public void close() { SparkTestSession.context().sc().removeSparkListener(this); }
    }

    @Test
    void aPlyWhoseJobIsCancelledStopsTheRunInsteadOfGoingOnFromTheLastPlySaved(@TempDir Path dir) throws Exception {
        TableSolverTest.solve(KQKR, 2); // KQK and KRK written for the run below
        List<String> said = java.util.Collections.synchronizedList(new ArrayList<>());
        TableSolver solver = new TableSolver(SparkTestSession.context(), 2, 1, said::add);
        SparkTestSession.context().sc().listenerBus().waitUntilEmpty();
        try (CancelNthJob cancel = new CancelNthJob(12)) { // a job of the plies: init and the first plies come before
            Exception e = assertThrows(Exception.class, () -> TableSolverTest.solve(solver, KQKR, dir.toUri().toString()));
            assertTrue(PlyLineage.cancelled(e), e.toString());
        }
        String lines = String.join("\n", said);
        assertTrue(said.stream().anyMatch(l -> l.startsWith("KQKR: ply  2:")), lines);
        assertTrue(said.stream().noneMatch(l -> l.contains("continuing from ply")), lines);
        assertTrue(!PlyLineage.cancelled(new IOException("a task failed", new RuntimeException("Job 3 cancelled"))),
                "only Spark's own exception says a job was cancelled");
    }

    @Test
    void aBrokenInvariantStopsTheRunAtItsFirstTaskWithItsMessage(@TempDir Path dir) throws Exception {
        // a KQK file whose every entry says "no canonical legal position": KQKR's first capture of the rook finds no entry
        Material kqk = Material.parse("KQK"), krk = Material.parse("KRK"); // KKR is read from KRK
        PositionIndex index = new PositionIndex(kqk);
        byte[] none = new byte[Math.toIntExact(2 * index.size())];
        Arrays.fill(none, (byte) Result.NONE);
        Files.createDirectories(dir.resolve("kqk"));
        try (OutputStream out = Files.newOutputStream(dir.resolve("kqk/kqk.tbl"))) {
            IndexedTable.writePart(index, 0, index.size(), none, none, io.github.tablebase.probe.LatePlies.NONE, out);
        }
        Map<Material, TableFiles> files = new HashMap<>();
        files.put(kqk, new TableFiles(kqk, dir.resolve("kqk").toUri().toString(), List.of("kqk.tbl")));
        files.put(krk, TableSolverTest.solve(krk, 2).get(krk).writeTo(dir.resolve("krk")));
        SmallerTables subs = new SmallerTables(SparkTestSession.context(), KQKR, files);
        // the listeners see a task's end only after every event queued before it: none left from earlier runs
        SparkTestSession.context().sc().listenerBus().waitUntilEmpty();
        try (Failures failures = new Failures()) {
            IOException e = assertThrows(IOException.class, () -> new TableSolver(SparkTestSession.context(), 2, 1, System.out::println).solve(KQKR, subs));
            assertTrue(e.getMessage().startsWith("TableInvariantException: the KQK table has no entry"), e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            SparkTestSession.context().sc().listenerBus().waitUntilEmpty();
            List<String> seen = failures.seen();
            Map<String, Long> attempts = new HashMap<>();
            for (String m : seen) attempts.merge(m.substring(0, m.indexOf(':')), 1L, Long::sum);
            // the stage is cancelled as the listener hears of the first failure (asynchronously: a retry Spark started
            // meanwhile may fail too, once seen a second time on a loaded machine), never after the 4 tries allowed
            assertTrue(!attempts.isEmpty() && attempts.values().stream().allMatch(n -> n < 4), "a task tried 4 times: " + seen);
        } finally {
            subs.release();
        }
    }
}
