package io.github.tablebase.output;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.KbnkTable;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The full KBNK generation's outputs: published figures, the seed's packed file byte for byte (its layout, its moves,
 * its SHA-256) and every position of the Parquet export against it.
 */
public class KbnkTableTest {
    private static Path folder;
    private static Path packedFile;
    /** Every decided position, one row each (the view of every position the canonical rows stand for). */
    private static Dataset<Row> rows;

    @BeforeAll
    static void generate() throws Exception {
        folder = KbnkTable.folder();
        packedFile = folder.resolve("kbnk.bin");
        SparkSession spark = SparkTestSession.session();
        TableView view = TableView.register(spark, folder.toString());
        rows = spark.table(view.everyPosition()).filter("result != 'draw'");
        rows.createOrReplaceTempView("kbnk_decided");
    }

    private static long sql(String query) {
        return SparkTestSession.session().sql(query).first().getLong(0);
    }

    private static final String LIGHT_BISHOP = "(ascii(substr(wb, 1, 1)) - 97 + cast(substr(wb, 2, 1) as int) - 1) % 2 = 1";

    @Test
    void longestWinIs33AndTheSeedsFiguresHoldInTheLightBishopDomain() {
        assertEquals(33, sql("SELECT cast(max(dtm) as bigint) FROM kbnk_decided WHERE stm = 'w'"));
        assertEquals(232, sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'b' AND dtm = 0 AND " + LIGHT_BISHOP));
        assertEquals(920, sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'w' AND dtm = 1 AND " + LIGHT_BISHOP));
        assertEquals(156, sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'b' AND dtm = 1 AND " + LIGHT_BISHOP));
        // each checkmate row really is a checkmate
        for (Row r : rows.filter("stm = 'b' AND dtm = 0").select("fen").collectAsList())
            assertEquals(true, Fen.parse(r.getString(0)).isCheckmate(), r.getString(0));
    }

    @Test
    void matesHappenOnlyOnTheEdge() {
        for (Row r : SparkTestSession.session().sql("SELECT DISTINCT bk FROM kbnk_decided WHERE stm = 'b' AND dtm = 0").collectAsList()) {
            int bk = Square.parse(r.getString(0));
            assertEquals(true, Square.file(bk) == 0 || Square.file(bk) == 7 || Square.rank(bk) == 0 || Square.rank(bk) == 7, r.getString(0));
        }
    }

    @Test
    void the33MoveWinsAre138PositionsUpToTheEightSymmetries() {
        Set<Long> canonical = new HashSet<>();
        for (Row r : rows.filter("stm = 'w' AND dtm = 33").select("fen").collectAsList()) {
            Position p = Fen.parse(r.getString(0));
            canonical.add(IntStream.range(0, 8).mapToLong(s -> p.transform(s).key()).min().orElseThrow());
        }
        assertEquals(138, canonical.size());
    }

    @Test
    void manifestAgreesWithTheFilesAndTheSeedFileIsTheSeedsByteForByte() throws Exception {
        Manifest manifest = Manifest.read(folder.resolve(Manifest.FILE));
        Manifest.SideFigures white = manifest.sides().get(0), black = manifest.sides().get(1);
        assertEquals(sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'w'"), white.positions().win());
        assertEquals(sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'b'"), black.positions().loss());
        assertEquals(sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'w' AND dtm = 17"), white.winIn().get(17));
        assertEquals(33, manifest.longestWin(0));
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(packedFile)));
        assertEquals(sha, manifest.seedFile().sha256());
        // the file the seed's own generator and the earlier lone-king job wrote
        assertTrue(sha.startsWith("92c61ce2910ccb2d"), sha);
    }

    @Test
    void packedFileHasTheSeedsSizeAndAddressLayout() throws Exception {
        byte[] bytes = Files.readAllBytes(packedFile);
        assertEquals(16_777_216, bytes.length);
        // a mate in one with a light-square bishop, from Parquet; its word is found with the seed's formula by hand
        Row row = rows.filter("stm = 'w' AND dtm = 1 AND " + LIGHT_BISHOP).orderBy("key").first();
        int wk = Square.parse(row.getAs("wk")), wb = Square.parse(row.getAs("wb")), wn = Square.parse(row.getAs("wn")),
                bk = Square.parse(row.getAs("bk"));
        int word = ((wk * 32 + wb / 2) * 64 + wn) * 64 + bk;
        assertEquals(1, bytes[2 * word]);
        String uci = row.getAs("best_move");
        int from = Square.parse(uci.substring(0, 2)), to = Square.parse(uci.substring(2));
        int ff = from == wk ? 1 : from == wb ? 2 : 3;
        assertEquals((byte) (ff << 6 | to), bytes[2 * word + 1]);
        // dark-square bishops are not stored: the dark half of every (wk, wb / 2) band belongs to the light square
        assertEquals(sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'w' AND " + LIGHT_BISHOP),
                IntStream.range(0, bytes.length / 2).filter(w -> bytes[2 * w] != 0).count());
    }

    /** A check of one Parquet row against the packed file, run on the executors. */
    interface RowCheck extends java.io.Serializable {
        boolean holds(PackedTable table, Row row, Position position);
    }

    /**
     * The FENs of the rows failing {@code check}, each row's position made from its squares and side to move, and
     * failing too where it holds a FEN that is not that position's; each partition opens the packed file once.
     */
    private static long failures(Dataset<Row> rows, RowCheck check) {
        String path = packedFile.toString();
        MapPartitionsFunction<Row, String> failing = it -> {
            PackedTable table = PackedTable.open(Path.of(path));
            List<String> bad = new ArrayList<>();
            while (it.hasNext()) {
                Row r = it.next();
                Position p = new Position(PackedTable.KBNK, new int[] {Square.parse(r.getAs("wk")), Square.parse(r.getAs("wb")),
                        Square.parse(r.getAs("wn")), Square.parse(r.getAs("bk"))}, "w".equals(r.getAs("stm")) ? Color.WHITE : Color.BLACK);
                String fen = r.getAs("fen"), own = Fen.of(p);
                if (fen != null && !fen.equals(own) || !check.holds(table, r, p)) bad.add(own);
            }
            return bad.iterator();
        };
        return rows.mapPartitions(failing, Encoders.STRING()).count();
    }

    @Test
    void everyWhitePositionOfTheParquetViewHasTheSeedFilesDtmDarkBishopsThroughTheMirror() {
        // every position from its squares; the FEN, the view's costliest column, of the images of every 16th row
        Dataset<Row> white = rows.filter(col("stm").equalTo("w"))
                .selectExpr("stm", "wk", "wb", "wn", "bk", "dtm", "CASE WHEN key % 16 = 0 THEN fen END AS fen", LIGHT_BISHOP + " AS light");
        assertEquals(0, failures(white, (table, r, p) -> {
            PackedTable.Entry e = table.lookup(p);
            return e.dtm() == (int) r.getAs("dtm") && e.move() != null;
        }));
        Row counts = white.selectExpr("count(*)", "count_if(light)", "count_if(fen IS NOT NULL)").first();
        assertNotEquals(0, counts.getLong(0) - counts.getLong(1)); // dark-square bishops
        assertNotEquals(0, counts.getLong(2));
    }

    @Test
    void everyParquetBlackRowHoldsItsDepthAgainstThePackedFile() {
        // a sample keeps this under a minute on 2 cores; the White rows above are all checked
        Dataset<Row> black = rows.filter(col("stm").equalTo("b")).sample(0.1, 5);
        assertEquals(0, failures(black, (table, r, p) -> {
            int dtm = r.getAs("dtm");
            return blackDepth(table, p) == dtm && (dtm == 0 || longestDefence(table, p) == table.lookup(p.play(
                    p.legalMoves().stream().filter(m -> m.uci().equals(r.getAs("best_move"))).findFirst().orElseThrow())).dtm());
        }));
    }

    @Test
    void everyStoredMoveIsLegalLeadsToABlackPositionLostInOneMoveLessAndIsTheSmallestCodeThatDoes() throws Exception {
        PackedTable table = PackedTable.open(packedFile);
        Material kbnk = PackedTable.KBNK;
        AtomicLong checked = new AtomicLong();
        IntStream.range(0, 64).parallel().forEach(wk -> {
            for (int light = 0; light < 32; light++) {
                int wb = 2 * light + (Square.isLight(2 * light) ? 0 : 1);
                for (int wn = 0; wn < 64; wn++) {
                    for (int bk = 0; bk < 64; bk++) {
                        Position p = new Position(kbnk, new int[] {wk, wb, wn, bk}, Color.WHITE);
                        PackedTable.Entry e = table.lookup(p);
                        if (e.dtm() == 0) continue;
                        assertEquals(null, p.illegalReason(), p::toString);
                        Move move = e.move();
                        assertEquals(true, p.legalMoves().contains(move), () -> move.uci() + " is not legal in " + p);
                        assertEquals(e.dtm() - 1, blackDepth(table, p.play(move)), () -> move.uci() + " in " + p);
                        // the seed's tie-break, on a sixteenth of the positions: the smallest code piece << 6 | to (king,
                        // bishop, knight) among the fastest mates
                        if ((wn + bk) % 16 == 0)
                            for (Move other : p.legalMoves())
                                if ((other.piece() << 6 | other.to()) < (move.piece() << 6 | move.to()))
                                    assertTrue(blackDepth(table, p.play(other)) != e.dtm() - 1, () -> other.uci() + " is as fast as " + move.uci() + " in " + p);
                        checked.incrementAndGet();
                    }
                }
            }
        });
        assertEquals(sql("SELECT count(*) FROM kbnk_decided WHERE stm = 'w' AND " + LIGHT_BISHOP), checked.get());
    }

    /** Black to move: moves White still needs by the packed file, or -1 when Black is not lost. */
    public static int blackDepth(PackedTable table, Position p) {
        List<Move> moves = p.legalMoves();
        if (moves.isEmpty()) return p.inCheck() ? 0 : -1;
        int worst = 0;
        for (Move m : moves) {
            if (m.isCapture()) return -1;
            int d = table.lookup(p.play(m)).dtm();
            if (d == 0) return -1;
            worst = Math.max(worst, d);
        }
        return worst;
    }

    /** The longest mate Black's replies leave White, by the packed file. */
    static int longestDefence(PackedTable table, Position p) {
        return p.legalMoves().stream().mapToInt(m -> table.lookup(p.play(m)).dtm()).max().orElseThrow();
    }

    @Test
    void byteForByteTheWordsAreThoseOfTheLightSquareLookups() throws Exception {
        byte[] bytes = Files.readAllBytes(packedFile);
        PackedTable table = PackedTable.open(packedFile);
        Position p = Fen.parse("7k/8/5K2/8/8/8/8/5BN1 w - - 0 1");
        PackedTable.Entry e = table.lookup(p);
        int at = PackedTable.address(p.square(0), p.square(1), p.square(2), p.square(3));
        assertArrayEquals(new byte[] {(byte) e.dtm(), e.dtm() == 0 ? 0 : (byte) ((e.move().piece() + 1) << 6 | e.move().to())},
                new byte[] {bytes[at], bytes[at + 1]});
    }
}
