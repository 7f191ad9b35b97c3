package tablebase.output;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;
import tablebase.probe.IndexedTable;
import tablebase.probe.Manifest;
import tablebase.table.SolvedTable;

/**
 * The folders of a run's tables: the table asked for goes to its prepared output folder,
 * every smaller table to a folder beside it named after its endgame ({@code out/kqkr} needs {@code out/kqk}
 * and {@code out/kkr}). A smaller table whose folder is already there is read back instead of generated,
 * after its file is checked against its manifest; each table is written (aside, then renamed) as soon as it
 * is solved, so a run that fails later keeps the smaller tables it finished.
 */
public final class TableFolders {
    private final SparkSession spark;
    private final Material asked;
    private final OutputFolder askedFolder;
    private final TableExport.Run run;
    private final int partitions;
    private final Consumer<String> say;

    public TableFolders(SparkSession spark, Material asked, OutputFolder askedFolder, TableExport.Run run, int partitions, Consumer<String> say) {
        this.spark = spark;
        this.asked = asked;
        this.askedFolder = askedFolder;
        this.run = run;
        this.partitions = partitions;
        this.say = say;
    }

    private Path folderOf(Material m) {
        return m.equals(asked) ? askedFolder.target() : new Path(askedFolder.target().getParent(), TableExport.folderName(m));
    }

    /** A smaller table written earlier, read back after checking its file against its manifest; null when its folder is not there. */
    public SolvedTable find(Material material) throws IOException {
        Path folder = folderOf(material);
        FileSystem fs = folder.getFileSystem(spark.sparkContext().hadoopConfiguration());
        if (!fs.exists(folder)) return null;
        Path manifestFile = new Path(folder, Manifest.FILE);
        if (!fs.isFile(manifestFile))
            throw new IOException(folder + " is in the way of the " + material.name() + " table: it holds no manifest.json; move it away");
        Map<String, Object> manifest = TableExport.readManifest(fs, manifestFile);
        if (!material.name().equals(manifest.get("endgame")))
            throw new IOException(folder + " holds " + manifest.get("endgame") + ", not the " + material.name() + " table; move it away");
        if (!(manifest.get("packed_file") instanceof Map<?, ?> packed))
            throw new IOException(folder + " holds a " + material.name() + " table without its packed file (an older format); move it away");
        Path file = new Path(folder, String.valueOf(packed.get("name")));
        long expected = IndexedTable.fileSize(new PositionIndex(material));
        if (!fs.isFile(file) || fs.getFileStatus(file).getLen() != expected)
            throw new IOException(file + " is missing or not " + expected + " bytes; move " + folder + " away to generate it again");
        try (InputStream in = fs.open(file)) {
            if (!String.valueOf(packed.get("sha256")).equals(Manifest.sha256(in)))
                throw new IOException(file + " does not match the SHA-256 in its manifest; move " + folder + " away to generate it again");
        }
        say.accept("reusing " + material.name() + " from " + folder);
        try (InputStream in = fs.open(file)) {
            return new SolvedTable(material, IndexedTable.readResults(in, new PositionIndex(material)), 0);
        }
    }

    /** Writes a table just solved into its folder (aside, then renamed); {@code smaller} holds the tables its captures reach. */
    public void write(SolvedTable table, Map<Material, SolvedTable> smaller) throws IOException {
        long start = System.nanoTime();
        if (table.material().equals(asked)) {
            TableExport.write(spark, table, smaller, partitions, askedFolder, run);
            askedFolder.commit();
        } else {
            try (OutputFolder folder = OutputFolder.prepare(folderOf(table.material()).toString(), false, spark.sparkContext().hadoopConfiguration())) {
                TableExport.write(spark, table, smaller, partitions, folder, run);
                folder.commit();
            }
        }
        say.accept(String.format("wrote %s to %s in %.1f s", table.material().name(), folderOf(table.material()), (System.nanoTime() - start) / 1e9));
    }
}
