package tablebase.output;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Material;
import tablebase.generate.SmallerTables;
import tablebase.probe.IndexedTable;
import tablebase.probe.Manifest;
import tablebase.table.SolvedTable;
import tablebase.table.TableFiles;

/**
 * The folders of a run's tables: the table asked for goes to its prepared output folder (or, for a set, each
 * table to a folder of the set's folder), every smaller table to a folder beside it named after its endgame ({@code out/kqkr} needs {@code out/kqk}
 * and {@code out/kkr}). A smaller table whose folder is already there is read back instead of generated,
 * after its files are checked against its manifest; each table is written (aside, then renamed) as soon as it
 * is solved, so a run that fails later keeps the smaller tables it finished.
 */
public final class TableFolders {
    private final SparkSession spark;
    private final Material asked;
    private final OutputFolder askedFolder;
    private final TableExport.Run run;
    private final long entriesPerFile;
    private final Consumer<String> say;

    /** The folder that holds the tables side by side. */
    private final Path tables;

    /**
     * The folders of one table asked for, prepared at {@code askedFolder}, and of its smaller tables beside it; or,
     * with {@code asked} and {@code askedFolder} null, of a set of tables in {@code tables}. {@code entriesPerFile}:
     * the most entries a packed part file holds ({@link IndexedTable#partStarts}).
     */
    private TableFolders(SparkSession spark, Path tables, Material asked, OutputFolder askedFolder, TableExport.Run run, long entriesPerFile,
                         Consumer<String> say) {
        this.spark = spark;
        this.tables = tables;
        this.asked = asked;
        this.askedFolder = askedFolder;
        this.run = run;
        this.entriesPerFile = entriesPerFile;
        this.say = say;
    }

    /** One table asked for, written to {@code askedFolder}, its smaller tables beside it. */
    public static TableFolders ofTable(SparkSession spark, Material asked, OutputFolder askedFolder, TableExport.Run run, long entriesPerFile,
                                       Consumer<String> say) {
        return new TableFolders(spark, askedFolder.target().getParent(), asked, askedFolder, run, entriesPerFile, say);
    }

    /** A set of tables, each in its folder under {@code tables} ({@code tables/kqkr}), made there unless it is there already. */
    public static TableFolders ofSet(SparkSession spark, Path tables, TableExport.Run run, long entriesPerFile, Consumer<String> say) {
        return new TableFolders(spark, tables, null, null, run, entriesPerFile, say);
    }

    private Path folderOf(Material m) {
        return m.equals(asked) ? askedFolder.target() : new Path(tables, TableExport.folderName(m));
    }

    /** The manifest of a table written or found here. */
    public Map<String, Object> manifest(Material material) throws IOException {
        Path file = new Path(folderOf(material), Manifest.FILE);
        return TableExport.readManifest(file.getFileSystem(spark.sparkContext().hadoopConfiguration()), file);
    }

    /** The bytes of every file in a table's folder. */
    public long bytesOnDisk(Material material) throws IOException {
        Path folder = folderOf(material);
        return folder.getFileSystem(spark.sparkContext().hadoopConfiguration()).getContentSummary(folder).getLength();
    }

    /** Whether a table's folder is there (to reuse, once {@link #find} has checked it). */
    public boolean present(Material material) {
        try {
            Path folder = folderOf(material);
            return folder.getFileSystem(spark.sparkContext().hadoopConfiguration()).exists(folder);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A smaller table written earlier, its part files checked against its manifest (read through, never held);
     * null when its folder is not there.
     */
    public TableFiles find(Material material) throws IOException {
        Path folder = folderOf(material);
        FileSystem fs = folder.getFileSystem(spark.sparkContext().hadoopConfiguration());
        if (!fs.exists(folder)) return null;
        Path manifestFile = new Path(folder, Manifest.FILE);
        if (!fs.isFile(manifestFile))
            throw new IOException(folder + " is in the way of the " + material.name() + " table: it holds no manifest.json; move it away");
        Map<String, Object> manifest = TableExport.readManifest(fs, manifestFile);
        if (!material.name().equals(manifest.get("endgame")))
            throw new IOException(folder + " holds " + manifest.get("endgame") + ", not the " + material.name() + " table; move it away");
        List<Map<?, ?>> parts = Manifest.packedFiles(manifest);
        if (parts == null)
            throw new IOException(folder + " holds a " + material.name() + " table without its packed files (an older format); move it away");
        List<Map<?, ?>> listed = new java.util.ArrayList<>(parts);
        List<Map<?, ?>> compressed = Manifest.files(manifest, Manifest.COMPRESSED_FILES);
        if (compressed != null) listed.addAll(compressed);
        for (Map<?, ?> part : listed) {
            Path file = new Path(folder, String.valueOf(part.get("name")));
            if (!fs.isFile(file) || !String.valueOf(fs.getFileStatus(file).getLen()).equals(String.valueOf(part.get("bytes"))))
                throw new IOException(file + " is missing or not the " + part.get("bytes") + " bytes its manifest says; move " + folder + " away to generate it again");
            try (InputStream in = fs.open(file)) {
                if (!String.valueOf(part.get("sha256")).equals(Manifest.sha256(in)))
                    throw new IOException(file + " does not match the SHA-256 in its manifest; move " + folder + " away to generate it again");
            }
        }
        say.accept("reusing " + material.name() + " from " + folder);
        return files(material, folder, parts);
    }

    private static TableFiles files(Material material, Path folder, List<Map<?, ?>> parts) {
        return new TableFiles(material, folder.toString(), parts.stream().map(p -> String.valueOf(p.get("name"))).toList());
    }

    /**
     * Writes a table just solved into its folder (aside, then renamed) and returns its files; {@code smaller} opens
     * the tables its captures reach.
     */
    public TableFiles write(SolvedTable table, SmallerTables smaller) throws IOException {
        long start = System.nanoTime(), startMillis = System.currentTimeMillis();
        TableExport.Written written;
        if (table.material().equals(asked)) {
            written = TableExport.write(spark, table, smaller, askedFolder, run, entriesPerFile);
            askedFolder.commit();
        } else {
            try (OutputFolder folder = OutputFolder.prepare(folderOf(table.material()).toString(), false, spark.sparkContext().hadoopConfiguration())) {
                written = TableExport.write(spark, table, smaller, folder, run, entriesPerFile);
                folder.commit();
            }
        }
        say.accept(String.format("wrote %s to %s in %.2f s, its Parquet rows in %.2f s", table.material().name(), folderOf(table.material()),
                (System.nanoTime() - start) / 1e9, Math.max(0, written.rowsDoneMillis() - startMillis) / 1e3));
        return files(table.material(), folderOf(table.material()), Manifest.packedFiles(written.manifest()));
    }
}
