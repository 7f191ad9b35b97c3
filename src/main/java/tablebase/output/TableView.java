package tablebase.output;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import tablebase.chess.Fen;
import tablebase.chess.Material;
import tablebase.chess.Position;
import tablebase.chess.PositionIndex;

/**
 * A generated table's Parquet export registered as a Spark SQL view named after its endgame ({@code kbnk});
 * {@code indexed} when it is a general table (rows of canonical positions, draws included).
 * The folder may be on any filesystem Spark reads (a local folder, {@code hdfs://}, ...).
 */
public record TableView(Material material, String name, String folder, boolean indexed) {

    /** Reads the folder's manifest for the endgame and registers {@code folder/parquet} under its name. */
    public static TableView register(SparkSession spark, String folder) throws IOException {
        Path root = new Path(folder);
        FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        Path parquet = new Path(root, TableExport.PARQUET), manifest = new Path(root, TableExport.MANIFEST);
        if (!fs.isDirectory(parquet) || !fs.isFile(manifest))
            throw new NoSuchFileException(folder + ": not a generated table (it needs " + TableExport.PARQUET + "/ and "
                    + TableExport.MANIFEST + "; make one with jobs/generate)");
        Map<String, Object> read = Manifest.read(fs, manifest);
        if (!(read.get("endgame") instanceof String e)) throw new IOException(manifest + " names no endgame");
        Material material = Material.parse(e);
        String name = material.name().toLowerCase();
        spark.read().parquet(parquet.toString()).createOrReplaceTempView(name);
        spark.udf().register(CANONICAL_FEN, (UDF1<String, String>) TableView::canonicalFen, DataTypes.StringType);
        return new TableView(material, name, folder, read.get("indexed_file") != null);
    }

    /**
     * The SQL function {@code canonical_fen(fen)}: the FEN of a position's canonical form, the form an indexed
     * table's rows hold, so {@code WHERE fen = canonical_fen('...')} finds any position; null for a bad FEN.
     */
    public static final String CANONICAL_FEN = "canonical_fen";

    static String canonicalFen(String fen) {
        try {
            Position p = Fen.parse(fen);
            return p.isLegal() ? Fen.of(new PositionIndex(p.material()).canonical(p)) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
