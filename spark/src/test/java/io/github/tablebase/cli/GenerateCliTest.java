package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.SchemeFileSystem;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.output.OutputFolder;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generate command's front door: clear one-line errors, exit codes, and nothing half-written. */
class GenerateCliTest {
    private static CliRun run(String... args) {
        return CliRun.of("generate", Generate.USAGE, "", () -> Generate.generate(args));
    }

    @Test
    void whatIsNoEndgameOrTooBigIsRefusedInOneLine(@TempDir Path dir) {
        for (String[] bad : new String[][] {{"KXK", "not an endgame: 'KXK'"}, {"KRPPKRP", "up to 6"},
                {"KK", "KK is two bare kings"}, {"KQRBKQR", "up to 6"}, {"KBNKK", "not an endgame"}}) {
            CliRun r = run("--endgame", bad[0], "--out", dir.resolve("t").toString());
            assertEquals(1, r.exit(), bad[0]);
            assertTrue(r.err().startsWith("generate: error: ") && r.err().contains(bad[1]), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
        assertFalse(Files.exists(dir.resolve("t")));
    }

    @Test
    void aTableTooBigForTheHeapIsRefusedUpFrontWithTheHeapItNeeds(@TempDir Path dir) {
        SparkTestSession.get();
        // KQRKQR: 7,751,073,792 indexes, more than any heap of this machine holds at the bytes an index the plan counts
        Material material = Material.parse("KQRKQR");
        long need = (long) (RunPlan.HEAP_PER_INDEX * new PositionIndex(material).size());
        assertTrue(need > Runtime.getRuntime().maxMemory());
        CliRun r = run("--endgame", "KQRKQR", "--out", dir.resolve("kqrkqr").toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().startsWith("generate: error: KQRKQR needs a heap of about ") && r.err().contains("DRIVER_MEMORY="), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        String entries = String.format("%,d entries", 2 * new PositionIndex(material).size());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+KQRKQR\\s+make\\s+" + entries)), r.out());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "nothing solved or written");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aSetOfEveryMaterialUpToThreePiecesIsMadeOnceThenReusedAndListed(@TempDir Path dir) throws Exception {
        SparkTestSession.get();
        List<String> expected = List.of("KBK", "KNK", "KQK", "KRK"); // one table a material: KKQ is KQK's colours swapped
        assertEquals(expected, Generate.upTo(3, false).stream().map(Material::name).toList());
        // 3 and 4 pieces with pawns: 5 against a bare king, 15 pairs against a bare king, 15 one against one (5 * 6 / 2)
        assertEquals(5 + 15 + 15, Generate.upTo(4, true).size());
        for (Material m : Generate.upTo(4, true)) assertEquals(m, m.coloursSwapped().tableMaterial(), m.name());
        Path set = dir.resolve("set");
        CliRun first = run("--up-to", "3", "--no-pawns", "--out", set.toString());
        assertEquals(0, first.exit(), first.err());
        assertTrue(first.out().contains("plan: 4 tables to make") && first.out().contains("table 4 of 4: "), first.out());
        assertTrue(first.out().contains("4 tables in " + set + ": 4 made, 0 reused"), first.out());
        for (String m : expected) assertTrue(Files.isRegularFile(set.resolve(m.toLowerCase()).resolve(Manifest.FILE)), m);
        CliRun again = run("--up-to", "3", "--no-pawns", "--out", set.toString());
        assertTrue(again.out().contains("4 tables in " + set + ": 0 made, 4 reused"), again.out());
        Files.createDirectories(set.resolve(".unpacked-of-a-run-killed-outright").resolve("krk")); // the next run that unpacks clears it
        CliRun two = run("--endgame", "KQK,KNKR", "--out", set.toString());
        assertEquals(0, two.exit(), two.err());
        assertTrue(two.out().contains("KNKR is KRKN with the colours swapped"), two.out());
        assertTrue(two.out().contains("plan: 1 table to make") && two.out().contains(": 1 made, 3 reused"), two.out()); // KRKN; KQK, KRK, KNK there
        // the set keeps no packed file: KRKN read KRK and KNK from packed files made again from their compressed ones,
        // and its own files are those of a KRKN made from packed files kept (the shared tables were made with --keep-packed)
        for (String sub : List.of("KRK", "KNK")) assertTrue(two.out().contains(sub + ": its packed files made again from its compressed ones"), two.out());
        assertFalse(two.out().contains("KQK: its packed files made again"), "no table made here reads KQK: " + two.out());
        try (Stream<Path> files = Files.walk(set)) {
            assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".tbl") || f.getFileName().toString().startsWith(".unpacked")).toList());
        }
        for (String m : List.of("KQK", "KRKN")) assertEquals(null, Manifest.read(set.resolve(m.toLowerCase()).resolve(Manifest.FILE)).packedFiles(), m);
        assertArrayEquals(Files.readAllBytes(io.github.tablebase.GeneratedTables.folder("KRKN").resolve("krkn.cdtm")), Files.readAllBytes(set.resolve("krkn").resolve("krkn.cdtm")));
        // the set verified as a set: every checksum, and a sample of each table against its moves, from the compressed files
        CliRun verified = CliRun.of("verify", Verify.USAGE, "", () -> Verify.verify(new String[] {"--tables", set.toString(), "--sample", "3000"}));
        assertEquals(0, verified.exit(), verified.out() + verified.err());
        assertTrue(verified.out().startsWith("5 tables: every file matches the SHA-256 in its manifest"), verified.out());
        for (String m : List.of("KRKN", "KQK", "KRK", "KBK", "KNK"))
            assertTrue(verified.out().contains(m + ": 3,000 random positions checked against their moves (compressed files"), verified.out());
        assertTrue(verified.out().contains("5 tables, 15,000 positions checked in "), verified.out());
        assertTrue(verified.out().trim().endsWith("all agree"), verified.out());

        CliRun listed = CliRun.of("list", ListTables.USAGE, "", () -> ListTables.list(new String[] {"--tables", set.toString()}));
        assertEquals(0, listed.exit(), listed.err());
        assertTrue(listed.out().lines().anyMatch(l -> l.matches("KQK\\s+KKQ\\s+59,136 .* in 10 +- .*")), listed.out());
        assertTrue(listed.out().lines().anyMatch(l -> l.matches("KRKN\\s+KNKR\\s+3,784,704 .* in 40 .*")), listed.out()); // published: KRKN 40
        assertTrue(listed.out().contains("5 tables answering 10 materials, "), listed.out());
        assertEquals(2, run("--up-to", "3", "--out", set.toString(), "--overwrite").exit());
        // a table kept whose smaller table is gone: the smaller one is made again, the kept one not read before it is
        try (Stream<Path> krk = Files.walk(set.resolve("krk"))) {
            krk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        CliRun without = run("--endgame", "KRKN,KQK", "--out", set.toString());
        assertEquals(0, without.exit(), without.out() + without.err());
        assertTrue(without.out().contains(": 1 made, 3 reused"), without.out()); // KRK made; KNK, KQK and KRKN there
        assertArrayEquals(Files.readAllBytes(io.github.tablebase.GeneratedTables.folder("KRK").resolve("krk.cdtm")),
                Files.readAllBytes(set.resolve("krk").resolve("krk.cdtm")));
    }

    @Test
    void aTableMadeWithoutItsParquetRowsIsItsCompressedFilesAndManifestAndProbesAsAnother(@TempDir Path dir) throws Exception {
        SparkTestSession.get();
        Path out = dir.resolve("krk");
        CliRun r = run("--endgame", "KRK", "--out", out.toString(), "--no-parquet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("(no Parquet rows: --no-parquet)"), r.out());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of("krk.cdtm", "manifest.json"), files.map(f -> f.getFileName().toString()).sorted().toList());
        }
        assertEquals(null, Manifest.read(out.resolve(Manifest.FILE)).parquet());
        Path kept = io.github.tablebase.GeneratedTables.folder("KRK");
        assertArrayEquals(Files.readAllBytes(kept.resolve("krk.cdtm")), Files.readAllBytes(out.resolve("krk.cdtm")), "the same compressed file");
        java.util.Random random = new java.util.Random(7);
        try (Tablebase checked = Tablebase.open(out, Tablebase.Check.SHA256); Tablebase full = Tablebase.open(kept)) {
            for (int k = 0; k < 2000; k++) {
                io.github.tablebase.chess.Position p = io.github.tablebase.chess.Position.randomLegal(Material.parse("KRK"),
                        random.nextBoolean() ? io.github.tablebase.chess.Color.WHITE : io.github.tablebase.chess.Color.BLACK, random);
                assertEquals(full.probeDtm(p), checked.probeDtm(p), p::toString);
            }
        }
        CliRun sql = CliRun.of("sql", Sql.USAGE, "", () -> Sql.sql(new String[] {"--table", out.toString(), "SELECT 1"}));
        assertEquals(1, sql.exit());
        assertTrue(sql.err().contains("made without its Parquet rows (--no-parquet)") && sql.err().lines().count() == 1, sql.err());
    }

    @Test
    void helpShowsTheUsageWithAnExampleAndARepeatedOptionOrAnUnknownMasterIsRefused(@TempDir Path dir) {
        for (String help : new String[] {"--help", "-h"}) {
            CliRun r = run("--endgame", "KQK", help);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().startsWith("usage: generate (--endgame") && r.out().contains("example: jobs/generate --endgame"), r.out());
        }
        CliRun twice = run("--endgame", "KQK", "--endgame", "KRK", "--out", dir.resolve("t").toString());
        assertEquals(2, twice.exit());
        assertTrue(twice.err().startsWith("generate: --endgame is given twice"), twice.err());
        CliRun master = run("--endgame", "KQK", "--out", dir.resolve("t").toString(), "--master", "bogus://x");
        assertEquals(2, master.exit());
        assertTrue(master.err().startsWith("generate: --master takes local[N], spark://HOST:PORT"), master.err());
        assertFalse(master.err().contains("\tat "), master.err());
        assertFalse(Files.exists(dir.resolve("t")));
    }

    @Test
    void aGeneralEndgameWritesItsSmallerTablesBesideItAndReusesThem(@TempDir Path dir) throws Exception {
        SparkTestSession.get();
        Path out = dir.resolve("kbkn");
        CliRun first = run("--endgame", "KBKN", "--out", out.toString(), "--partitions", "2", "--keep-packed");
        assertEquals(0, first.exit(), first.err());
        // said before anything is solved: where the smaller tables go
        String where = first.out().lines().filter(l -> l.startsWith("its smaller tables go beside")).findFirst().orElse("");
        assertTrue(where.contains(out.toString()) && where.contains(" in " + dir) && where.contains("kbk") && where.contains("knk"), first.out());
        assertTrue(first.out().indexOf(where) < first.out().indexOf("wrote "), first.out());
        for (String sub : new String[] {"kbk", "knk"}) {
            assertTrue(Files.isRegularFile(dir.resolve(sub).resolve(sub + ".tbl")), sub);
            assertTrue(first.out().contains("wrote " + sub.toUpperCase()), first.out());
        }
        // each table's Parquet rows were in place after its write began and before it ended
        java.util.regex.Matcher wrote = java.util.regex.Pattern.compile("wrote ([A-Z]+) to \\S+ in ([0-9.]+) s, its Parquet rows in ([0-9.]+) s").matcher(first.out());
        int tables = 0;
        for (; wrote.find(); tables++) {
            double write = Double.parseDouble(wrote.group(2)), rows = Double.parseDouble(wrote.group(3));
            assertTrue(rows > 0 && rows <= write, wrote.group());
        }
        assertEquals(3, tables, first.out());
        Manifest manifest = Manifest.read(out.resolve("manifest.json"));
        assertEquals("KBKN", manifest.endgame());
        assertEquals(List.of(new Manifest.SubTable("KNK", "../knk"), new Manifest.SubTable("KBK", "../kbk")), manifest.subTables());
        byte[] table = Files.readAllBytes(out.resolve("kbkn.tbl"));

        // The probe follows captures into the smaller tables: a White bishop taking the knight leaves KBK, a draw.
        Tablebase tablebase = Tablebase.open(out);
        assertEquals(List.of("KBKN", "KBK", "KNK"), tablebase.materials().stream().map(Object::toString).toList());
        ProbeResult r = tablebase.probe("8/8/8/8/8/2k1n3/8/K1B5 w - - 0 1");
        assertTrue(r.moves().stream().anyMatch(m -> m.move().isCapture() && m.category() == ProbeResult.Category.DRAW));

        // the plan first: three tables to make, each then told as it starts
        long entries = 2 * (new PositionIndex(Material.parse("KBKN")).size()
                + new PositionIndex(Material.parse("KBK")).size()
                + new PositionIndex(Material.parse("KNK")).size());
        assertTrue(first.out().contains(String.format("plan: 3 tables to make (%,d entries), 0 to reuse; about ", entries)), first.out());
        assertTrue(first.out().contains("table 3 of 3: KBKN"), first.out());

        CliRun again = run("--endgame", "KBKN", "--out", out.toString(), "--partitions", "3", "--overwrite", "--keep-packed");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("plan: 1 table to make") && again.out().contains("2 to reuse"), again.out());
        assertTrue(again.out().contains("reusing KBK from") && again.out().contains("reusing KNK from"), again.out());
        assertArrayEquals(table, Files.readAllBytes(out.resolve("kbkn.tbl")), "the same table from the reused smaller tables");

        Path damaged = dir.resolve("knk").resolve("knk.tbl");
        byte[] bytes = Files.readAllBytes(damaged);
        bytes[bytes.length - 1] ^= 1;
        Files.write(damaged, bytes);
        CliRun refused = run("--endgame", "KBKN", "--out", out.toString(), "--overwrite");
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("does not match the SHA-256"), refused.err());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertArrayEquals(table, Files.readAllBytes(out.resolve("kbkn.tbl")), "a failed run leaves the table in place");
    }

    @Test
    void usageMistakesExitWithTwo() {
        assertEquals(2, run("--endgame", "KBNK").exit());
        assertEquals(2, run("--endgame", "KBNK", "--out", "x", "--partitions", "0").exit());
        assertEquals(2, run("--bogus").exit());
    }

    @Test
    void anExistingOutputIsRefusedUnlessOverwriteAndThenReplaced(@TempDir Path dir) throws Exception {
        SparkTestSession.get();
        Path out = dir.resolve("krk");
        Files.createDirectories(out);
        Files.writeString(out.resolve("old.txt"), "old");
        CliRun refused = run("--endgame", "KRK", "--out", out.toString());
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("already exists (pass --overwrite"), refused.err());
        assertTrue(Files.exists(out.resolve("old.txt")));

        Path stale = Files.createDirectories(dir.resolve(".krk.partial-of-a-run-killed-outright").resolve("parquet"));
        Files.writeString(stale.resolve("part-00000.zstd.parquet"), "half");
        assertEquals(0, run("--endgame", "KRK", "--out", out.toString(), "--overwrite", "--partitions", "2").exit());
        assertFalse(Files.exists(out.resolve("old.txt")));
        assertEquals("KRK", Manifest.read(out.resolve("manifest.json")).endgame());
        assertFalse(Files.exists(out.resolve("krk.bin")), "the packed format is KBNK's only");
        try (Stream<Path> siblings = Files.list(dir)) {
            assertEquals(1, siblings.count(), "no staging or old folder is left behind, nor the staging folder of a run killed outright");
        }
    }

    @Test
    void anUnwritableParentIsAClearError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        CliRun r = run("--endgame", "KBNK", "--out", file.resolve("table").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("generate: error: cannot create"), r.err());
    }

    @Test
    void anIoErrorInASparkTaskIsOneLineNotAStackTrace() {
        CliRun r = CliRun.of("generate", Generate.USAGE, "", () -> {
            SparkTestSession.context().parallelize(List.of(1), 1).foreach(x -> {
                throw new java.io.UncheckedIOException(new java.io.IOException("/tables/krk/krk.tbl: no space left on device"));
            });
            return 0;
        });
        assertEquals(1, r.exit());
        assertEquals("generate: error: /tables/krk/krk.tbl: no space left on device\n", r.err());
    }

    @Test
    void aFailureBeforeTheCommitLeavesNothingAtTheFinalPath(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("table");
        try (OutputFolder folder = OutputFolder.prepare(out.toString(), false, new Configuration());
             java.io.OutputStream half = folder.create("kbnk.tbl")) {
            half.write("half".getBytes());
            // no commit: the run failed
        }
        assertFalse(Files.exists(out));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void aTableIsWrittenOnAFileSystemThatOnlyTheRunsHadoopSettingsName(@TempDir Path dir) throws Exception {
        SchemeFileSystem.register(SparkTestSession.context().hadoopConfiguration()); // the test JVM's session is already running
        CliRun r = run("--endgame", "KRK", "--out", SchemeFileSystem.uri(dir.resolve("krk")), "--partitions", "2", "--keep-packed",
                "--conf", SchemeFileSystem.sparkConf());
        assertEquals(0, r.exit(), r.err());
        assertEquals("KRK", Manifest.read(dir.resolve("krk").resolve("manifest.json")).endgame());
        assertTrue(Files.isRegularFile(dir.resolve("krk").resolve("krk.tbl")));
    }

    @Test
    void aRefusedOutputFolderLeavesNoFileSystemOpen(@TempDir Path dir) throws Exception {
        Configuration hadoop = new Configuration();
        SchemeFileSystem.register(hadoop);
        Files.createDirectories(dir.resolve("taken"));
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        int open = SchemeFileSystem.OPEN.get();
        assertThrows(java.nio.file.FileAlreadyExistsException.class,
                () -> OutputFolder.prepare(SchemeFileSystem.uri(dir.resolve("taken")), false, hadoop));
        assertThrows(java.io.IOException.class, () -> OutputFolder.prepare(SchemeFileSystem.uri(file.resolve("table")), false, hadoop));
        assertEquals(open, SchemeFileSystem.OPEN.get(), "file systems left open");
        try (OutputFolder ok = OutputFolder.prepare(SchemeFileSystem.uri(dir.resolve("free")), false, hadoop)) {
            assertEquals(open + 1, SchemeFileSystem.OPEN.get(), "the count sees an open one");
        }
        assertEquals(open, SchemeFileSystem.OPEN.get());
    }

    @Test
    void figuresAreOneJsonLinePerTableMadeThatTheManifestsAgreeWith(@TempDir Path dir) throws Exception {
        Path figures = dir.resolve("figures.jsonl");
        // KQKR over 2 partitions of at most 100,000 entries, so that its plies shuffle; KQK and KRK each in one task
        CliRun r = run("--endgame", "KQKR", "--out", dir.resolve("kqkr").toString(), "--partitions", "2", "--figures", figures.toString(),
                "--conf", "spark.tablebase.entriesPerPartition=100000");
        assertEquals(0, r.exit(), r.err());
        // the shared session (as a notebook's) is left with its own settings: a --conf is the run's alone
        assertEquals(null, io.github.tablebase.SparkTestSession.session().conf().get("spark.tablebase.entriesPerPartition", null));
        List<String> lines = Files.readAllLines(figures);
        assertEquals(3, lines.size(), String.join("\n", lines));
        for (String line : lines) {
            Map<String, Object> f = io.github.tablebase.probe.Json.parseObject(line);
            String endgame = (String) f.get("endgame");
            Manifest manifest = Manifest.read(dir.resolve(endgame.toLowerCase()).resolve(Manifest.FILE));
            assertEquals(manifest.entries(), ((Number) f.get("entries")).longValue(), endgame);
            long positions = 0;
            int longest = 0;
            for (Manifest.SideFigures side : manifest.sides()) {
                positions += side.canonical().win() + side.canonical().loss() + side.canonical().draw();
                longest = Math.max(longest, Math.max(2 * side.longestWin() - 1, 2 * side.longestLoss()));
            }
            assertEquals(positions, ((Number) f.get("positions")).longValue(), endgame);
            assertEquals(longest, ((Number) f.get("plies")).intValue(), endgame + ": the last ply is the longest win's or loss's");
            assertTrue(((Number) f.get("solve_seconds")).doubleValue() > 0 && ((Number) f.get("write_seconds")).doubleValue() > 0, line);
            assertEquals(endgame.equals("KQKR"), ((Number) f.get("shuffled_bytes")).longValue() > 0, line);
            assertTrue(((Number) f.get("largest_ply_shuffled_bytes")).longValue() <= ((Number) f.get("shuffled_bytes")).longValue(), line);
        }
    }
}
