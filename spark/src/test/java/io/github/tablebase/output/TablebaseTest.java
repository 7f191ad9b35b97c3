package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.KbnkTable;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.IllegalPositionException;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.MissingTableException;
import io.github.tablebase.probe.ProbeResult.Category;
import io.github.tablebase.probe.ProbeResult.MoveResult;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Probing KBNK: every position against the Parquet rows, Black against the seed file move by move, lines to mate, errors, threads. */
class TablebaseTest {
    private static Path folder;
    private static Tablebase tablebase;
    private static PackedTable packed;

    @BeforeAll
    static void open() throws Exception {
        folder = KbnkTable.folder();
        tablebase = Tablebase.open(folder);
        packed = PackedTable.open(folder.resolve("kbnk.bin"));
    }

    /** A random legal KBNK position, either bishop colour and side to move. */
    static Position randomLegal(Random random) {
        return Position.randomLegal(PackedTable.KBNK, random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
    }

    @Test
    void theDtmOfEveryLegalPositionAddsUpToTheParquetRowsWeightedByThePositionsTheyStandFor() {
        // index: side * 64 + dtm; a draw counted at 63
        AtomicLongArray counts = new AtomicLongArray(128);
        IntStream.range(0, 64).parallel().forEach(wk -> {
            long[] local = new long[128];
            for (int wb = 0; wb < 64; wb++)
                for (int wn = 0; wn < 64; wn++)
                    for (int bk = 0; bk < 64; bk++)
                        for (Color side : Color.values()) {
                            Position p = new Position(PackedTable.KBNK, new int[] {wk, wb, wn, bk}, side);
                            if (!p.isLegal()) continue;
                            local[side.ordinal() * 64 + (tablebase.probeWdl(p) == 0 ? 63 : Math.abs(tablebase.probeDtm(p)))]++;
                        }
            for (int i = 0; i < 128; i++) counts.addAndGet(i, local[i]);
        });
        long[] fromParquet = new long[128];
        // the stored rows as docs/formats.md describes them: side, ply (null for a draw), positions
        for (Row r : SparkTestSession.session().read().parquet(folder.resolve(TableExport.PARQUET).toString())
                .selectExpr("side", "CAST(coalesce((ply + 1) DIV 2, 63) AS INT) AS dtm", "CAST(positions AS LONG) AS positions")
                .groupBy("side", "dtm").sum("positions").collectAsList())
            fromParquet[r.getByte(0) * 64 + r.getInt(1)] = r.getLong(2);
        long[] probed = new long[128];
        for (int i = 0; i < 128; i++) probed[i] = counts.get(i);
        assertArrayEquals(probed, fromParquet);
        assertEquals(10_822_184, IntStream.range(1, 63).mapToLong(i -> probed[i]).sum(), "White-to-move wins, both bishop colours");
        assertEquals(11_188_168, IntStream.range(64, 127).mapToLong(i -> probed[i]).sum(), "Black-to-move losses");
    }

    @Test
    void blackResultsAgreeWithAMoveByMoveEvaluationAndParquetsBestDefence() throws Exception {
        // move by move, as the KBNK table tests evaluate Black, on random positions
        Random random = new Random(11);
        for (int i = 0; i < 200_000; i++) {
            Position p = randomLegal(random);
            if (p.sideToMove() == Color.WHITE) continue;
            assertEquals(KbnkTableTest.blackDepth(packed, p), unsignedDtm(p), p::toString);
        }
        // against a sample of Parquet rows, both sides: the probe's DTM and best move are the row's
        List<Row> sample = SparkTestSession.session().table(TableView.register(SparkTestSession.session(), folder.toString()).name())
                .filter("result != 'draw'").sample(0.05, 3).select("fen", "dtm", "best_move").collectAsList();
        assertTrue(sample.size() > 50_000, "sampled " + sample.size());
        for (Row r : sample) {
            ProbeResult probe = tablebase.probe(r.getString(0));
            assertEquals(r.getInt(1), probe.dtm(), r::toString);
            assertEquals(r.getString(2), probe.bestMove() == null ? null : probe.bestMove().uci(), r::toString);
        }
    }

    @Test
    void everyMainlineIsBestPlayToCheckmateOfExactlyTheRightLength() {
        Random random = new Random(5);
        List<Position> positions = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) positions.add(randomLegal(random));
        positions.add(Fen.parse("8/8/8/8/8/8/4B3/K1kN4 b - - 0 1")); // among the deepest: lost in 33
        int wins = 0, losses = 0, draws = 0;
        for (Position start : positions) {
            ProbeResult r = tablebase.probe(start);
            assertEquals(new HashSet<>(start.legalMoves()), new HashSet<>(r.moves().stream().map(MoveResult::move).toList()));
            if (r.category() == Category.DRAW) {
                draws++;
                assertNull(r.dtm());
                assertTrue(r.mainline().isEmpty());
                if (!r.moves().isEmpty()) assertEquals(Category.DRAW, r.moves().get(0).category(), start::toString);
                continue;
            }
            int d = r.dtm();
            boolean white = start.sideToMove() == Color.WHITE;
            if (white) wins++; else losses++;
            assertEquals(white ? Category.WIN : Category.LOSS, r.category());
            assertEquals(white ? 2 * d - 1 : 2 * d, r.mainline().size(), start::toString);
            if (!r.moves().isEmpty()) {
                assertEquals(r.bestMove(), r.moves().get(0).move());
                assertEquals(white ? d - 1 : d, r.moves().get(0).dtm(), start::toString);
            }
            Position p = start;
            for (Move m : r.mainline()) {
                assertTrue(p.legalMoves().contains(m), () -> m.uci() + " in " + start);
                int before = unsignedDtm(p);
                p = p.play(m);
                assertEquals(p.sideToMove() == Color.BLACK ? before - 1 : before, unsignedDtm(p), start::toString);
            }
            assertTrue(p.isCheckmate(), () -> "the line from " + start + " ends in " + "a position that is not mate");
        }
        assertTrue(wins > 500 && losses > 500 && draws > 50, wins + " wins, " + losses + " losses, " + draws + " draws");
    }

    /** The moves to mate of whichever side mates, -1 for a draw (the seed's form of a DTM). */
    private static int unsignedDtm(Position p) {
        return tablebase.probeWdl(p) == 0 ? -1 : Math.abs(tablebase.probeDtm(p));
    }

    @Test
    void drawsAndCapturesAreNamedAsSuch() {
        ProbeResult capture = tablebase.probe("8/8/8/8/8/8/8/KBNk4 b - - 0 1");
        assertEquals(Category.DRAW, capture.category());
        assertEquals("d1c1", capture.bestMove().uci());
        assertTrue(capture.moves().get(0).move().isCapture());
        ProbeResult mated = tablebase.probe("k7/8/NK6/8/8/8/6B1/8 b - - 0 1");
        assertEquals(Category.LOSS, mated.category());
        assertEquals(0, mated.dtm());
        assertNull(mated.bestMove());
        assertTrue(mated.moves().isEmpty() && mated.mainline().isEmpty());
        ProbeResult stalemate = tablebase.probe("k7/2K5/8/1N6/8/8/8/1B6 b - - 0 1");
        assertTrue(stalemate.position().isStalemate());
        assertEquals(Category.DRAW, stalemate.category());
        // in plies, checkmate (0) and a draw (empty) differ; a win and a loss count the plies of the mainline
        assertEquals(0, tablebase.probeDtmPlies(mated.position()).orElseThrow());
        assertTrue(tablebase.probeDtmPlies(stalemate.position()).isEmpty() && tablebase.probeDtmPlies(capture.position()).isEmpty());
        Random random = new Random(23);
        for (int i = 0; i < 200; i++) {
            Position p = randomLegal(random);
            ProbeResult r = tablebase.probe(p);
            java.util.OptionalInt plies = tablebase.probeDtmPlies(p);
            if (r.category() == Category.DRAW) assertTrue(plies.isEmpty(), p::toString);
            else assertEquals((r.category() == Category.WIN ? 1 : -1) * r.mainline().size(), plies.orElseThrow(), p::toString);
        }
    }

    @Test
    void aBadFenOrIllegalPositionAndAMissingMaterialAreDistinctOneLineErrors() {
        for (String fen : new String[] {"", "nonsense", "8/8/8/8/8/8/1k6/KBN5 w - - 0 1", "8/8/8/8/8/8/2k5/KBN5 w - - 0 1",
                "8/8/8/8/8/8/8/KBN1k3 x - - 0 1"}) {
            IllegalPositionException e = assertThrows(IllegalPositionException.class, () -> tablebase.probe(fen), fen);
            assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), e.getMessage());
            assertThrows(IllegalPositionException.class, () -> tablebase.probeDtm(fen), fen);
        }
        Position touching = Fen.parse("8/8/8/8/8/8/1k6/KBN5 w - - 0 1");
        assertTrue(assertThrows(IllegalPositionException.class, () -> tablebase.probeWdl(touching)).getMessage().contains("the kings touch"));
        assertTrue(tablebase.getDtm(touching).isEmpty() && tablebase.getWdl(touching).isEmpty());
        Position stacked = new Position(Material.parse("KBNK"), new int[] {0, 20, 20, 40}, Color.WHITE); // bishop and knight on e3
        assertTrue(assertThrows(IllegalPositionException.class, () -> tablebase.probeDtm(stacked)).getMessage().contains("two pieces on e3"));
        int[] batch = new int[1];
        assertThrows(IllegalPositionException.class, () -> tablebase.probeDtm(new Position[] {stacked}, batch));
        for (String fen : new String[] {"8/8/8/8/8/8/8/KQ4k1 w - - 0 1", "8/8/8/8/8/8/8/KBBk4 w - - 0 1"}) {
            MissingTableException e = assertThrows(MissingTableException.class, () -> tablebase.probe(fen), fen);
            assertTrue(e.getMessage().contains(Fen.parse(fen).material().name()), e.getMessage());
            assertTrue(tablebase.getDtm(Fen.parse(fen)).isEmpty());
        }
        Position win = Fen.parse("8/8/8/8/8/2k5/8/KBN5 w - - 0 1");
        assertEquals(tablebase.probe(win).dtm(), tablebase.getDtm(win).orElseThrow());
        assertEquals(1, tablebase.getWdl(win).orElseThrow());
    }

    @Test
    void openRefusesAMissingFolderOrManifestAWrongSizeAndADamagedFile(@TempDir Path dir) throws Exception {
        IOException missing = assertThrows(IOException.class, () -> Tablebase.open(dir.resolve("nowhere")));
        assertTrue(missing.getMessage().contains("no such folder") && missing.getMessage().contains("--up-to"), missing.getMessage());
        IOException missingTable = assertThrows(IOException.class, () -> Tablebase.open(dir.resolve("krpkr")));
        assertTrue(missingTable.getMessage().contains("jobs/generate --endgame KRPKR --out "), "the hint names the folder's table: "
                + missingTable.getMessage());
        MissingTableException noManifest = assertThrows(MissingTableException.class, () -> Tablebase.open(dir));
        assertTrue(noManifest.getMessage().contains("holds no table"), noManifest.getMessage());
        Path copy = dir.resolve("kbnk");
        Files.createDirectories(copy);
        // a folder with packed files only (as written before the compressed format): the probe reads those
        Manifest m = Manifest.read(folder.resolve(Manifest.FILE));
        try (java.io.OutputStream out = Files.newOutputStream(copy.resolve(Manifest.FILE))) {
            new Manifest(m.endgame(), m.indexSize(), m.sides(), m.parquet(), m.packedFiles(), null, m.seedFile(), m.subTables(), m.made(), m.dtz()).write(out);
        }
        Files.write(copy.resolve("kbnk.tbl"), new byte[1000]);
        CorruptTableException small = assertThrows(CorruptTableException.class, () -> Tablebase.open(copy));
        assertTrue(small.getMessage().contains("not a packed table"), small.getMessage());

        byte[] bytes = Files.readAllBytes(folder.resolve("kbnk.tbl"));
        bytes[bytes.length / 2] ^= 1;
        Files.write(copy.resolve("kbnk.tbl"), bytes);
        Tablebase.open(copy).close(); // the header and size are right: a SHA-256 check is asked for
        CorruptTableException damaged = assertThrows(CorruptTableException.class, () -> Tablebase.open(copy, Tablebase.Check.SHA256));
        assertTrue(damaged.getMessage().contains("does not match the SHA-256"), damaged.getMessage());

        // the packed file whole again, a Parquet file damaged: the SHA-256 check reads the rows' files too
        Files.copy(folder.resolve("kbnk.tbl"), copy.resolve("kbnk.tbl"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(folder.resolve("kbnk.bin"), copy.resolve("kbnk.bin"));
        Path rows = Files.createDirectories(copy.resolve(TableExport.PARQUET));
        List<Path> parquet;
        try (java.util.stream.Stream<Path> files = Files.list(folder.resolve(TableExport.PARQUET))) {
            parquet = files.filter(f -> f.toString().endsWith(".parquet")).sorted().toList();
        }
        assertTrue(!parquet.isEmpty());
        for (Path f : parquet) Files.copy(f, rows.resolve(f.getFileName()));
        Tablebase.open(copy, Tablebase.Check.SHA256).close();
        byte[] part = Files.readAllBytes(parquet.get(0));
        part[part.length / 2] ^= 1;
        Files.write(rows.resolve(parquet.get(0).getFileName()), part);
        CorruptTableException badRows = assertThrows(CorruptTableException.class, () -> Tablebase.open(copy, Tablebase.Check.SHA256));
        assertTrue(badRows.getMessage().contains(parquet.get(0).getFileName().toString()) && badRows.getMessage().contains("does not match the SHA-256"),
                badRows.getMessage());
    }

    @Test
    void oneInstanceServesManyThreadsEachInItsOwnOrderWithTheSameAnswersUntilClosed() throws Exception {
        Random random = new Random(17);
        List<Position> positions = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) positions.add(randomLegal(random));
        Map<Position, ProbeResult> expected = new HashMap<>();
        for (Position p : positions) expected.put(p, tablebase.probe(p));
        assertTrue(expected.values().stream().map(ProbeResult::category).distinct().count() == 3, "wins, losses and draws");
        try (Tablebase shared = Tablebase.open(folder)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Map<Position, ProbeResult>>> runs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    List<Position> order = new ArrayList<>(positions);
                    java.util.Collections.shuffle(order, new Random(t)); // every thread at other positions at the same moment
                    runs.add(pool.submit(() -> {
                        Map<Position, ProbeResult> answers = new HashMap<>();
                        for (Position p : order) answers.put(p, shared.probe(p));
                        return answers;
                    }));
                }
                for (Future<Map<Position, ProbeResult>> run : runs) assertEquals(expected, run.get());
            } finally {
                pool.shutdownNow();
            }
            shared.close();
            assertEquals(0, shared.cacheUsed(), "close drops the blocks");
            assertThrows(IllegalStateException.class, () -> shared.probe(positions.get(0)));
            assertThrows(IllegalStateException.class, () -> shared.probeDtm(positions.get(0)));
        }
    }

    @Test
    void threadsEvictingEachOthersBlocksFromASmallCacheReadWhatOneThreadReads() throws Exception {
        Random random = new Random(19);
        Position[] positions = new Position[2_000];
        int[] expected = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = Position.randomLegal(PackedTable.KBNK, Color.WHITE, random); // the stored side: one block read each
            expected[i] = tablebase.probeDtm(positions[i]);
        }
        // four of KBNK's compressed blocks at most: nearly every lookup decompresses a block and evicts another
        try (Tablebase shared = Tablebase.open(List.of(folder), Tablebase.Check.HEADERS, 4 * CompressedTable.BLOCK)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<int[]>> runs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int offset = t * 500;
                    runs.add(pool.submit(() -> {
                        int[] dtm = new int[positions.length];
                        for (int k = 0; k < positions.length; k++) {
                            int i = (k + offset) % positions.length;
                            dtm[i] = shared.probeDtm(positions[i]);
                        }
                        return dtm;
                    }));
                }
                for (Future<int[]> run : runs) assertArrayEquals(expected, run.get());
            } finally {
                pool.shutdownNow();
            }
            assertTrue(shared.cacheUsed() > 0 && shared.cacheUsed() <= shared.cacheBudget(), shared.cacheUsed() + " bytes held");
        }
    }
}
