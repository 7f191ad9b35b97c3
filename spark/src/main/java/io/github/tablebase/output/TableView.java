package io.github.tablebase.output;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.Manifest;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.types.DataTypes;

/**
 * A generated table's Parquet export registered as Spark SQL views named after its endgame: {@code kbnk}, its rows
 * (canonical positions, each standing for {@code positions} positions), and {@code kbnk_positions}, every position
 * those rows stand for, one row each. The folder may be on any filesystem Spark reads (a local folder,
 * {@code hdfs://}, ...).
 */
public record TableView(Material material, Material table, String name, String folder) {
    /** Whether this view reads a table of the material with the colours swapped ({@code krkq} from {@code kqkr}). */
    public boolean coloursSwapped() { return material != table; }

    /** Reads the folder's manifest for the endgame and registers {@code folder/parquet} under its name. */
    public static TableView register(SparkSession spark, String folder) throws IOException {
        Path root = new Path(folder);
        FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        Path parquet = new Path(root, TableExport.PARQUET), manifest = new Path(root, Manifest.FILE);
        if (!fs.isFile(manifest))
            throw new NoSuchFileException(folder + ": not a generated table (it needs " + TableExport.PARQUET + "/ and "
                    + Manifest.FILE + "; make one with jobs/generate)");
        if (!fs.isDirectory(parquet))
            throw new NoSuchFileException(folder + ": a table made without its Parquet rows (--no-parquet); make it again without that option to query it");
        Manifest read = TableExport.readManifest(fs, manifest);
        checkParquetFiles(fs, parquet, read);
        Material material = read.material();
        registerFunctions(spark);
        TableView own = new TableView(material, material, material.name().toLowerCase(), folder);
        own.create(spark);
        return own;
    }

    /**
     * The Parquet files the manifest lists, each there with its size and Parquet's mark at both ends: a file missing,
     * cut short or replaced is an IOException that names it (their SHA-256 is {@code jobs/verify}'s: reading every byte
     * before each query would cost more than most queries).
     */
    static void checkParquetFiles(FileSystem fs, Path parquet, Manifest manifest) throws IOException {
        List<Manifest.FileEntry> files = manifest.parquetFiles();
        if (files == null) throw new IOException(new Path(parquet.getParent(), Manifest.FILE) + " lists no Parquet files");
        for (Manifest.FileEntry file : files) {
            Path path = new Path(parquet, file.name());
            if (!fs.isFile(path)) throw new NoSuchFileException(path + ": no such file, though the manifest lists it");
            long bytes = fs.getFileStatus(path).getLen(), listedBytes = file.bytes();
            if (bytes != listedBytes) throw new IOException(path + " has " + bytes + " bytes, its manifest says " + listedBytes + ": damaged or from another run");
            byte[] head = new byte[4], tail = new byte[4];
            try (org.apache.hadoop.fs.FSDataInputStream in = fs.open(path)) {
                in.readFully(0, head);
                in.readFully(bytes - 4, tail);
            }
            if (!new String(head, java.nio.charset.StandardCharsets.US_ASCII).equals("PAR1") || !java.util.Arrays.equals(head, tail))
                throw new IOException(path + " is not a Parquet file (its first or last bytes are not PAR1): damaged");
            try (org.apache.parquet.hadoop.ParquetFileReader footer = org.apache.parquet.hadoop.ParquetFileReader.open(
                    org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(path, fs.getConf()))) {
                footer.getRowGroups(); // read with the footer: Spark's own failure to read it would not name the file
            } catch (IOException | RuntimeException | StackOverflowError e) { // Thrift's reader recurses into garbage
                throw new IOException(path + ": its Parquet footer cannot be read (" + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + "): damaged");
            }
        }
    }

    /**
     * The file named by a failure of Spark reading a table's rows, as an IOException of one line, or null when the
     * failure is another's: a Parquet file damaged inside, which the size check lets through, is found by reading it.
     */
    static IOException unreadableFile(Throwable failure) {
        java.util.regex.Pattern reading = java.util.regex.Pattern.compile("reading file (\\S+?)\\.?(\\s|$)");
        for (Throwable t = failure; t != null; t = t.getCause()) {
            java.util.regex.Matcher m = reading.matcher(String.valueOf(t.getMessage()));
            if (m.find()) {
                Throwable root = t;
                while (root.getCause() != null) root = root.getCause();
                String why = String.valueOf(root.getMessage()).lines().findFirst().orElse(root.toString());
                return new IOException(m.group(1) + " cannot be read (" + root.getClass().getSimpleName() + ": " + why
                        + "): the file is damaged; jobs/verify checks every file against its manifest");
            }
        }
        return null;
    }

    /** Work that reads a table's rows, a Parquet file damaged inside told as an IOException of one line that names it. */
    public static <T> T readingRows(java.util.concurrent.Callable<T> work) throws Exception {
        try {
            return work.call();
        } catch (Exception e) { // a SparkException too, which Scala throws undeclared
            IOException unreadable = unreadableFile(e);
            if (unreadable == null) throw e;
            throw unreadable;
        }
    }

    /**
     * This view and the view of its every position, from its table's rows (a set holds one table a material:
     * {@code krkq} is computed from {@code kqkr}'s rows).
     */
    private void create(SparkSession spark) {
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> rows = spark.read().parquet(new Path(folder, TableExport.PARQUET).toString());
        List<String> stored = List.of(rows.columns());
        // rows written before they carried their squares decode the key; those written before DTZ have none
        rows.selectExpr(rowColumns(table, material, stored.contains("squares"), stored.contains("dtz"))).createOrReplaceTempView(name);
        spark.sql(everyPositionView(material, name));
    }

    /**
     * The views of this table's material with the colours swapped ({@code krkq}, {@code krkq_positions} from
     * {@code kqkr}): the same rows seen from the other side, each position in the twin's own canonical form; null
     * when the material is its own twin (KRKR).
     */
    public TableView registerColoursSwapped(SparkSession spark) {
        Material twin = material.coloursSwapped();
        if (twin == material) return null;
        TableView view = new TableView(twin, material, twin.name().toLowerCase(), folder);
        view.create(spark);
        return view;
    }

    /**
     * The columns of a table's view, computed from the stored row ({@link PositionRows}): the key, {@code stm} ("w",
     * "b"), each piece's square ({@code wk}, {@code wq}, ...), {@code result} ("win", "loss", "draw" for the side to
     * move), {@code dtm} (moves of the side that mates; null for a draw), {@code best_move} (UCI), {@code fen},
     * {@code positions}, and under the 50-move rule (null for a table made without DTZ, or rows written before these
     * columns: {@code dtz} false) {@code dtz} (python-chess's signed DTZ in plies), {@code wdl} (2 win, 1 cursed win, 0 draw, -1
     * blessed loss, -2 loss) and {@code result50} (Lichess's names: "win", "cursed-win", "draw", "blessed-loss",
     * "loss"). A query computes only the columns it reads. These are {@code table}'s rows read as {@code
     * view}'s, its material or its colours swapped: then each row is the position seen from the other side, keyed and
     * written in {@code view}'s canonical form, the other side to move, the same result and DTM for the side to move.
     * Without {@code squares} (rows written before they carried them) the squares are decoded from the key.
     */
    static String[] rowColumns(Material table, Material view, boolean squares, boolean dtz) {
        boolean swapped = view != table;
        String key = swapped ? TWIN_KEY + "('" + table.name() + "', key)" : "key";
        String side = swapped ? "CAST(1 - side AS TINYINT)" : "side";
        List<String> columns = new ArrayList<>(List.of(key + " AS key", "IF(" + side + " = 0, 'w', 'b') AS stm"));
        List<String> pieces = view.columnNames();
        for (int k = 0; k < pieces.size(); k++) {
            String square = "(shiftright(squares, " + 6 * k + ") & 63)"; // a table's own rows carry their squares
            columns.add((swapped || !squares ? KEY_SQUARE + "('" + view.name() + "', " + key + ", " + k + ")"
                    : "concat(char(97 + " + square + " % 8), char(49 + " + square + " DIV 8))") + " AS " + pieces.get(k));
        }
        columns.addAll(List.of("CASE WHEN ply IS NULL THEN 'draw' WHEN ply % 2 = 1 THEN 'win' ELSE 'loss' END AS result",
                "CAST((ply + 1) DIV 2 AS INT) AS dtm",
                (swapped ? TWIN_MOVE + "('" + table.name() + "', key, move)" : MOVE_UCI + "(move)") + " AS best_move",
                KEY_FEN + "('" + view.name() + "', " + key + ", " + side + ") AS fen", "CAST(positions AS INT) AS positions"));
        // DTZ and WDL are the side to move's: the same seen from either side
        String wdl = dtz ? "CAST(wdl AS INT)" : "CAST(NULL AS INT)";
        columns.addAll(List.of((dtz ? "CAST(dtz AS INT)" : "CAST(NULL AS INT)") + " AS dtz", wdl + " AS wdl",
                "CASE " + wdl + " WHEN 2 THEN 'win' WHEN 1 THEN 'cursed-win' WHEN 0 THEN 'draw' WHEN -1 THEN 'blessed-loss' WHEN -2 THEN 'loss' END AS result50"));
        return columns.toArray(new String[0]);
    }

    /** SQL functions of the stored rows: a piece's square and the FEN from the key, a move code in UCI. */
    static final String KEY_SQUARE = "key_square", KEY_FEN = "key_fen", MOVE_UCI = "move_uci";

    /** SQL functions of a row read as its colours-swapped twin's: the twin's key, and the best move in its form. */
    static final String TWIN_KEY = "twin_key", TWIN_MOVE = "twin_move";

    /**
     * A row's key seen from the other side: the twin's key, and the symmetry that takes the position with the colours
     * swapped to the twin's canonical form (which a best move's squares follow).
     */
    private record Twin(String endgame, long key, long twinKey, int symmetry) {}

    /** A task's last twin: a twin view's columns ask for the twin of one key in turn. */
    private static final ThreadLocal<Twin> LAST_TWIN = new ThreadLocal<>();

    private static Twin twin(String endgame, long key) {
        Twin last = LAST_TWIN.get();
        if (last != null && last.key() == key && last.endgame().equals(endgame)) return last;
        Decoded d = decoded(endgame, key);
        Material table = d.index().material();
        Position seen = new Position(table.coloursSwapped(), Position.coloursSwapped(table, d.squares()), Color.WHITE);
        PositionIndex twinIndex = index(seen.material());
        Twin t = new Twin(endgame, key, twinIndex.index(seen), twinIndex.canonicalSymmetry(seen));
        LAST_TWIN.set(t);
        return t;
    }

    static long twinKey(String endgame, long key) { return twin(endgame, key).twinKey(); }

    static String twinMove(String endgame, long key, Short code) {
        if (code == null) return null;
        int s = twin(endgame, key).symmetry();
        int from = Square.transform(Square.rankMirrored(MoveGenerator.from(code)), s), to = Square.transform(Square.rankMirrored(MoveGenerator.to(code)), s);
        return Move.uci(from, to, MoveGenerator.promotedPiece(code >>> 12));
    }

    private static PositionIndex index(Material m) { return INDEXES.computeIfAbsent(m.name(), e -> new PositionIndex(m)); }

    /** The index of each endgame a task has met, made once per JVM: a view's functions decode millions of keys. */
    private static final java.util.concurrent.ConcurrentMap<String, PositionIndex> INDEXES = new java.util.concurrent.ConcurrentHashMap<>();

    /** A task's last key decoded: a row's columns ask for the squares of one key in turn. */
    private static final ThreadLocal<Decoded> LAST = new ThreadLocal<>();

    private record Decoded(PositionIndex index, long key, int[] squares) {}

    private static Decoded decoded(String endgame, long key) {
        Decoded last = LAST.get();
        if (last != null && last.key() == key && last.index().material().name().equals(endgame)) return last;
        PositionIndex index = index(Material.parse(endgame));
        int[] squares = new int[index.material().size()];
        index.decode(key, squares);
        Decoded d = new Decoded(index, key, squares);
        LAST.set(d);
        return d;
    }

    /** The views' SQL functions, once a session: every table's views share them. */
    private static void registerFunctions(SparkSession spark) {
        if (spark.catalog().functionExists(IMAGE_FEN)) return;
        spark.udf().register(KEY_SQUARE, (UDF3<String, Long, Integer, String>) (e, key, k) -> Square.name(decoded(e, key).squares()[k]),
                DataTypes.StringType);
        spark.udf().register(KEY_FEN, (UDF3<String, Long, Byte, String>) (e, key, side) -> {
            Decoded d = decoded(e, key);
            return Fen.of(d.index().material(), d.squares(), side == 0 ? Color.WHITE : Color.BLACK);
        }, DataTypes.StringType);
        spark.udf().register(MOVE_UCI, (UDF1<Short, String>) code -> code == null ? null : PositionRows.uci(code), DataTypes.StringType);
        spark.udf().register(TWIN_KEY, (UDF2<String, Long, Long>) TableView::twinKey, DataTypes.LongType);
        spark.udf().register(TWIN_MOVE, (UDF3<String, Long, Short, String>) TableView::twinMove, DataTypes.StringType);
        spark.udf().register(CANONICAL_FEN, new Remembered<>(TableView::canonicalFen), DataTypes.StringType);
        spark.udf().register(POSITION_KEY, new Remembered<>(TableView::positionKey), DataTypes.LongType);
        spark.udf().register(POSITION_FEN, new Remembered<>(TableView::positionFen), DataTypes.StringType);
        spark.udf().register(IMAGE_SYMMETRIES, (UDF1<String, int[]>) fen -> Fen.parse(fen).distinctImages(),
                DataTypes.createArrayType(DataTypes.IntegerType));
        spark.udf().register(IMAGE_FEN, (UDF2<String, Integer, String>) (fen, s) -> Fen.of(Fen.parse(fen).transform(s)), DataTypes.StringType);
    }

    /**
     * The view of a folder's every table, each row with its {@code endgame} and the columns every table's view has
     * (the tables held, not the materials read from their twins, which would count each position twice).
     */
    public static final String EVERY_TABLE = "all_tables";

    /** The table folders of {@code folder} (those holding a manifest), in name order, each with whether it holds its Parquet rows. */
    public static java.util.SortedMap<String, Boolean> tableFolders(SparkSession spark, String folder) throws IOException {
        Path root = new Path(folder);
        FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        if (!fs.isDirectory(root)) throw new NoSuchFileException(folder + ": no such folder");
        java.util.SortedMap<String, Boolean> tables = new java.util.TreeMap<>();
        for (org.apache.hadoop.fs.FileStatus child : fs.listStatus(root))
            if (child.isDirectory() && fs.isFile(new Path(child.getPath(), Manifest.FILE)))
                tables.put(child.getPath().toString(), fs.isDirectory(new Path(child.getPath(), TableExport.PARQUET)));
        return tables;
    }

    /**
     * Registers every table folder of {@code folder} (those holding a manifest), each under its endgame's name and,
     * unless the folder holds a table of it, its colours swapped's; and {@link #EVERY_TABLE} over them. A table whose
     * folder is damaged (its manifest or Parquet files) is left out and told to {@code leftOut} in one line.
     */
    public static java.util.List<TableView> registerFolder(SparkSession spark, String folder, java.util.function.Consumer<String> leftOut) throws IOException {
        java.util.Map<String, Boolean> tables = tableFolders(spark, folder);
        java.util.List<TableView> views = new java.util.ArrayList<>();
        String firstLeftOut = null;
        for (java.util.Map.Entry<String, Boolean> table : tables.entrySet()) {
            if (!table.getValue()) continue; // --no-parquet
            try {
                views.add(register(spark, table.getKey()));
            } catch (IOException | IllegalArgumentException e) {
                String line = new Path(table.getKey()).getName() + " left out: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
                if (firstLeftOut == null) firstLeftOut = line;
                leftOut.accept(line);
            }
        }
        if (tables.isEmpty()) throw new NoSuchFileException(folder + ": holds no table folder (make them with jobs/generate --out " + folder + "/kqkr)");
        if (views.isEmpty() && firstLeftOut != null) throw new IOException("no table of " + folder + " can be read: " + firstLeftOut);
        if (views.isEmpty()) throw new NoSuchFileException(folder + ": its tables were made without their Parquet rows (--no-parquet); make them again without that option to query them");
        java.util.Set<Material> own = new java.util.HashSet<>();
        for (TableView v : views) own.add(v.material());
        StringBuilder every = new StringBuilder("CREATE OR REPLACE TEMPORARY VIEW " + EVERY_TABLE + " AS ");
        for (TableView v : views)
            every.append(v == views.get(0) ? "" : " UNION ALL ").append("SELECT '").append(v.material().name())
                    .append("' AS endgame, key, stm, result, dtm, best_move, fen, positions, dtz, wdl, result50 FROM ").append(v.name());
        spark.sql(every.toString());
        for (TableView v : List.copyOf(views))
            if (!own.contains(v.material().coloursSwapped())) views.add(v.registerColoursSwapped(spark));
        return views;
    }

    /** SQL functions of the view of every position: the symmetries giving a row's distinct images, and an image's FEN. */
    static final String IMAGE_SYMMETRIES = "image_symmetries", IMAGE_FEN = "image_fen";

    /**
     * The view of every position, in SQL so that a query computes only the columns it reads: each row of the table
     * once per symmetry that gives a distinct image (all eight unless {@code positions} says fewer), its squares and
     * best move moved by that symmetry.
     */
    static String everyPositionView(Material material, String table) {
        StringBuilder select = new StringBuilder("key, stm");
        for (String piece : material.columnNames()) select.append(", ").append(square(piece)).append(" AS ").append(piece);
        select.append(", result, dtm, CASE WHEN best_move IS NULL THEN NULL ELSE concat(")
                .append(square("substr(best_move, 1, 2)")).append(", ").append(square("substr(best_move, 3, 2)"))
                .append(", substr(best_move, 5)) END AS best_move, ").append(IMAGE_FEN).append("(fen, symmetry) AS fen, 1 AS positions, dtz, wdl, result50");
        return "CREATE OR REPLACE TEMPORARY VIEW " + table + EVERY_POSITION + " AS SELECT " + select + " FROM " + table
                + " LATERAL VIEW explode(" + imageSymmetries(material) + ") images AS symmetry";
    }

    /**
     * SQL: the symmetries that move a row's position to each of its distinct images, as {@link Position#distinctImages}
     * lists them; its FEN parsed only where some images coincide but not all ({@code positions} between 1 and all).
     */
    static String imageSymmetries(Material material) {
        int all = material.symmetries();
        return "CASE WHEN positions = " + all + " THEN sequence(0, " + (all - 1) + ") WHEN positions = 1 THEN array(0) ELSE " + IMAGE_SYMMETRIES
                + "(fen) END";
    }

    /** SQL: the square named by {@code name} ('c4') moved by {@code symmetry} as {@link Square#transform} moves it. */
    private static String square(String name) {
        String file = "(ascii(" + name + ") - 97)", rank = "(cast(substr(" + name + ", 2, 1) AS INT) - 1)";
        String f = "(CASE WHEN symmetry & 4 = 0 THEN " + file + " ELSE " + rank + " END)";
        String r = "(CASE WHEN symmetry & 4 = 0 THEN " + rank + " ELSE " + file + " END)";
        return "concat(char(97 + CASE WHEN symmetry & 1 = 0 THEN " + f + " ELSE 7 - " + f + " END), char(49 + CASE WHEN symmetry & 2 = 0 THEN "
                + r + " ELSE 7 - " + r + " END))";
    }

    /** The suffix of the view of every position: {@code kbnk_positions}. */
    public static final String EVERY_POSITION = "_positions";

    /** The name of the view of every position. */
    public String everyPosition() { return name + EVERY_POSITION; }

    /**
     * The SQL function {@code canonical_fen(fen)}: the FEN of a position's canonical form, the form an indexed
     * table's rows hold, so {@code WHERE fen = canonical_fen('...')} finds any position; null for a bad FEN.
     */
    public static final String CANONICAL_FEN = "canonical_fen";

    /**
     * The SQL functions {@code position_key(fen)}, the key of the row that stands for a position, and
     * {@code position_fen(fen)}, the FEN as the views write it: {@code WHERE key = position_key(F) AND fen =
     * position_fen(F)} finds position F in the view of every position, with its own best move, reading one row of
     * the table (the key's filter runs before the rows are spread to their images).
     */
    public static final String POSITION_KEY = "position_key", POSITION_FEN = "position_fen";

    static String canonicalFen(String fen) {
        Position p = legal(fen);
        return p == null ? null : Fen.of(new PositionIndex(p.material()).canonical(p));
    }

    static Long positionKey(String fen) {
        Position p = legal(fen);
        return p == null ? null : new PositionIndex(p.material()).index(p);
    }

    static String positionFen(String fen) {
        Position p = legal(fen);
        return p == null ? null : Fen.of(p);
    }

    /** The position a FEN writes, or null when it is malformed or illegal. */
    private static Position legal(String fen) {
        try {
            Position p = Fen.parse(fen);
            return p.isLegal() ? p : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * A SQL function of a FEN that keeps its last answer: a query that compares a column with the function of a
     * literal calls it on every row (Spark folds no user function), always with the same FEN.
     */
    private static final class Remembered<T> implements UDF1<String, T> {
        private final UDF1<String, T> function;
        private transient volatile Object[] last; // {fen, answer}, replaced whole: tasks of one executor share it

        Remembered(UDF1<String, T> function) { this.function = function; }

        @SuppressWarnings("unchecked")
        @Override public T call(String fen) throws Exception {
            Object[] l = last;
            if (l != null && java.util.Objects.equals(l[0], fen)) return (T) l[1];
            T answer = function.call(fen);
            last = new Object[] {fen, answer};
            return answer;
        }
    }
}
