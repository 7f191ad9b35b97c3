package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
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
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code manifest.json}, beside every table's files: what was generated, how, and the SHA-256 of each file. Read and
 * written here alone; a part a manifest leaves out (an older or a lean one) is null.
 *
 * @param endgame the material's name ("KRPKR")
 * @param indexSize the table's index size (entries: twice that, one per side to move)
 * @param sides the figures with White to move, then with Black to move
 * @param parquet the Parquet rows, or null for a table made without them
 * @param packedFiles the packed table's part files by index, or null once they are gone
 * @param compressedFiles the compressed table's part files by index, or null for a table made before them
 * @param seedFile KBNK's seed file, or null for any other table
 * @param subTables the tables captures and promotions lead to, each with its folder's path from this one
 * @param made the versions and the run that made the table, or null
 * @param dtz the table's DTZ under the 50-move rule: its file and figures, or null for a table made without it
 */
public record Manifest(String endgame, long indexSize, List<SideFigures> sides, Parquet parquet, List<FileEntry> packedFiles,
                       List<FileEntry> compressedFiles, FileEntry seedFile, List<SubTable> subTables, Made made, DtzFigures dtz) {
    /** The manifest's file name in a table folder. */
    public static final String FILE = "manifest.json";

    /** The JSON names of the two sides to move, White's first. */
    public static final List<String> SIDES = List.of("white_to_move", "black_to_move");

    /** Positions by result for one side to move. */
    public record Counts(long win, long loss, long draw) {}

    /**
     * A side to move's figures: its canonical positions (index entries) and all positions by result, its longest win
     * and loss in moves (0 for none), and how many positions win and lose in each number of moves.
     */
    public record SideFigures(Counts canonical, Counts positions, int longestWin, int longestLoss,
                              SortedMap<Integer, Long> winIn, SortedMap<Integer, Long> lossIn) {}

    /**
     * One side to move's results under the 50-move rule (see {@link Dtz}), in canonical positions, and its longest
     * DTZ win and loss in plies (0 for none).
     */
    public record DtzSide(long win, long cursedWin, long draw, long blessedLoss, long loss, int longestWin, int longestLoss)
            implements java.io.Serializable {}

    /**
     * The DTZ files and each side to move's figures: {@code files}, the packed table whose result codes are {@link Dtz}
     * codes (null once it is gone, as the packed DTM's), and {@code compressedFiles}, one compressed table a side to
     * move, White's first (null for a table made before them).
     */
    public record DtzFigures(List<FileEntry> files, List<FileEntry> compressedFiles, List<DtzSide> sides) {
        /** Without its packed file. */
        DtzFigures withoutPacked() { return new DtzFigures(null, compressedFiles, sides); }

        /** Side to move {@code side}'s compressed part files of {@code compressed} (this record's, or their names): White's half, then Black's. */
        public static <T> List<T> ofSide(List<T> compressed, Color side) {
            int half = compressed.size() / 2;
            return compressed.subList(side.ordinal() * half, (side.ordinal() + 1) * half);
        }
    }

    /** The Parquet rows: their folder in the table's, how many, and each file. */
    public record Parquet(String path, long rows, List<FileEntry> files) {}

    /** A table that a capture or promotion leads to, and its folder from this table's ({@code ../krk}). */
    public record SubTable(String endgame, String path) {}

    /** What made the table: the versions of the project, Spark and Java, the master, the partitions, the run's seconds so far. */
    public record Made(String project, String spark, String java, String master, int partitions, double wallSeconds) {}

    /**
     * A file a manifest lists: its name (in the table's folder, or in the Parquet folder for a Parquet file), its
     * bytes and SHA-256, and for a part file the indexes it holds ({@code firstIndex .. endIndex - 1}; -1 for others).
     */
    public record FileEntry(String name, long bytes, String sha256, long firstIndex, long endIndex) implements java.io.Serializable {
        /** A file that holds no range of indexes (a Parquet file, the seed file). */
        public FileEntry(String name, long bytes, String sha256) { this(name, bytes, sha256, -1, -1); }

        /** The entry as the manifest's JSON has it. */
        Map<String, Object> toJson() {
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

    /** The material of the table. */
    public Material material() { return Material.parse(endgame); }

    /** The table's entries (its index size for both sides to move). */
    public long entries() { return 2 * indexSize; }

    /** The longest win in moves of side {@code side} to move (0 White, 1 Black), 0 when it never wins, -1 when the manifest says nothing. */
    public int longestWin(int side) { return sides == null ? -1 : sides.get(side).longestWin(); }

    /** The bytes of {@code files} (one of this manifest's lists), 0 for none. */
    public static long bytes(List<FileEntry> files) { return files == null ? 0 : files.stream().mapToLong(FileEntry::bytes).sum(); }

    /** The Parquet files, or null for none. */
    public List<FileEntry> parquetFiles() { return parquet == null ? null : parquet.files(); }

    /** This manifest without its packed files (once they are deleted). */
    public Manifest withoutPackedFiles() {
        return new Manifest(endgame, indexSize, sides, parquet, null, compressedFiles, seedFile, subTables, made,
                dtz == null || dtz.compressedFiles() == null ? dtz : dtz.withoutPacked());
    }

    public void write(OutputStream out) throws IOException {
        out.write(Json.pretty(toJson()).getBytes(StandardCharsets.UTF_8));
    }

    /** The manifest as its JSON object. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endgame", endgame);
        m.put("index_size", indexSize);
        if (sides != null) {
            m.put("canonical_positions", bySide(s -> counts(s.canonical())));
            m.put("positions", bySide(s -> counts(s.positions())));
            m.put("longest_dtm", bySide(s -> ordered("win", s.longestWin(), "loss", s.longestLoss())));
            m.put("dtm_histogram", bySide(s -> {
                Map<String, Object> byResult = new LinkedHashMap<>();
                byResult.put("win", histogram(s.winIn()));
                byResult.put("loss", histogram(s.lossIn()));
                return byResult;
            }));
        }
        if (parquet != null) {
            Map<String, Object> rows = new LinkedHashMap<>();
            rows.put("path", parquet.path());
            rows.put("rows", parquet.rows());
            rows.put("files", json(parquet.files()));
            m.put("parquet", rows);
        }
        if (packedFiles != null) m.put("packed_files", json(packedFiles));
        if (compressedFiles != null) m.put("compressed_files", json(compressedFiles));
        if (seedFile != null) m.put("seed_file", seedFile.toJson());
        if (subTables != null) m.put("sub_tables", subTables.stream().map(t -> ordered("endgame", t.endgame(), "path", t.path())).toList());
        if (made != null) {
            Map<String, Object> versions = new LinkedHashMap<>();
            versions.put("project", made.project());
            versions.put("spark", made.spark());
            versions.put("java", made.java());
            m.put("versions", versions);
            m.put("master", made.master());
            m.put("partitions", made.partitions());
            m.put("wall_seconds", made.wallSeconds());
        }
        if (dtz != null) {
            Map<String, Object> d = new LinkedHashMap<>();
            if (dtz.files() != null) d.put("files", json(dtz.files()));
            if (dtz.compressedFiles() != null) d.put("compressed_files", json(dtz.compressedFiles()));
            for (int s = 0; s < 2; s++) {
                DtzSide side = dtz.sides().get(s);
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("win", side.win());
                f.put("cursed_win", side.cursedWin());
                f.put("draw", side.draw());
                f.put("blessed_loss", side.blessedLoss());
                f.put("loss", side.loss());
                f.put("longest_win_plies", side.longestWin());
                f.put("longest_loss_plies", side.longestLoss());
                d.put(SIDES.get(s), f);
            }
            m.put("dtz", d);
        }
        return m;
    }

    private Map<String, Object> bySide(java.util.function.Function<SideFigures, Object> part) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int s = 0; s < 2; s++) m.put(SIDES.get(s), part.apply(sides.get(s)));
        return m;
    }

    private static Map<String, Object> ordered(String key, Object value, String nextKey, Object nextValue) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        m.put(nextKey, nextValue);
        return m;
    }

    private static Map<String, Object> counts(Counts c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("win", c.win());
        m.put("loss", c.loss());
        m.put("draw", c.draw());
        return m;
    }

    private static Map<String, Object> histogram(SortedMap<Integer, Long> byMoves) {
        Map<String, Object> m = new LinkedHashMap<>();
        byMoves.forEach((moves, n) -> m.put(Integer.toString(moves), n));
        return m;
    }

    private static List<Object> json(List<FileEntry> files) { return files.stream().map(f -> (Object) f.toJson()).toList(); }

    public static Manifest read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    /** Reads a manifest; text that is not a manifest's JSON object is an IOException naming the problem. */
    public static Manifest read(InputStream in) throws IOException {
        try {
            return of(Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IOException("a damaged " + FILE + " (" + e.getMessage() + ")");
        }
    }

    /** The manifest a JSON object describes; what is not one throws IllegalArgumentException (or a cast's failure). */
    private static Manifest of(Map<String, Object> m) {
        if (!(m.get("endgame") instanceof String endgame)) throw new IllegalArgumentException("it names no endgame");
        if (!(m.get("index_size") instanceof Number indexSize)) throw new IllegalArgumentException("it gives no index size");
        List<SideFigures> sides = null;
        if (m.get("positions") instanceof Map<?, ?> positions) {
            Map<?, ?> canonical = (Map<?, ?>) m.get("canonical_positions"), longest = (Map<?, ?>) m.get("longest_dtm"),
                    histograms = (Map<?, ?>) m.get("dtm_histogram");
            sides = new ArrayList<>();
            for (String side : SIDES) {
                Map<?, ?> l = (Map<?, ?>) longest.get(side), h = (Map<?, ?>) histograms.get(side);
                sides.add(new SideFigures(counts(canonical.get(side)), counts(positions.get(side)), number(l.get("win")).intValue(),
                        number(l.get("loss")).intValue(), histogram(h.get("win")), histogram(h.get("loss"))));
            }
            sides = List.copyOf(sides);
        }
        Parquet parquet = m.get("parquet") instanceof Map<?, ?> p && p.get("path") instanceof String path
                ? new Parquet(path, number(p.get("rows")).longValue(), files(p.get("files"))) : null;
        List<SubTable> subTables = null;
        if (m.get("sub_tables") instanceof List<?> subs) {
            subTables = new ArrayList<>();
            for (Object sub : subs) subTables.add(new SubTable((String) ((Map<?, ?>) sub).get("endgame"), (String) ((Map<?, ?>) sub).get("path")));
            subTables = List.copyOf(subTables);
        }
        Made made = m.get("versions") instanceof Map<?, ?> v
                ? new Made((String) v.get("project"), (String) v.get("spark"), (String) v.get("java"), (String) m.get("master"),
                        number(m.get("partitions")).intValue(), number(m.get("wall_seconds")).doubleValue()) : null;
        return new Manifest(endgame, indexSize.longValue(), sides, parquet, files(m.get("packed_files")), files(m.get("compressed_files")),
                FileEntry.of(m.get("seed_file")), subTables, made, dtz(m.get("dtz")));
    }

    private static DtzFigures dtz(Object json) {
        if (!(json instanceof Map<?, ?> d)) return null;
        List<FileEntry> files = files(d.get("files")), compressed = files(d.get("compressed_files"));
        if (files == null && compressed == null) throw new IllegalArgumentException("its DTZ names no file");
        if (compressed != null && (compressed.isEmpty() || compressed.size() % 2 != 0))
            throw new IllegalArgumentException("its compressed DTZ names " + compressed.size() + " files, not as many parts for each side to move");
        List<DtzSide> sides = new ArrayList<>();
        for (String side : SIDES) {
            Map<?, ?> f = (Map<?, ?>) d.get(side);
            sides.add(new DtzSide(number(f.get("win")).longValue(), number(f.get("cursed_win")).longValue(), number(f.get("draw")).longValue(),
                    number(f.get("blessed_loss")).longValue(), number(f.get("loss")).longValue(), number(f.get("longest_win_plies")).intValue(),
                    number(f.get("longest_loss_plies")).intValue()));
        }
        return new DtzFigures(files, compressed, List.copyOf(sides));
    }

    private static Number number(Object json) {
        if (json instanceof Number n) return n;
        throw new IllegalArgumentException("a number is missing");
    }

    private static Counts counts(Object json) {
        Map<?, ?> c = (Map<?, ?>) json;
        return new Counts(number(c.get("win")).longValue(), number(c.get("loss")).longValue(), number(c.get("draw")).longValue());
    }

    private static SortedMap<Integer, Long> histogram(Object json) {
        SortedMap<Integer, Long> byMoves = new TreeMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet()) byMoves.put(Integer.parseInt((String) e.getKey()), number(e.getValue()).longValue());
        return java.util.Collections.unmodifiableSortedMap(byMoves);
    }

    /** The files a JSON list describes, or null when it is missing, empty or damaged. */
    private static List<FileEntry> files(Object json) {
        if (!(json instanceof List<?> files) || files.isEmpty()) return null;
        List<FileEntry> entries = new ArrayList<>();
        for (Object f : files) {
            FileEntry entry = FileEntry.of(f);
            if (entry == null) return null;
            entries.add(entry);
        }
        return List.copyOf(entries);
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
