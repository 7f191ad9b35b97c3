package tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.BruteForce;
import tablebase.SparkTestSession;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;
import tablebase.output.Manifest;
import tablebase.output.OutputFolder;
import tablebase.output.TableExport;

/** The Spark pipeline end to end on 3-piece endgames, against a brute-force minimax. */
class RetrogradeJobTest {
    @Test
    void kqkMatchesBruteForcePositionByPositionAndThroughParquet(@TempDir Path dir) throws Exception {
        Material kqk = Material.parse("KQK");
        BruteForce expected = BruteForce.solve(kqk);
        RetrogradeJob.Solved solved = solve(kqk, 3);
        checkAgainst(expected, solved);
        assertEquals(10, solved.maxDepth(Color.WHITE), "published: the longest KQK win is 10 moves");

        // the Parquet export holds exactly the brute force's won and lost positions with their depths
        SparkSession spark = SparkTestSession.session();
        Map<String, Object> manifest;
        try (OutputFolder out = OutputFolder.prepare(dir.resolve("kqk").toString(), false)) {
            manifest = TableExport.write(spark, solved, out, new Manifest.Run("test", spark.version(), "local[2]", 3, System.nanoTime()));
            out.commit();
        }
        dir = dir.resolve("kqk");
        Dataset<Row> parquet = spark.read().parquet(dir.resolve(TableExport.PARQUET).toString());
        List<Row> rows = new ArrayList<>();
        for (long key = 0; key < 1L << 19; key++) {
            Color side = key >>> 18 == 0 ? Color.WHITE : Color.BLACK;
            int dtm = side == Color.WHITE ? expected.whiteDtm(key) : expected.blackDtm(key);
            if (side == Color.WHITE ? dtm > 0 : dtm >= 0) rows.add(RowFactory.create(key, String.valueOf(side.fenLetter()), dtm));
        }
        StructType schema = new StructType().add("key", DataTypes.LongType).add("stm", DataTypes.StringType)
                .add("dtm", DataTypes.IntegerType); // Parquet reads every column back as nullable
        SparkTestSession.get().assertDataFrameNoOrderEquals(spark.createDataFrame(rows, schema), parquet.select("key", "stm", "dtm"));
        // each row's FEN and square columns describe the position its key encodes
        for (Row r : parquet.limit(2000).collectAsList()) {
            Position p = tablebase.chess.Fen.parse(r.getAs("fen"));
            assertEquals((long) r.getAs("key"), p.key());
            assertEquals(r.getAs("wq"), tablebase.chess.Square.name(p.square(1)));
        }
        assertEquals(expected.count(Color.WHITE), ((Map<?, ?>) manifest.get("positions")).get("white_to_move_won"));
    }

    @Test
    void krkMatchesBruteForceWithAnyPartitionCount() {
        Material krk = Material.parse("KRK");
        BruteForce expected = BruteForce.solve(krk);
        for (int partitions : new int[] {1, 4}) {
            RetrogradeJob.Solved solved = solve(krk, partitions);
            checkAgainst(expected, solved);
            assertEquals(16, solved.maxDepth(Color.WHITE), "published: the longest KRK win is 16 moves");
        }
    }

    /** A driver crash, simulated: the progress callback throws after a number of half-moves. */
    private static final class Crash extends RuntimeException {}

    @Test
    void aWorkFolderContinuesAfterACrashFromTheLastFinishedHalfMove(@TempDir Path dir) throws Exception {
        Material krk = Material.parse("KRK");
        LoneKingRules rules = new LoneKingRules(krk);
        String folder = dir.resolve("work").toString();
        List<HalfMove> seen = new ArrayList<>();
        WorkFolder work = WorkFolder.open(folder, krk, 3);
        assertThrows(Crash.class, () -> new RetrogradeJob(SparkTestSession.context(), rules, 3)
                .run(h -> {
                    seen.add(h);
                    if (seen.size() == 13) throw new Crash(); // while reporting half-move 13, before it is marked finished
                }, work));
        List<HalfMove> finished = WorkFolder.open(folder, krk, 3).finished();
        assertEquals(seen.subList(0, 12), finished);

        List<HalfMove> resumed = new ArrayList<>();
        RetrogradeJob.Solved solved = new RetrogradeJob(SparkTestSession.context(), rules, 3)
                .run(resumed::add, WorkFolder.open(folder, krk, 3));
        assertEquals(seen.get(12).depth(), resumed.get(0).depth(), "the half-move that crashed is done again first");
        assertEquals(seen.get(12).side(), resumed.get(0).side());
        assertEquals(finished, solved.halfMoves().subList(0, 12));
        checkAgainst(BruteForce.solve(krk), solved);
        assertEquals(solve(krk, 3).halfMoves().size(), solved.halfMoves().size());

        IOException other = assertThrows(IOException.class,
                () -> WorkFolder.open(folder, krk, 4));
        assertTrue(other.getMessage().contains("holds the work of KRK in 3 partitions"), other.getMessage());
    }

    private static RetrogradeJob.Solved solve(Material material, int partitions) {
        return new RetrogradeJob(SparkTestSession.context(), new LoneKingRules(material), partitions).run(h -> { });
    }

    /** Every position's value matches, and every stored White move is legal and reaches a loss in d - 1. */
    private static void checkAgainst(BruteForce expected, RetrogradeJob.Solved solved) {
        LoneKingRules rules = solved.rules();
        Material m = rules.material();
        long won = 0, lost = 0;
        for (PlacementBlock b : solved.blocks().collect()) {
            for (int i = 0; i < b.size(); i++) {
                for (int bk = 0; bk < 64; bk++) {
                    long wKey = rules.positionKey(b.placement(i), bk, Color.WHITE);
                    long bKey = rules.positionKey(b.placement(i), bk, Color.BLACK);
                    int dtm = b.whiteDtm(i, bk);
                    assertEquals(expected.whiteDtm(wKey), dtm, () -> "White to move " + Position.fromKey(m, wKey));
                    assertEquals(expected.blackDtm(bKey), b.blackDtm(i, bk), () -> "Black to move " + Position.fromKey(m, bKey));
                    if (dtm > 0) {
                        won++;
                        int code = b.whiteMove(i, bk);
                        Position p = Position.fromKey(m, wKey);
                        Move move = p.legalMoves().stream()
                                .filter(mv -> mv.piece() == code >>> 6 && mv.to() == (code & 63)).findFirst()
                                .orElseThrow(() -> new AssertionError("illegal stored move in " + p));
                        assertEquals(dtm - 1, expected.blackDtm(p.play(move).key()), () -> "move " + move.uci() + " in " + p);
                    }
                    if (b.blackDtm(i, bk) >= 0) lost++;
                }
            }
        }
        assertEquals(expected.count(Color.WHITE), won);
        assertEquals(expected.count(Color.BLACK), lost);
        assertEquals(won, solved.total(Color.WHITE));
        assertEquals(lost, solved.total(Color.BLACK));
    }
}
