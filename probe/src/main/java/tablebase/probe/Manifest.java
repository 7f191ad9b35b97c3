package tablebase.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code manifest.json}, beside every table's files: what was generated, how, and the SHA-256 of each file. */
public final class Manifest {
    /** The manifest's file name in a table folder. */
    public static final String FILE = "manifest.json";

    private Manifest() {}

    public static void write(Map<String, Object> manifest, OutputStream out) throws IOException {
        out.write(Json.pretty(manifest).getBytes(StandardCharsets.UTF_8));
    }

    public static Map<String, Object> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    /** Reads a manifest; text that is not a JSON object is an IOException naming the problem. */
    public static Map<String, Object> read(InputStream in) throws IOException {
        try {
            return Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IOException("a damaged " + FILE + " (" + e.getMessage() + ")");
        }
    }

    /** The key of the packed table's part files: a list of {name, first_index, end_index, bytes, sha256}, by index. */
    public static final String PACKED_FILES = "packed_files";

    /** The key of the compressed table's part files ({@link CompressedTable}), listed as the packed table's are. */
    public static final String COMPRESSED_FILES = "compressed_files";

    /** The key of the Parquet rows: {path, rows, files}, the files listed as the part files are (without indexes). */
    public static final String PARQUET = "parquet";

    /** The key of KBNK's seed file, listed as a part file is (without indexes). */
    public static final String SEED_FILE = "seed_file";

    /**
     * A file a manifest lists: its name (in the table's folder, or in the Parquet folder for a Parquet file), its
     * bytes and SHA-256, and for a part file the indexes it holds ({@code firstIndex .. endIndex - 1}; -1 for others).
     */
    public record FileEntry(String name, long bytes, String sha256, long firstIndex, long endIndex) implements java.io.Serializable {
        /** A file that holds no range of indexes (a Parquet file, the seed file). */
        public FileEntry(String name, long bytes, String sha256) { this(name, bytes, sha256, -1, -1); }

        /** The entry as the manifest's JSON has it. */
        public Map<String, Object> toJson() {
            Map<String, Object> file = new LinkedHashMap<>();
            file.put("name", name);
            file.put("bytes", bytes);
            file.put("sha256", sha256);
            if (firstIndex >= 0) {
                file.put("first_index", firstIndex);
                file.put("end_index", endIndex);
            }
            return file;
        }

        /** The entry a manifest's JSON object describes, or null when it is not one (a damaged manifest). */
        static FileEntry of(Object json) {
            if (!(json instanceof Map<?, ?> m) || !(m.get("name") instanceof String name) || !(m.get("bytes") instanceof Number bytes)
                    || !(m.get("sha256") instanceof String sha256)) return null;
            return new FileEntry(name, bytes.longValue(), sha256, m.get("first_index") instanceof Number first ? first.longValue() : -1,
                    m.get("end_index") instanceof Number end ? end.longValue() : -1);
        }
    }

    /** The packed table's part files a manifest lists, or null when it lists none (a damaged or older manifest). */
    public static List<FileEntry> packedFiles(Map<String, Object> manifest) { return files(manifest, PACKED_FILES); }

    /** The files a manifest lists under {@code key} ({@link #PACKED_FILES} or {@link #COMPRESSED_FILES}), or null for none. */
    public static List<FileEntry> files(Map<String, Object> manifest, String key) { return entries(manifest.get(key)); }

    /** The Parquet files a manifest lists (in its {@link #parquetPath}), or null for none (a table made with {@code --no-parquet}). */
    public static List<FileEntry> parquetFiles(Map<String, Object> manifest) {
        return manifest.get(PARQUET) instanceof Map<?, ?> parquet ? entries(parquet.get("files")) : null;
    }

    /** The folder of the Parquet files in the table's folder, or null when the manifest lists none. */
    public static String parquetPath(Map<String, Object> manifest) {
        return manifest.get(PARQUET) instanceof Map<?, ?> parquet && parquet.get("path") instanceof String path ? path : null;
    }

    /** KBNK's seed file, or null for any other table. */
    public static FileEntry seedFile(Map<String, Object> manifest) { return FileEntry.of(manifest.get(SEED_FILE)); }

    private static List<FileEntry> entries(Object json) {
        if (!(json instanceof List<?> files) || files.isEmpty()) return null;
        List<FileEntry> entries = new ArrayList<>();
        for (Object f : files) {
            FileEntry entry = FileEntry.of(f);
            if (entry == null) return null;
            entries.add(entry);
        }
        return entries;
    }

    /** The entries of a manifest's table (its index size for both sides to move). */
    public static long entries(Map<String, Object> manifest) { return 2 * ((Number) manifest.get("index_size")).longValue(); }

    /** The longest win of {@code side} to move in moves ("white_to_move", "black_to_move"), 0 when it never wins, -1 when the manifest says nothing. */
    public static int longestWin(Map<String, Object> manifest, String side) {
        if (!(manifest.get("longest_dtm") instanceof Map<?, ?> longest) || !(longest.get(side) instanceof Map<?, ?> s)) return -1;
        return s.get("win") instanceof Number n ? n.intValue() : 0;
    }

    /** The bytes of the files a manifest lists under {@code key}, 0 for none. */
    public static long bytes(Map<String, Object> manifest, String key) {
        List<FileEntry> files = files(manifest, key);
        return files == null ? 0 : files.stream().mapToLong(FileEntry::bytes).sum();
    }

    /** The SHA-256 of a stream's bytes, as lower-case hex (how the manifest records each file). */
    public static String sha256(InputStream in) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every Java runtime has SHA-256
        }
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) digest.update(buffer, 0, n);
        return HexFormat.of().formatHex(digest.digest());
    }
}
