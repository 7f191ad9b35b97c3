package tablebase.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Material;

/** A generated table's Parquet export registered as a Spark SQL view named after its endgame ({@code kbnk}). */
public record TableView(Material material, String name, Path folder) {

    /** Reads the folder's manifest for the endgame and registers {@code folder/parquet} under its name. */
    public static TableView register(SparkSession spark, Path folder) throws IOException {
        Path parquet = folder.resolve(TableExport.PARQUET), manifest = folder.resolve(TableExport.MANIFEST);
        if (!Files.isDirectory(parquet) || !Files.isRegularFile(manifest))
            throw new NoSuchFileException(folder + ": not a generated table (it needs " + TableExport.PARQUET + "/ and "
                    + TableExport.MANIFEST + "; make one with jobs/generate)");
        Object endgame = Manifest.read(manifest).get("endgame");
        if (!(endgame instanceof String e)) throw new IOException(manifest + " names no endgame");
        Material material = Material.parse(e);
        String name = material.name().toLowerCase();
        spark.read().parquet(parquet.toString()).createOrReplaceTempView(name);
        return new TableView(material, name, folder);
    }
}
