package io.github.tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.KbnkTable;
import io.github.tablebase.Launchers;
import io.github.tablebase.MiniHdfs;
import io.github.tablebase.output.TableExport;
import io.github.tablebase.probe.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real Spark standalone cluster on 127.0.0.1 (a master and three single-core workers started by
 * jobs/cluster from the Maven jars), the application jar submitted with spark-submit: its packed file is
 * byte-identical to local mode's, also with tasks run away from their cached slices, speculative copies, a 512 MB
 * driver, and a worker killed in the middle of the run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {
    private static Path dir;
    private static final List<Long> pids = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("cluster-it");
        Path log = dir.resolve("start.log");
        int exit = Launchers.run(log, 180, "cluster", "start", "--dir", dir.resolve("cluster"), "--workers", 3, "--cores", 1);
        try (Stream<Path> files = Files.list(dir.resolve("cluster/pids"))) {
            for (Path f : files.toList()) pids.add(Long.parseLong(Files.readString(f).strip()));
        }
        assertEquals(0, exit, Files.readString(log));
        assertEquals(4, pids.size(), "a master and three workers (one run loses one)");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        assertEquals(0, Launchers.run(dir.resolve("stop.log"), 120, "cluster", "stop", "--dir", dir.resolve("cluster")),
                () -> read(dir.resolve("stop.log")));
        for (long pid : pids) assertFalse(running(pid), "process " + pid + " still runs");
        try (Stream<Path> all = Files.walk(dir)) { // the outputs, logs and the cluster's links: a few MB
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Alive and not a zombie waiting to be reaped (which a container's first process may be slow to do). */
    private static boolean running(long pid) throws Exception {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) return false;
        String text = read(stat);
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !text.substring(text.lastIndexOf(')') + 1).trim().startsWith("Z");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (Exception e) {
            return "";
        }
    }

    private static byte[] packed(Path out) throws Exception { return Files.readAllBytes(out.resolve("kbnk.bin")); }

    @Test
    @Order(1)
    void theClusterWritesTheSamePackedFileAsLocalMode() throws Exception {
        Path out = dir.resolve("kbnk"), log = dir.resolve("submit.log");
        int exit = Launchers.run(log, 900, "cluster", "submit", "--dir", dir.resolve("cluster"), "--",
                "--endgame", "KBNK", "--out", out, "--partitions", 2);
        assertEquals(0, exit, Files.readString(log));
        assertTrue(Files.readString(log).contains("KBNK on spark://127.0.0.1:"), Files.readString(log));
        assertArrayEquals(packed(KbnkTable.folder()), packed(out), () -> "the cluster's kbnk.bin differs from local mode's; the end of its submit log:\n" + tail(read(log), 80));
    }

    /** The last {@code lines} lines of a log: what a failure shows of a run whose folder is deleted after the tests. */
    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    @Test
    @Order(2)
    void aTableWithBothSidesArmedIsTheSameOnTheClusterOverItsPartitions() throws Exception {
        Path cluster = dir.resolve("krkn"), local = Files.createDirectories(dir.resolve("local")).resolve("krkn");
        Path log = dir.resolve("krkn-submit.log"), localLog = dir.resolve("krkn-local.log");
        // small partitions, so that the plies shuffle the kings' un-moves between the executors; tasks sent away from
        // the executor that keeps their slices (no locality wait) and speculative copies of the slow ones
        int exit = Launchers.run(log, 900, "cluster", "submit", "--dir", dir.resolve("cluster"), "--",
                "--endgame", "KRKN", "--out", cluster, "--partitions", 3, "--verbose", "--keep-packed", "--conf", "spark.tablebase.entriesPerPartition=100000",
                "--conf", "spark.locality.wait=0", "--conf", "spark.speculation=true", "--conf", "spark.speculation.multiplier=1.2",
                "--conf", "spark.speculation.quantile=0.3");
        assertEquals(0, exit, Files.readString(log));
        assertTrue(Files.readString(log).contains("shuffled"), Files.readString(log));
        assertEquals(0, Launchers.run(localLog, 600, "generate", "--endgame", "KRKN", "--out", local, "--verbose", "--keep-packed"), () -> read(localLog));
        assertTrue(Files.readString(localLog).contains("(one task)"), "local mode solves KRKN in one task");
        // the cluster's KNK may be an earlier test's, kept without its packed files: the compressed files compare every table
        for (String table : new String[] {"krkn/krkn.tbl", "krkn/krkn.cdtm", "krk/krk.cdtm", "knk/knk.cdtm"})
            assertArrayEquals(Files.readAllBytes(dir.resolve("local").resolve(table)), Files.readAllBytes(dir.resolve(table)), table);
    }

    @Test
    @Order(3)
    void aTableSolvedInOneTaskIsRightWhereverItsTasksRunOnASmallDriver() throws Exception {
        byte[] local = Files.readAllBytes(io.github.tablebase.GeneratedTables.folder("KQKR").resolve("kqkr.tbl"));
        for (int run = 0; run < 3; run++) {
            Path out = dir.resolve("kqkr-" + run).resolve("kqkr"), log = dir.resolve("kqkr-" + run + ".log");
            // no locality wait: the task that solves a table runs wherever a core is free, not where its slice is kept;
            // a 512 MB driver, which holds no table
            int exit = Launchers.run(java.util.Map.of("DRIVER_MEMORY", "512m"), log, 600, "cluster", "submit", "--dir", dir.resolve("cluster"), "--",
                    "--endgame", "KQKR", "--out", out, "--keep-packed", "--conf", "spark.locality.wait=0", "--conf", "spark.speculation=true");
            assertEquals(0, exit, () -> tail(read(log), 80));
            assertTrue(read(log).contains("KQKR: longest win 35 moves with White to move"), () -> tail(read(log), 80));
            assertArrayEquals(local, Files.readAllBytes(out.resolve("kqkr.tbl")), "run " + run);
        }
    }

    @Test
    @Order(4)
    void aClusterWithNoSharedDiskMakesAndResumesItsTablesThroughHdfs() throws Exception {
        try (MiniHdfs hdfs = MiniHdfs.start(dir.resolve("hdfs"))) {
            Path firstLog = dir.resolve("hdfs-first.log"), secondLog = dir.resolve("hdfs-second.log");
            // the outputs and the work folder in HDFS alone; each worker has folders of its own (jobs/cluster), and the
            // driver a temporary folder no executor reads: what reaches an executor comes through HDFS or Spark
            Map<String, String> driver = Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("driver-tmp")));
            Object[] command = {"submit", "--dir", dir.resolve("cluster"), "--", "--endgame", "KRKN", "--out", hdfs.uri("/sets/krkn"),
                    "--work", hdfs.uri("/work"), "--partitions", 3, "--verbose", "--keep-packed", "--conf", "spark.tablebase.entriesPerPartition=100000"};
            Process first = Launchers.start(driver, firstLog, "cluster", command);
            try {
                Launchers.awaitLine(firstLog, "KRKN: ply  6:", first, 600);
            } finally {
                first.destroyForcibly(); // jobs/cluster execs spark-submit's JVM: kill -9 of the driver
                first.waitFor();
            }
            assertTrue(hdfs.exists("/work/krkn"), "plies saved in HDFS:\n" + tail(read(firstLog), 40));
            assertFalse(hdfs.exists("/sets/krkn/krkn"), "nothing at the final path");

            assertEquals(0, Launchers.run(driver, secondLog, 900, "cluster", command), () -> tail(read(secondLog), 80));
            String second = read(secondLog);
            assertTrue(second.contains("reusing KRK") && second.contains("KRKN: resuming from ply "), second);
            assertFalse(hdfs.exists("/work/krkn"), "the work folder is removed once the outputs are in place");
            Path local = io.github.tablebase.GeneratedTables.folder("KRKN").getParent();
            for (String table : new String[] {"krkn/krkn.tbl", "krkn/krkn.cdtm", "krk/krk.cdtm", "knk/knk.cdtm"})
                assertArrayEquals(Files.readAllBytes(local.resolve(table)), hdfs.read("/sets/" + table), table);
            Manifest a = Manifest.read(local.resolve("krkn").resolve(Manifest.FILE));
            Manifest b = Manifest.read(new java.io.ByteArrayInputStream(hdfs.read("/sets/krkn/" + Manifest.FILE)));
            assertEquals(a.endgame(), b.endgame());
            assertEquals(a.sides(), b.sides(), "positions, longest wins and histograms");
            assertEquals(a.packedFiles(), b.packedFiles());
            assertEquals(a.compressedFiles(), b.compressedFiles());
            var spark = io.github.tablebase.SparkTestSession.session();
            var expected = spark.read().parquet(local.resolve("krkn").resolve(TableExport.PARQUET).toString());
            var made = spark.read().parquet(hdfs.uri("/sets/krkn/" + TableExport.PARQUET));
            assertEquals(expected.count(), made.count());
            assertEquals(0, expected.exceptAll(made).count(), "the Parquet rows read from HDFS are local mode's");
        }
    }

    @Test
    @Order(5)
    void losingAWorkerInTheMiddleOfATableStillEndsWithTheSameFiles() throws Exception {
        Path out = dir.resolve("kbnk-lost-worker"), log = dir.resolve("lost-worker.log");
        // partitions of at most 1,000,000 entries: KBNK's plies are Spark stages over both executors, saved to --work
        Process driver = Launchers.start(log, "cluster", "submit", "--dir", dir.resolve("cluster"), "--",
                "--endgame", "KBNK", "--out", out, "--partitions", 2, "--work", dir.resolve("work"), "--verbose", "--keep-packed",
                "--conf", "spark.tablebase.entriesPerPartition=1000000");
        try {
            Launchers.awaitLine(log, "KBNK: ply 12:", driver, 600);
            assertEquals(0, Launchers.run(dir.resolve("kill.log"), 30, "cluster", "kill-worker", "--dir", dir.resolve("cluster"), 1));
            assertTrue(driver.waitFor(900, java.util.concurrent.TimeUnit.SECONDS), "the run did not end");
            String text = Files.readString(log);
            assertEquals(0, driver.exitValue(), text);
            assertTrue(text.contains("Lost executor") || text.contains("lost executor"), "the driver saw the executor go:\n" + text);
        } finally {
            driver.destroyForcibly();
        }
        assertArrayEquals(packed(KbnkTable.folder()), packed(out));
        assertArrayEquals(Files.readAllBytes(KbnkTable.folder().resolve("kbnk.tbl")), Files.readAllBytes(out.resolve("kbnk.tbl")));
    }
}
