package tablebase.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tablebase.chess.Color;
import tablebase.generate.HalfMove;
import tablebase.generate.RetrogradeJob.Solved;

/** {@code manifest.json}: what was generated, how, and the figures that let a reader check it. */
public final class Manifest {
    private Manifest() {}

    /** Facts about the run that the table itself does not hold; the wall time runs from {@code startNanos} to the manifest. */
    public record Run(String projectVersion, String sparkVersion, String master, int partitions, long startNanos) {}

    public static Map<String, Object> of(Solved solved, Run run, long parquetRows, Map<String, Object> packedFile) {
        List<HalfMove> halfMoves = solved.halfMoves();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endgame", solved.rules().material().name());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("white_to_move_won", solved.total(Color.WHITE));
        counts.put("black_to_move_lost", solved.total(Color.BLACK));
        m.put("positions", counts);
        Map<String, Object> max = new LinkedHashMap<>();
        max.put("white_to_move", solved.maxDepth(Color.WHITE));
        max.put("black_to_move", solved.maxDepth(Color.BLACK));
        m.put("max_dtm", max);
        Map<String, Object> histogram = new LinkedHashMap<>();
        histogram.put("white_to_move", histogram(halfMoves, Color.WHITE));
        histogram.put("black_to_move", histogram(halfMoves, Color.BLACK));
        m.put("dtm_histogram", histogram);
        m.put("half_moves", halfMoves.size());
        m.put("parquet", Map.of("path", "parquet", "rows", parquetRows));
        if (packedFile != null) m.put("packed_file", packedFile);
        putRun(m, run);
        return m;
    }

    /** Adds the versions, the master, the partitions and the wall time so far. */
    static void putRun(Map<String, Object> m, Run run) {
        Map<String, Object> versions = new LinkedHashMap<>();
        versions.put("project", run.projectVersion());
        versions.put("spark", run.sparkVersion());
        versions.put("java", System.getProperty("java.version"));
        m.put("versions", versions);
        m.put("master", run.master());
        m.put("partitions", run.partitions());
        m.put("wall_seconds", Math.round((System.nanoTime() - run.startNanos()) / 1e7) / 100.0);
    }

    public static void write(Map<String, Object> manifest, OutputStream out) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out, manifest);
    }

    public static Map<String, Object> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    /** Reads a manifest on any Hadoop filesystem. */
    public static Map<String, Object> read(org.apache.hadoop.fs.FileSystem fs, org.apache.hadoop.fs.Path file) throws IOException {
        try (InputStream in = fs.open(file)) {
            return read(in);
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(InputStream in) throws IOException {
        return new ObjectMapper().readValue(in, Map.class);
    }

    /** DTM -> number of positions, for the depths that have any. */
    private static Map<String, Long> histogram(List<HalfMove> halfMoves, Color side) {
        Map<Integer, Long> byDepth = new TreeMap<>();
        for (HalfMove h : halfMoves)
            if (h.side() == side && h.newPositions() > 0) byDepth.merge(h.depth(), h.newPositions(), Long::sum);
        Map<String, Long> out = new LinkedHashMap<>();
        byDepth.forEach((d, n) -> out.put(Integer.toString(d), n));
        return out;
    }
}
