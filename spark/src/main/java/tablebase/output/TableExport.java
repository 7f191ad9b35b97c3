package tablebase.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;
import tablebase.probe.IndexedTable;
import tablebase.probe.Manifest;
import tablebase.table.SolvedTable;
import tablebase.table.Successors;
import tablebase.table.TablePlan;

/**
 * Writes a solved table into a folder: {@code parquet/} (one row per canonical position and side
 * to move, see {@link PositionRows#schema}), the packed {@link IndexedTable} file, for KBNK the seed's
 * {@link PackedTable} file, and {@code manifest.json}, which also names the folders of the smaller tables its
 * captures lead to.
 */
public final class TableExport {
    public static final String PARQUET = "parquet";

    /** Facts about the run that the table itself does not hold; the wall time runs from {@code startNanos} to the manifest. */
    public record Run(String projectVersion, String sparkVersion, String master, int partitions, long startNanos) {}

    /** Histogram slot of the draws; plies use the slots below it. */
    private static final int DRAWS = SolvedTable.MAX_PLY + 1;

    private TableExport() {}

    /** The folder of a smaller table, next to the folder of the table that needs it: {@code kqk} beside {@code kqkr}. */
    public static String folderName(Material material) { return material.name().toLowerCase(); }

    /**
     * Writes everything into the folder's staging area (the caller commits) and returns the manifest written. The
     * best moves follow from the final results in one pass here ({@code smaller}: the tables captures lead to).
     */
    public static Map<String, Object> write(SparkSession spark, SolvedTable table, Map<Material, SolvedTable> smaller, int partitions,
                                            OutputFolder folder, Run run) throws IOException {
        Material material = table.material();
        PositionIndex index = table.index();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        Broadcast<byte[]> own = jsc.broadcast(table.results());
        Map<Material, Broadcast<byte[]>> subs = new HashMap<>();
        for (Material sub : TablePlan.exits(material)) subs.put(sub, jsc.broadcast(smaller.get(sub).results()));
        long rest = index.restSize();
        int kingPairs = index.kingPairs();
        List<Integer> ids = IntStream.range(0, partitions).boxed().toList();
        JavaRDD<BestMoves> bestMoves = jsc.parallelize(ids, partitions).map(p -> {
            long lo = (long) ((p * (long) kingPairs + partitions - 1) / partitions) * rest;
            long hi = (long) (((p + 1) * (long) kingPairs + partitions - 1) / partitions) * rest;
            return bestMoves(successors(material, own, subs), index, own.value(), lo, hi);
        });
        bestMoves.persist(StorageLevel.MEMORY_AND_DISK());
        try {
            spark.createDataFrame(bestMoves.flatMap(b -> PositionRows.of(index, b.lo(), own.value(), b.moves())), PositionRows.schema(material))
                    .write().parquet(new Path(folder.staging(), PARQUET).toString());
            String name = IndexedTable.fileName(material);
            String sha256 = writeHashed(folder.create(name),
                    out -> IndexedTable.write(index, table.results(), bestMoves.map(BestMoves::ranks).toLocalIterator(), out));
            Map<String, Object> seed = null;
            if (material.equals(PackedTable.KBNK)) {
                List<Integer> kingSquares = IntStream.range(0, 64).boxed().toList();
                List<byte[]> words = jsc.parallelize(kingSquares, partitions)
                        .map(wk -> PackedTable.kingSquareWords(wk, index, successors(material, own, subs), own.value())).collect();
                seed = fileEntry(PackedTable.FILE_NAME, PackedTable.SIZE,
                        writeHashed(folder.create(PackedTable.FILE_NAME), out -> {
                            for (byte[] w : words) out.write(w);
                        }));
            }
            return writeManifest(table, fileEntry(name, IndexedTable.fileSize(index), sha256), seed, folder, run);
        } finally {
            bestMoves.unpersist(false);
            own.destroy(false);
            subs.values().forEach(b -> b.destroy(false));
        }
    }

    /** What each move leads to, for one task, from the broadcast results of the table and of its smaller tables. */
    private static Successors successors(Material material, Broadcast<byte[]> own, Map<Material, Broadcast<byte[]>> subs) {
        Map<Material, byte[]> values = new HashMap<>();
        subs.forEach((m, b) -> values.put(m, b.value()));
        return new Successors(material, own.value(), values);
    }

    /**
     * A block of the table from index {@code lo}, per entry {@code 2 * (index - lo) + side}: the packed file's move
     * byte (the best move's rank among the sorted legal moves, or {@link IndexedTable#NO_MOVE}) and the best move
     * itself for the Parquet rows ({@link PositionRows#moveCode}, or {@link PositionRows#NO_MOVE}), so that the
     * rows need no second move generation.
     */
    record BestMoves(long lo, byte[] ranks, short[] moves) implements Serializable {}

    /** The export kernel: the best moves of indexes {@code lo..hi-1}. */
    static BestMoves bestMoves(Successors successors, PositionIndex index, byte[] results, long lo, long hi) {
        int entries = Math.toIntExact(2 * (hi - lo));
        byte[] ranks = new byte[entries];
        short[] codes = new short[entries];
        int[] squares = new int[index.material().size()], moves = new int[256];
        for (long i = lo; i < hi; i++) {
            boolean decoded = false;
            for (int s = 0; s < 2; s++) {
                int at = (int) (2 * (i - lo) + s), result = results[(int) (2 * i + s)] & 0xFF;
                ranks[at] = (byte) IndexedTable.NO_MOVE;
                codes[at] = PositionRows.NO_MOVE;
                if (result == SolvedTable.DRAW || result == SolvedTable.NONE || result == 1) continue;
                if (!decoded) decoded = index.decode(i, squares);
                int rank = successors.bestMoveRank(squares, s, result, moves);
                if (rank >= IndexedTable.NO_MOVE) throw new IllegalStateException(rank + " moves do not fit the move byte");
                ranks[at] = (byte) rank;
                codes[at] = PositionRows.moveCode(moves[rank]);
            }
        }
        return new BestMoves(lo, ranks, codes);
    }

    private static Map<String, Object> fileEntry(String name, long bytes, String sha256) {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("name", name);
        file.put("bytes", bytes);
        file.put("sha256", sha256);
        return file;
    }

    /** {@code seed}: the seed's KBNK file, or null. */
    private static Map<String, Object> writeManifest(SolvedTable table, Map<String, Object> file, Map<String, Object> seed, OutputFolder folder,
                                                     Run run)
            throws IOException {
        Material material = table.material();
        PositionIndex index = table.index();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endgame", material.name());
        m.put("index_size", index.size());
        long[][] entries = table.plyCounts();
        long rows = 0;
        for (int s = 0; s < 2; s++) for (long n : entries[s]) rows += n;
        m.put("canonical_positions", resultCounts(entries));
        long[][] plies = table.positionCounts();
        m.put("positions", resultCounts(plies));
        Map<String, Object> longest = new LinkedHashMap<>(), histogram = new LinkedHashMap<>();
        for (int s = 0; s < 2; s++) {
            int longestWin = 0, longestLoss = 0;
            Map<String, Long> winIn = new LinkedHashMap<>(), lossIn = new LinkedHashMap<>();
            for (int ply = 0; ply < DRAWS; ply++) {
                long n = plies[s][ply];
                if (n == 0) continue;
                int moves = (ply + 1) / 2;
                if (ply % 2 == 1) { longestWin = moves; winIn.put(Integer.toString(moves), n); }
                else { longestLoss = moves; lossIn.put(Integer.toString(moves), n); }
            }
            longest.put(SIDES[s], Map.of("win", longestWin, "loss", longestLoss));
            Map<String, Object> byResult = new LinkedHashMap<>();
            byResult.put("win", winIn);
            byResult.put("loss", lossIn);
            histogram.put(SIDES[s], byResult);
        }
        m.put("longest_dtm", longest);
        m.put("dtm_histogram", histogram);
        m.put("parquet", Map.of("path", PARQUET, "rows", rows));
        m.put("packed_file", file);
        if (seed != null) m.put("seed_file", seed);
        List<Map<String, String>> subs = new ArrayList<>();
        for (Material sub : TablePlan.exits(material)) subs.add(Map.of("endgame", sub.name(), "path", "../" + folderName(sub)));
        m.put("sub_tables", subs);
        putRun(m, run);
        try (OutputStream out = folder.create(Manifest.FILE)) {
            Manifest.write(m, out);
        }
        return m;
    }

    /** Adds the versions, the master, the partitions and the wall time so far. */
    private static void putRun(Map<String, Object> m, Run run) {
        Map<String, Object> versions = new LinkedHashMap<>();
        versions.put("project", run.projectVersion());
        versions.put("spark", run.sparkVersion());
        versions.put("java", System.getProperty("java.version"));
        m.put("versions", versions);
        m.put("master", run.master());
        m.put("partitions", run.partitions());
        m.put("wall_seconds", Math.round((System.nanoTime() - run.startNanos()) / 1e7) / 100.0);
    }

    private static final String[] SIDES = {"white_to_move", "black_to_move"};

    /** Per side to move, the wins, losses and draws of a count by ply (see {@link SolvedTable#plyCounts}). */
    private static Map<String, Object> resultCounts(long[][] plies) {
        Map<String, Object> sides = new LinkedHashMap<>();
        for (int s = 0; s < 2; s++) {
            long wins = 0, losses = 0;
            for (int ply = 0; ply < DRAWS; ply++) if (ply % 2 == 1) wins += plies[s][ply]; else losses += plies[s][ply];
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("win", wins);
            counts.put("loss", losses);
            counts.put("draw", plies[s][DRAWS]);
            sides.put(SIDES[s], counts);
        }
        return sides;
    }

    /** Reads a manifest on any Hadoop file system. */
    static Map<String, Object> readManifest(org.apache.hadoop.fs.FileSystem fs, Path file) throws IOException {
        try (java.io.InputStream in = fs.open(file)) {
            return Manifest.read(in);
        }
    }

    /** What writes a file's bytes. */
    interface FileWriter {
        void write(OutputStream out) throws IOException;
    }

    /** Writes a file through a buffer and returns the SHA-256 of what was written. */
    static String writeHashed(OutputStream file, FileWriter writer) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (OutputStream out = new DigestOutputStream(new BufferedOutputStream(file), sha256)) {
            writer.write(out);
        }
        return HexFormat.of().formatHex(sha256.digest());
    }
}
