package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.BruteForce;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.cli.Generate;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.ProbeResult.Category;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tables written by generate and read back: the packed file, its probe, the Parquet rows and the manifest. */
class IndexedTableTest {
    private static final Material KRK = Material.parse("KRK"), KQK = Material.parse("KQK");
    @TempDir static Path dir;
    private static Tablebase krk, kkq;

    @BeforeAll
    static void generate() throws Exception {
        SparkTestSession.get();
        for (String endgame : List.of("KRK", "KKQ"))
            assertEquals(0, Generate.generate(new String[] {"--endgame", endgame, "--partitions", "2", "--keep-packed", "--out",
                    dir.resolve(endgame.toLowerCase()).toString()}));
        krk = Tablebase.open(dir.resolve("krk"));
        kkq = Tablebase.open(dir.resolve("kkq"));
    }

    /** The brute force's result for a legal position, as (category, dtm). */
    private static Object[] expected(BruteForce brute, Position p) {
        int ply = brute.ply(p.key());
        if (ply < 0) return new Object[] {Category.DRAW, null};
        return ply % 2 == 1 ? new Object[] {Category.WIN, (ply + 1) / 2} : new Object[] {Category.LOSS, ply / 2};
    }

    /** The signed DTM of a brute-force answer: positive when the side to move mates, negative when it is mated, 0 a draw. */
    private static int signed(Object[] want) {
        return want[0] == Category.WIN ? (int) want[1] : want[0] == Category.LOSS ? -(int) want[1] : 0;
    }

    @Test
    void everyKrkPositionProbesAsTheBruteForceSaysWithALegalMainlineFromEitherFile() throws IOException {
        BruteForce brute = BruteForce.solve(KRK, Map.of());
        // the packed file stores both sides and the best moves; the compressed one (krk) White's side alone
        Tablebase packed = Tablebase.open(List.of(dir.resolve("krk")), Tablebase.Check.HEADERS, 0, Tablebase.Source.PACKED);
        Random random = new Random(5);
        long checked = 0, lines = 0;
        for (long key = 0; key < 1L << 19; key++) {
            Position p = Position.fromKey(KRK, key);
            if (p.key() != key || !p.isLegal()) continue;
            Object[] want = expected(brute, p);
            assertEquals(signed(want), krk.probeDtm(p), p::toString);
            assertEquals(signed(want), packed.probeDtm(p), p::toString);
            assertEquals(want[0] == Category.WIN ? 1 : want[0] == Category.LOSS ? -1 : 0, krk.probeWdl(p), p::toString);
            checked++;
            if (random.nextInt(50) != 0) continue;
            ProbeResult r = krk.probe(p); // checks every step of the mainline against the table
            assertEquals(want[0], r.category(), p::toString);
            int plies = r.dtm() == null ? 0 : r.category() == Category.WIN ? 2 * r.dtm() - 1 : 2 * r.dtm();
            assertEquals(plies, r.mainline().size(), p::toString);
            if (plies > 0) assertEquals(r.bestMove(), r.mainline().get(0), p::toString);
            assertEquals(packed.probe(p), r, () -> "the searched best moves are the stored ones: " + p);
            lines++;
        }
        packed.close();
        assertTrue(checked > 300_000 && lines > 5_000, checked + " positions, " + lines + " lines");
    }

    /** A KQK position with the colours swapped and the board turned: the same fight, Black's queen hunting White's king. */
    private static Position colourSwapped(Position p) {
        int wk = p.square(0), wq = p.square(1), bk = p.square(2);
        return new Position(Material.parse("KKQ"), new int[] {Square.transform(bk, 2), Square.transform(wk, 2), Square.transform(wq, 2)},
                p.sideToMove().opponent());
    }

    @Test
    void blackQueenWinsKkqExactlyAsWhiteQueenWinsKqk() {
        BruteForce brute = BruteForce.solve(KQK, Map.of());
        long wins = 0;
        for (long key = 0; key < 1L << 19; key++) {
            Position p = Position.fromKey(KQK, key);
            if (p.key() != key || !p.isLegal()) continue;
            Object[] want = expected(brute, p);
            Position swapped = colourSwapped(p);
            assertEquals(signed(want), kkq.probeDtm(swapped), swapped::toString);
            if (want[0] == Category.WIN) {
                assertEquals(Category.WIN, kkq.probe(swapped).category(), swapped::toString);
                wins++;
            }
        }
        assertTrue(wins > 100_000, wins + " Black wins");
    }

    @Test
    void parquetRowsAreTheCanonicalPositionsAndCanonicalFenOrPositionKeyFindsAnyPosition() throws IOException {
        SparkSession spark = SparkTestSession.session();
        TableView view = TableView.register(spark, dir.resolve("krk").toString());
        Manifest manifest = Manifest.read(dir.resolve("krk").resolve(Manifest.FILE));
        long rows = spark.table(view.name()).count();
        assertEquals(manifest.parquet().rows(), rows);
        PositionIndex index = new PositionIndex(KRK);
        for (Row row : spark.sql("SELECT key, stm, result, dtm, best_move, fen FROM krk TABLESAMPLE (1 PERCENT) REPEATABLE (3)").collectAsList()) {
            Position p = Fen.parse(row.getString(5));
            assertEquals(row.getLong(0), index.index(p), "a row holds its canonical form");
            assertEquals(p, index.canonical(p));
            ProbeResult r = krk.probe(p);
            assertEquals(r.category().label(), row.getString(2), p::toString);
            assertEquals(r.dtm(), row.isNullAt(3) ? null : row.getInt(3), p::toString);
            if (r.category() != Category.DRAW && r.dtm() > 0) assertEquals(r.mainline().get(0).uci(), row.getString(4), p::toString);
        }
        Random random = new Random(8);
        for (int t = 0; t < 100; t++) {
            Position p = Position.randomLegal(KRK, random.nextBoolean() ? Color.WHITE : Color.BLACK, random).transform(random.nextInt(8));
            List<Row> found = spark.sql("SELECT result, dtm FROM krk WHERE fen = canonical_fen('" + Fen.of(p) + "')").collectAsList();
            assertEquals(1, found.size(), p::toString);
            ProbeResult r = krk.probe(p);
            assertEquals(r.category().label(), found.get(0).getString(0), p::toString);
            assertEquals(r.dtm(), found.get(0).isNullAt(1) ? null : found.get(0).getInt(1), p::toString);
            // the view of every position gives its own best move, the FEN written with or without its counters
            String fen = t % 2 == 0 ? Fen.of(p) : Fen.of(p).replace(" 0 1", "");
            List<Row> own = spark.sql("SELECT result, dtm, best_move FROM krk_positions WHERE key = position_key('" + fen
                    + "') AND fen = position_fen('" + fen + "')").collectAsList();
            assertEquals(1, own.size(), p::toString);
            assertEquals(r.category().label(), own.get(0).getString(0), p::toString);
            if (r.category() != Category.DRAW && r.dtm() > 0) assertEquals(r.mainline().get(0).uci(), own.get(0).getString(2), p::toString);
        }
        long wins = manifest.sides().get(0).positions().win(), canonicalWins = manifest.sides().get(0).canonical().win();
        assertEquals(wins, spark.sql("SELECT sum(positions) FROM krk WHERE stm = 'w' AND result = 'win'").first().getLong(0));
        assertEquals(canonicalWins, spark.sql("SELECT count(*) FROM krk WHERE stm = 'w' AND result = 'win'").first().getLong(0));
        assertEquals(16, manifest.longestWin(0),
                "published: the longest KRK win is 16 moves");
    }

    @Test
    void theViewOfEveryPositionHoldsEachLegalPositionOnceWithItsOwnSquaresAndResult() throws IOException {
        SparkSession spark = SparkTestSession.session();
        TableView view = TableView.register(spark, dir.resolve("krk").toString());
        long legal = 0;
        for (int wk = 0; wk < 64; wk++)
            for (int wr = 0; wr < 64; wr++)
                for (int bk = 0; bk < 64; bk++)
                    for (Color side : Color.values()) if (new Position(KRK, new int[] {wk, wr, bk}, side).isLegal()) legal++;
        Row counts = spark.sql("SELECT count(*), count(DISTINCT fen) FROM " + view.everyPosition()).first();
        assertEquals(legal, counts.getLong(0), "every legal KRK position, both sides to move");
        assertEquals(legal, counts.getLong(1), "each once");
        assertEquals(legal, spark.sql("SELECT sum(positions) FROM krk").first().getLong(0));
        for (Row row : spark.sql("SELECT wk, wr, bk, result, dtm, best_move, fen FROM " + view.everyPosition()
                + " TABLESAMPLE (1 PERCENT) REPEATABLE (5)").collectAsList()) {
            Position p = Fen.parse(row.getString(6));
            assertEquals(List.of(row.getString(0), row.getString(1), row.getString(2)),
                    List.of(Square.name(p.square(0)), Square.name(p.square(1)), Square.name(p.square(2))), p::toString);
            ProbeResult r = krk.probe(p);
            assertEquals(r.category().label(), row.getString(3), p::toString);
            assertEquals(r.dtm(), row.isNullAt(4) ? null : row.getInt(4), p::toString);
            if (row.isNullAt(5)) continue;
            Move best = p.legalMoves().stream().filter(m -> m.uci().equals(row.getString(5))).findFirst().orElseThrow();
            assertEquals(r.moves().get(0).dtm(), krk.probe(p.play(best)).dtm(), () -> best.uci() + " in " + p + " is not a best move");
        }
    }

    @Test
    void damagedTruncatedOrMissingFilesAreRefused(@TempDir Path copy) throws IOException {
        for (String name : List.of("manifest.json", "krk.tbl", "krk.cdtm")) Files.copy(dir.resolve("krk").resolve(name), copy.resolve(name));
        for (String name : List.of("krk.tbl", "krk.cdtm")) {
            Path file = copy.resolve(name);
            byte[] original = Files.readAllBytes(file), bytes = original.clone();
            bytes[bytes.length - 5] ^= 1;
            Files.write(file, bytes);
            Tablebase.open(copy).close(); // opening reads the headers only
            assertTrue(assertThrows(CorruptTableException.class, () -> Tablebase.open(copy, Tablebase.Check.SHA256)).getMessage()
                    .contains("does not match the SHA-256"), name);
            Files.write(file, original);
        }
        Path packed = copy.resolve("krk.tbl"), compressed = copy.resolve("krk.cdtm");
        byte[] original = Files.readAllBytes(packed);
        Files.write(packed, java.util.Arrays.copyOf(original, 1000), StandardOpenOption.TRUNCATE_EXISTING);
        assertTrue(assertThrows(CorruptTableException.class, () -> IndexedTable.open(packed)).getMessage().contains("a KRK table has"));
        Files.write(packed, new byte[100], StandardOpenOption.TRUNCATE_EXISTING);
        assertTrue(assertThrows(CorruptTableException.class, () -> IndexedTable.open(packed)).getMessage().contains("not a packed table"));

        // the compressed file: a damaged block is found by its CRC-32 when a lookup reads it, a damaged block table at open
        byte[] blocks = Files.readAllBytes(compressed), damaged = blocks.clone();
        damaged[damaged.length - 5] ^= 1;
        Files.write(compressed, damaged);
        long last = new PositionIndex(Material.parse("KRK")).size() - 1;
        Tablebase.open(copy).close();
        CompressedTable table = CompressedTable.open(List.of(compressed), new BlockCache(1 << 20));
        CorruptTableException e = assertThrows(CorruptTableException.class, () -> table.result(last));
        assertTrue(e.getMessage().contains("CRC-32") || e.getMessage().contains("does not decompress"), e.getMessage());
        table.close();
        damaged = blocks.clone();
        damaged[70] ^= 1; // the block table
        Files.write(compressed, damaged);
        assertTrue(assertThrows(CorruptTableException.class, () -> Tablebase.open(copy)).getMessage().contains("does not match its CRC-32"));
        Files.write(compressed, java.util.Arrays.copyOf(blocks, blocks.length - 1));
        assertTrue(assertThrows(CorruptTableException.class, () -> Tablebase.open(copy)).getMessage().contains("its block table says"));
        Files.write(compressed, new byte[100]);
        assertTrue(assertThrows(CorruptTableException.class, () -> Tablebase.open(copy)).getMessage().contains("not a compressed table"));
        Files.delete(compressed);
        assertThrows(IOException.class, () -> Tablebase.open(copy));
    }
}
