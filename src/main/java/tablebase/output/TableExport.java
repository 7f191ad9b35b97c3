package tablebase.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Color;
import tablebase.generate.LoneKingRules;
import tablebase.generate.RetrogradeJob.Solved;

/** Writes a solved table's outputs into a folder: {@code parquet/}, the packed file (KBNK) and {@code manifest.json}. */
public final class TableExport {
    public static final String PARQUET = "parquet";
    public static final String MANIFEST = "manifest.json";

    private TableExport() {}

    /** The packed file's name for an endgame: {@code kbnk.bin}. */
    public static String packedName(String endgame) { return endgame.toLowerCase() + ".bin"; }

    /** Writes everything into the folder's staging area (the caller commits) and returns the manifest written. */
    public static Map<String, Object> write(SparkSession spark, Solved solved, OutputFolder folder, Manifest.Run run) throws IOException {
        LoneKingRules rules = solved.rules();
        JavaRDD<Row> rows = solved.blocks().flatMap(b -> PositionRows.of(rules, b));
        spark.createDataFrame(rows, PositionRows.schema(rules.material()))
                .write().parquet(new Path(folder.staging(), PARQUET).toString());
        long parquetRows = solved.total(Color.WHITE) + solved.total(Color.BLACK);

        Map<String, Object> packed = null;
        if (rules.material().equals(PackedTable.KBNK)) {
            String name = packedName(rules.material().name());
            String sha256 = writePacked(solved, folder.create(name));
            packed = new LinkedHashMap<>();
            packed.put("name", name);
            packed.put("bytes", PackedTable.SIZE);
            packed.put("sha256", sha256);
        }
        Map<String, Object> manifest = Manifest.of(solved, run, parquetRows, packed);
        try (OutputStream out = folder.create(MANIFEST)) {
            Manifest.write(manifest, out);
        }
        return manifest;
    }

    /** Writes the packed file from the blocks, streamed one partition at a time to the driver; returns its SHA-256. */
    private static String writePacked(Solved solved, OutputStream file) throws IOException {
        return writeHashed(file, out -> PackedTable.write(solved.rules(), solved.blocks().toLocalIterator(), out));
    }

    /** What writes a file's bytes. */
    interface FileWriter {
        void write(OutputStream out) throws IOException;
    }

    /** The SHA-256 of everything left in a stream. */
    static String sha256(InputStream in) throws IOException {
        try {
            DigestInputStream digest = new DigestInputStream(in, MessageDigest.getInstance("SHA-256"));
            digest.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(digest.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
