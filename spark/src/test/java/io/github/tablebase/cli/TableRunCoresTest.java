package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** How a run lends its cores: tables that fit one task share them when others may solve beside them. */
class TableRunCoresTest {
    /** A thread for each table that waits (the common pool may have one). */
    private static final ExecutorService TABLES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "table");
        t.setDaemon(true);
        return t;
    });

    private static CompletableFuture<Integer> take(TableRun.Cores cores, boolean oneTask, boolean mayShare) {
        return CompletableFuture.supplyAsync(() -> cores.take(oneTask, mayShare), TABLES);
    }

    private static boolean waits(CompletableFuture<Integer> f) throws Exception {
        try {
            f.get(300, TimeUnit.MILLISECONDS);
            return false;
        } catch (TimeoutException e) {
            return true;
        }
    }

    private static TableRun.Cores opened(int total, int ready) {
        TableRun.Cores cores = new TableRun.Cores(total);
        for (int k = 0; k < ready; k++) cores.ready();
        cores.open(new CompletableFuture<>());
        return cores;
    }

    @Test
    void nothingIsLentBeforeTheTablesReadyAtTheStartAreCounted() throws Exception {
        TableRun.Cores cores = new TableRun.Cores(2);
        CompletableFuture<Void> walked = new CompletableFuture<>();
        walked.thenRun(cores::ready);
        cores.ready();
        CompletableFuture<Integer> first = take(cores, false, true);
        assertTrue(waits(first));
        cores.open(walked); // counts the second table: the first shares
        assertEquals(1, first.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aTableAloneTakesEveryCoreAndTwoReadyTablesOneEach() throws Exception {
        TableRun.Cores alone = opened(2, 1);
        assertEquals(2, alone.take(false, true));
        TableRun.Cores two = opened(2, 2);
        assertEquals(1, two.take(false, true));
        assertEquals(1, two.take(false, true)); // the first still solves: the second shares too
    }

    @Test
    void aTableThatCannotShareWaitsForEveryCore() throws Exception {
        TableRun.Cores cores = opened(2, 2);
        assertEquals(1, cores.take(true, false));
        CompletableFuture<Integer> large = take(cores, false, false);
        assertTrue(waits(large));
        cores.give(1);
        assertEquals(2, large.get(5, TimeUnit.SECONDS));
        cores.ready();
        CompletableFuture<Integer> small = take(cores, true, false);
        assertTrue(waits(small));
        cores.give(2);
        assertEquals(1, small.get(5, TimeUnit.SECONDS));
    }

    @Test
    void noTableStartsWhileAsManySolvedTablesWaitForTheWriterAsThereAreCores() throws Exception {
        TableRun.Cores cores = opened(2, 3);
        for (int k = 0; k < 2; k++) {
            assertEquals(1, cores.take(false, true));
            cores.solved();
            cores.give(1);
        }
        CompletableFuture<Integer> third = take(cores, false, true);
        assertTrue(waits(third), "two solved tables wait for the writer: the cores go to it");
        cores.written();
        assertEquals(2, third.get(5, TimeUnit.SECONDS)); // alone now: every core
    }

    @Test
    void oneCoreIsOneTaskAtATime() throws Exception {
        TableRun.Cores cores = opened(1, 2);
        assertEquals(1, cores.take(false, false));
        CompletableFuture<Integer> next = take(cores, true, false);
        assertTrue(waits(next));
        cores.give(1);
        assertEquals(1, next.get(5, TimeUnit.SECONDS));
        assertFalse(next.isCompletedExceptionally());
    }
}
