package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.cli.Generate;
import io.github.tablebase.generate.DtzSolve;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.DtzTable;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.LichessJson;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.SampleCheck;
import io.github.tablebase.probe.MissingTableException;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.probe.TablebaseException;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.DtzCodes;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TablePlan;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run asked for DTZ ({@code --dtz}) writes each table's DTZ file beside it, listed in its manifest
 * with the five results of each side: KQKR's and those of its smaller tables, each read back entry by entry equal to
 * the kernel's solve in memory (the bigger table's from the smaller tables' files), the figures counted from them.
 */
class DtzFilesTest {
    @Test
    void aRunWritesEachTablesDtzBesideItAndItsManifestCountsIt(@TempDir Path tmp) throws Exception {
        Path dir = GeneratedTables.dtzKqkr();
        Map<Material, EntryResults> inMemory = new HashMap<>();
        for (Material m : TablePlan.of(Material.parse("KQKR"))) {
            Map<Material, EntryResults> smaller = new HashMap<>();
            for (Material sub : TablePlan.exits(m)) smaller.put(sub, inMemory.get(sub));
            DtzCodes codes = DtzSolve.solve(new PositionIndex(m), new MoveGenerator(m), new Successors(m, null, smaller), Dtz.RULE_PLIES);
            inMemory.put(m, codes);

            Path folder = dir.resolve(m.name().toLowerCase());
            Manifest manifest = Manifest.read(folder.resolve(Manifest.FILE));
            assertNotNull(manifest.dtz(), m.name() + "'s manifest lists its DTZ");
            List<Manifest.FileEntry> parts = manifest.dtz().files();
            assertEquals(manifest.packedFiles().stream().map(f -> f.firstIndex() + "-" + f.endIndex()).toList(),
                    parts.stream().map(f -> f.firstIndex() + "-" + f.endIndex()).toList(), m.name() + ": the DTZ in the DTM's parts");
            assertEquals(2 * parts.size(), manifest.dtz().compressedFiles().size(), m.name() + ": a compressed DTZ file a part and side to move");
            for (Manifest.FileEntry file : concat(manifest.dtz().files(), manifest.dtz().compressedFiles()))
                try (InputStream in = Files.newInputStream(folder.resolve(file.name()))) {
                    assertEquals(file.sha256(), Manifest.sha256(in), file.name());
                }
            long[][] counts = new long[2][5];
            BlockCache cache = new BlockCache(codes.size()); // every block held: the loop reads each entry in turn
            DtzTable packed = DtzTable.open(folder, manifest.dtz(), cache, true);
            DtzTable compressed = DtzTable.open(folder, manifest.dtz(), cache, false);
            for (int e = 0; e < codes.size(); e++) {
                assertEquals(codes.get(e), packed.result(e), m.name() + " entry " + e);
                if (codes.get(e) == Dtz.NONE) continue; // a compressed file's don't-care entries: any code
                assertEquals(codes.get(e), compressed.result(e), m.name() + " entry " + e + ", compressed");
                counts[e & 1][Dtz.wdl(codes.get(e), Dtz.RULE_PLIES) + 2]++;
            }
            compressed.close();
            for (int s = 0; s < 2; s++) {
                Manifest.DtzSide side = manifest.dtz().sides().get(s);
                assertEquals(counts[s][4], side.win(), m.name());
                assertEquals(counts[s][2], side.draw(), m.name());
                assertEquals(counts[s][0], side.loss(), m.name());
                assertEquals(counts[s][3] + counts[s][1], side.cursedWin() + side.blessedLoss(), m.name());
            }
            assertTrue(manifest.dtz().sides().get(0).longestWin() > 0, m.name() + " has White wins");

            // the probe: every seventh entry, and the same position with the colours swapped (KRKQ from KQKR's DTZ)
            PositionIndex index = new PositionIndex(m);
            int[] squares = new int[m.size()];
            try (Tablebase tb = Tablebase.open(folder, Tablebase.Check.SHA256)) {
                for (int e = 0; e < codes.size(); e += 7) {
                    if (codes.get(e) == Dtz.NONE) continue;
                    index.decode(e / 2, squares);
                    Position p = new Position(m, squares, e % 2 == 0 ? Color.WHITE : Color.BLACK);
                    assertEquals(Dtz.signed(codes.get(e)), tb.probeDtz(p), p::toString);
                    assertEquals(Dtz.wdl(codes.get(e), Dtz.RULE_PLIES), tb.probeWdl50(p.coloursSwapped()), p::toString);
                    if (e % 97 != 0) continue;
                    // a whole probe: its DTZ, a DTZ-optimal move whose worth is the position's, Lichess's fields
                    ProbeResult r = tb.probe(p);
                    assertEquals(Dtz.signed(codes.get(e)), r.dtz(), p::toString);
                    if (r.moves().isEmpty()) continue;
                    Move best = r.dtzBestMove();
                    Position after = p.play(best);
                    int afterCode = after.material().size() == 2 ? Dtz.DRAW
                            : inMemory.get(after.material().tableMaterial()).result(entryOf(after.material().isTableMaterial() ? after : after.coloursSwapped()));
                    assertEquals(codes.get(e), Dtz.byMove(afterCode, best.isCapture(), Dtz.RULE_PLIES), p + " " + best.uci());
                    Map<String, Object> lichess = LichessJson.standard(r, 0);
                    assertEquals(r.dtz(), lichess.get("dtz"));
                    int wdl = Dtz.wdl(codes.get(e), Dtz.RULE_PLIES);
                    assertEquals(wdl == 2 ? "win" : wdl == -2 ? "loss" : wdl == 0 ? "draw" : wdl == 1 ? "cursed-win" : "blessed-loss", lichess.get("category"), p::toString);
                }
            }
        }
        try (Tablebase tb = Tablebase.open(dir.resolve("kqkr"))) { // a position the checks above cannot reach: bare kings
            assertEquals(0, tb.probeDtz(Fen.parse("8/8/8/8/8/2k5/8/K7 w - - 0 1")));
            SampleCheck.Report sample = SampleCheck.run(tb, tb, Material.parse("KQKR"), 20_000, 7); // what jobs/verify --sample runs
            assertEquals(0, sample.mismatches(), sample.firstMismatch());
        }
        // a copy whose KQKR DTZ has every 50th decided result a ply longer: the sample check finds it
        Path copy = tmp.resolve("damaged");
        for (String t : new String[] {"kqkr", "kqk", "krk"}) {
            Files.createDirectories(copy.resolve(t));
            try (var files = Files.list(dir.resolve(t))) {
                for (Path f : files.toList()) if (Files.isRegularFile(f)) Files.copy(f, copy.resolve(t).resolve(f.getFileName()));
            }
        }
        long changed = 0;
        for (Manifest.FileEntry part : Manifest.read(copy.resolve("kqkr").resolve(Manifest.FILE)).dtz().files()) {
            Path dtzFile = copy.resolve("kqkr").resolve(part.name());
            byte[] bytes = Files.readAllBytes(dtzFile);
            long first = 2 * part.firstIndex(), entries = 2 * (part.endIndex() - part.firstIndex());
            for (int at = 0; at < entries; at++) { // the packed format: a header, then the result plane and the move plane
                int b = bytes[IndexedTable.HEADER + at] & 0xFF;
                if (b > 0 && b < 250 && (first + at) % 50 == 0) {
                    bytes[IndexedTable.HEADER + at] = (byte) (b + 2);
                    changed++;
                }
            }
            Files.write(dtzFile, bytes);
        }
        assertTrue(changed > 10_000, changed + " entries changed");
        try (Tablebase tb = Tablebase.open(java.util.List.of(copy.resolve("kqkr")), Tablebase.Check.HEADERS, 1 << 26, Tablebase.Source.PACKED)) {
            SampleCheck.Report sample = SampleCheck.run(tb, tb, Material.parse("KQKR"), 20_000, 7);
            assertTrue(sample.mismatches() > 0 && sample.firstMismatch().contains("DTZ"), sample.toString());
        }
        // smaller tables made without DTZ: a run asked for it reuses them and writes none for the table that reaches them
        Path plain = tmp.resolve("plain");
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQKR", "--out", plain.resolve("kqkr").toString(), "--no-parquet"}));
        try (var files = Files.walk(plain.resolve("kqkr"))) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQKR", "--out", plain.resolve("kqkr").toString(), "--no-parquet", "--dtz"}));
        assertEquals(null, SparkTestSession.session().conf().get(RunSettings.DTZ, null), "--dtz is for its run alone");
        assertNull(Manifest.read(plain.resolve("kqkr").resolve(Manifest.FILE)).dtz());
        try (Tablebase tb = Tablebase.open(plain.resolve("kqkr"))) {
            TablebaseException e = assertThrows(MissingTableException.class, () -> tb.probeDtz(Fen.parse("8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1")));
            assertTrue(e.getMessage().contains("without DTZ"), e.getMessage());
        }
    }

    /**
     * The Parquet rows carry each position's DTZ and five-valued WDL, written by each part's task (KQKR in several
     * parts): the views' counts by result under the rule are the kernel's in memory, sampled rows (of KQKR, of KRKQ
     * read from its rows, of every position) answer as the probe does, a table made without DTZ has none, and the five
     * results are named as Lichess names them.
     */
    @Test
    void theRowsCarryEachPositionsDtzForSql() throws Exception {
        Path dir = GeneratedTables.dtzKqkr();
        Material kqkr = Material.parse("KQKR");
        assertTrue(Manifest.read(dir.resolve("kqkr").resolve(Manifest.FILE)).parquetFiles().size() > 1, "KQKR's rows in several parts");
        org.apache.spark.sql.SparkSession spark = SparkTestSession.session();
        TableView.registerFolder(spark, dir.toString(), line -> { throw new AssertionError(line); });
        Map<Material, EntryResults> smaller = new HashMap<>();
        for (Material m : TablePlan.of(kqkr)) {
            if (m.equals(kqkr)) continue;
            DtzCodes codes = DtzSolve.solve(new PositionIndex(m), new MoveGenerator(m), new Successors(m, null, Map.of()), Dtz.RULE_PLIES);
            smaller.put(m, codes);
        }
        DtzCodes codes = DtzSolve.solve(new PositionIndex(kqkr), new MoveGenerator(kqkr), new Successors(kqkr, null, smaller), Dtz.RULE_PLIES);
        String[] names = {"loss", "blessed-loss", "draw", "cursed-win", "win"};
        Map<String, Long> expected = new HashMap<>();
        for (int e = 0; e < codes.size(); e++)
            if (codes.get(e) != Dtz.NONE) expected.merge((e % 2 == 0 ? "w " : "b ") + names[Dtz.wdl(codes.get(e), Dtz.RULE_PLIES) + 2], 1L, Long::sum);
        Map<String, Long> counted = new HashMap<>();
        for (org.apache.spark.sql.Row r : spark.sql("SELECT stm, result50, count(*) FROM kqkr GROUP BY stm, result50").collectAsList())
            counted.put(r.getString(0) + " " + r.getString(1), r.getLong(2));
        assertEquals(expected, counted);
        // jobs/stats' figures under the rule, in positions: each row's result weighed by the positions it stands for
        PositionIndex index = new PositionIndex(kqkr);
        long[][] positions = new long[2][5];
        int[] longest = new int[2], squares = new int[kqkr.size()];
        for (long i = 0; i < index.size(); i++) {
            if (codes.get(2 * i) == Dtz.NONE && codes.get(2 * i + 1) == Dtz.NONE) continue;
            int n = index.positions(i, squares);
            for (int side = 0; side < 2; side++) {
                int code = codes.get(2 * i + side);
                if (code == Dtz.NONE) continue;
                positions[side][Dtz.wdl(code, Dtz.RULE_PLIES) + 2] += n;
                longest[side] = Math.max(longest[side], Dtz.plies(code));
            }
        }
        Map<Color, TableStats.Rule50> rule50 = TableStats.rule50(spark, new TableView(kqkr, kqkr, "kqkr", dir.resolve("kqkr").toString()));
        for (Color c : Color.values()) {
            org.junit.jupiter.api.Assertions.assertArrayEquals(positions[c.ordinal()], rule50.get(c).byWdl(), c.toString());
            assertEquals(longest[c.ordinal()], rule50.get(c).longestDtz(), c.toString());
        }
        try (Tablebase tb = Tablebase.open(dir)) {
            for (String view : new String[] {"kqkr", "krkq", "kqkr_positions"}) {
                java.util.List<org.apache.spark.sql.Row> rows = spark.sql("SELECT fen, dtz, wdl, result50, result FROM " + view
                        + " TABLESAMPLE (0.2 PERCENT) REPEATABLE (5)").collectAsList();
                assertTrue(rows.size() > 1000, view + ": " + rows.size() + " rows");
                for (org.apache.spark.sql.Row r : rows) {
                    Position p = Fen.parse(r.getString(0));
                    assertEquals(tb.probeDtz(p), r.getInt(1), view + " " + p);
                    assertEquals(tb.probeWdl50(p), r.getInt(2), view + " " + p);
                    assertEquals(names[r.getInt(2) + 2], r.getString(3), view + " " + p);
                    assertEquals(r.getString(4), r.getString(3).replace("cursed-", "").replace("blessed-", ""), view + " " + p);
                }
            }
        }
        TableView.register(spark, GeneratedTables.folder("KQKR").toString());
        assertEquals(0L, spark.sql("SELECT count(*) FROM kqkr WHERE dtz IS NOT NULL OR wdl IS NOT NULL OR result50 IS NOT NULL").first().getLong(0),
                "a table made without DTZ");
        assertTrue(TableStats.rule50(spark, new TableView(kqkr, kqkr, "kqkr", GeneratedTables.folder("KQKR").toString())).isEmpty());

        // the five values of WDL named as Lichess's categories (KQKR has no cursed result to read), on rows of the stored schema
        Material krk = Material.parse("KRK");
        java.util.List<org.apache.spark.sql.Row> stored = new java.util.ArrayList<>();
        for (int wdl = -2; wdl <= 2; wdl++)
            stored.add(org.apache.spark.sql.RowFactory.create(0L, 0L, (byte) 0, null, null, (byte) 8, (short) (wdl * 60), (byte) wdl));
        java.util.List<org.apache.spark.sql.Row> read = spark.createDataFrame(stored, PositionRows.schema())
                .selectExpr(TableView.rowColumns(krk, krk, true, true)).select("wdl", "dtz", "result50").collectAsList();
        for (int k = 0; k < 5; k++) {
            assertEquals(k - 2, read.get(k).getInt(0));
            assertEquals((k - 2) * 60, read.get(k).getInt(1));
            assertEquals(names[k], read.get(k).getString(2));
        }
    }

    /**
     * A run that keeps no packed files leaves each table's DTZ in its compressed files alone, and a run that makes KQKR
     * again reads its smaller tables' DTZ from those: the same compressed DTZ, byte for byte, as the run above.
     */
    @Test
    void aSetKeepsItsDtzCompressedAndARunReadsItFromThere(@TempDir Path tmp) throws Exception {
        Path kept = GeneratedTables.dtzKqkr();
        Path kqkr = tmp.resolve("kqkr");
        org.apache.spark.sql.RuntimeConfig conf = SparkTestSession.session().conf();
        conf.set(RunSettings.ENTRIES_PER_FILE, "2000000"); // as the folder above, whose KQKR DTZ is in parts (a --conf would stay in the shared session)
        try {
            assertEquals(0, Generate.generate(new String[] {"--endgame", "KQKR", "--out", kqkr.toString(), "--no-parquet", "--dtz"}));
            for (String t : new String[] {"kqkr", "kqk", "krk"}) {
                Manifest.DtzFigures dtz = Manifest.read(tmp.resolve(t).resolve(Manifest.FILE)).dtz();
                assertNull(dtz.files(), t + ": no packed DTZ listed");
                try (var files = Files.list(tmp.resolve(t))) {
                    assertTrue(files.noneMatch(f -> f.getFileName().toString().matches(".*\\.dtz(\\.\\d{5})?\\.tbl")), t + ": no packed DTZ file");
                }
            }
            assertEquals(0, Generate.generate(new String[] {"--endgame", "KQKR", "--out", kqkr.toString(), "--no-parquet", "--dtz", "--overwrite"}));
        } finally {
            conf.unset(RunSettings.ENTRIES_PER_FILE);
        }
        assertEquals(Manifest.read(kept.resolve("kqkr").resolve(Manifest.FILE)).dtz().compressedFiles(),
                Manifest.read(kqkr.resolve(Manifest.FILE)).dtz().compressedFiles());
        try (Tablebase tb = Tablebase.open(kqkr)) {
            assertEquals(1, tb.probeDtz(Fen.parse("8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1")), "Qxb2+ zeroes at once");
        }
    }

    /**
     * The server's Lichess mainline over tables with DTZ is lila-tablebase's: each step DTZ-optimal (its worth the
     * position's DTZ) with the DTZ and DTM after it, to mate and its winner, or, the clock given near 100, until the
     * clock reaches 100 (no winner); and the moves come in lila-tablebase's order.
     */
    @Test
    void theLichessMainlineKeepsTheResultUnderTheRuleAndTheMovesComeInLichesssOrder() throws Exception {
        Path dir = GeneratedTables.dtzKqkr();
        Material kqkr = Material.parse("KQKR");
        java.util.Random random = new java.util.Random(11);
        String[] order = {"loss", "unknown", "maybe-loss", "blessed-loss", "draw", "cursed-win", "maybe-win", "win"};
        try (Tablebase tb = Tablebase.open(dir); io.github.tablebase.web.ProbeServer server = io.github.tablebase.web.ProbeServer.start(tb, "127.0.0.1", 0, 2)) {
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            int lines = 0, cut = 0;
            for (int i = 0; i < 60; i++) {
                Position p = Position.randomLegal(kqkr, Color.values()[i % 2], random);
                int dtz = tb.probeDtz(p), clock = i % 3 == 2 ? 100 - Math.max(1, Math.abs(dtz) / 2) : 0;
                String fen = Fen.of(p).replace(" 0 1", " " + clock + " 1");
                Map<String, Object> j = io.github.tablebase.probe.Json.parseObject(http.send(java.net.http.HttpRequest.newBuilder(
                        server.uri().resolve("standard/mainline?fen=" + fen.replace(' ', '_'))).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body());
                assertEquals(dtz, ((Number) j.get("dtz")).intValue(), fen);
                java.util.List<?> line = (java.util.List<?>) j.get("mainline");
                Position at = p;
                int halfmoves = clock;
                for (Object o : line) {
                    Map<?, ?> step = (Map<?, ?>) o;
                    int code = code(tb, at);
                    Move m = at.legalMoves().stream().filter(x -> x.uci().equals(step.get("uci"))).findFirst().orElseThrow();
                    boolean zeroing = m.isCapture() || at.piece(m.piece()).type() == io.github.tablebase.chess.PieceType.PAWN;
                    at = at.play(m);
                    assertEquals(code, Dtz.byMove(code(tb, at), zeroing, Dtz.RULE_PLIES), fen + ": " + step + " keeps the DTZ");
                    assertEquals(tb.probeDtz(at), ((Number) step.get("dtz")).intValue(), fen + ": " + step);
                    assertEquals(tb.probeDtmPlies(at).orElse(0), ((Number) step.get("dtm")).intValue(), fen + ": " + step);
                    halfmoves = zeroing ? 0 : halfmoves + 1;
                }
                if (dtz == 0) assertEquals(java.util.List.of(), line, fen);
                else if (at.isCheckmate()) {
                    assertEquals(String.valueOf((dtz > 0 ? p.sideToMove() : p.sideToMove().opponent()).fenLetter()), j.get("winner"), fen);
                    lines++;
                } else {
                    assertEquals(100, halfmoves, fen + ": a line that ends before mate ends at the rule");
                    assertNull(j.get("winner"), fen);
                    cut++;
                }

                java.util.List<?> moves = (java.util.List<?>) io.github.tablebase.probe.Json.parseObject(http.send(java.net.http.HttpRequest.newBuilder(
                        server.uri().resolve("standard?fen=" + fen.replace(' ', '_'))).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body()).get("moves");
                for (int k = 1; k < moves.size(); k++) {
                    Map<?, ?> a = (Map<?, ?>) moves.get(k - 1), b = (Map<?, ?>) moves.get(k);
                    int ca = java.util.Arrays.asList(order).indexOf(a.get("category")), cb = java.util.Arrays.asList(order).indexOf(b.get("category"));
                    assertTrue(ca <= cb, fen + ": " + a + " before " + b);
                    if (ca == cb && !(Boolean) b.get("checkmate"))
                        assertTrue(((Number) a.get("dtm")).intValue() >= ((Number) b.get("dtm")).intValue(), fen + ": " + a + " before " + b);
                }
            }
            assertTrue(lines > 10 && cut > 5, lines + " lines to mate, " + cut + " cut by the rule");
        }
    }

    /** A position's {@link Dtz} code from the probe's signed DTZ (0 is a draw or, with no move, checkmate). */
    private static int code(Tablebase tb, Position p) {
        int signed = tb.probeDtz(p);
        return signed > 0 ? Dtz.win(signed) : signed < 0 || p.isCheckmate() ? Dtz.loss(-signed) : Dtz.DRAW;
    }

    private static java.util.List<Manifest.FileEntry> concat(java.util.List<Manifest.FileEntry> a, java.util.List<Manifest.FileEntry> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static long entryOf(Position p) {
        return 2 * new PositionIndex(p.material()).index(p) + p.sideToMove().ordinal();
    }
}
