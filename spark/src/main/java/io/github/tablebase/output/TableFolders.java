package io.github.tablebase.output;

import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.SolvedTable;
import io.github.tablebase.table.DtzFiles;
import io.github.tablebase.table.TableFiles;
import io.github.tablebase.table.TablePlan;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The folders of a run's tables: the table asked for goes to its prepared output folder (or, for a set, each
 * table to a folder of the set's folder), every smaller table to a folder beside it named after its endgame ({@code out/kqkr} needs {@code out/kqk}
 * and {@code out/krk}, whose colours swapped are KKR). A smaller table whose folder is already there is read back instead of generated,
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

    /** The folder of a table of this run: the one asked for, or under the folder of tables. */
    public Path folderOf(Material m) {
        return m.equals(asked) ? askedFolder.target() : new Path(tables, TableExport.folderName(m));
    }

    /** The manifest of a table written or found here. */
    public Manifest manifest(Material material) throws IOException {
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

    /** The DTZ files of a table written or found here, or null when it was made without them. */
    public DtzFiles dtzFiles(Material material) throws IOException {
        Manifest.DtzFigures dtz = manifest(material).dtz();
        if (dtz == null) return null;
        Path folder = folderOf(material);
        return new DtzFiles(material, dtz.files() == null ? null : files(material, folder, dtz.files()), folder.toString(),
                dtz.compressedFiles() == null ? null : dtz.compressedFiles().stream().map(Manifest.FileEntry::name).toList());
    }

    /** A table written earlier: its packed files, or null when its folder keeps its compressed files alone. */
    public record Found(TableFiles packed) {}

    /**
     * A smaller table written earlier, its part files checked against its manifest (read through, never held);
     * null when its folder is not there.
     */
    public Found find(Material material) throws IOException {
        Path folder = folderOf(material);
        FileSystem fs = folder.getFileSystem(spark.sparkContext().hadoopConfiguration());
        if (!fs.exists(folder)) return null;
        Path manifestFile = new Path(folder, Manifest.FILE);
        if (!fs.isFile(manifestFile))
            throw new IOException(folder + " is in the way of the " + material.name() + " table: it holds no manifest.json; move it away");
        Manifest manifest = TableExport.readManifest(fs, manifestFile);
        if (!material.name().equals(manifest.endgame()))
            throw new IOException(folder + " holds " + manifest.endgame() + ", not the " + material.name() + " table; move it away");
        List<Manifest.FileEntry> parts = manifest.packedFiles(), compressed = manifest.compressedFiles();
        if (parts == null && compressed == null)
            throw new IOException(folder + " holds a " + material.name() + " table without its packed or compressed files (an older format); move it away");
        List<Manifest.FileEntry> listed = new java.util.ArrayList<>();
        if (parts != null) listed.addAll(parts);
        if (compressed != null) listed.addAll(compressed);
        if (manifest.dtz() != null) // what a bigger table's DTZ would read
            for (List<Manifest.FileEntry> dtz : java.util.Arrays.asList(manifest.dtz().files(), manifest.dtz().compressedFiles()))
                if (dtz != null) listed.addAll(dtz);
        for (Manifest.FileEntry part : listed) {
            Path file = new Path(folder, part.name());
            if (!fs.isFile(file) || fs.getFileStatus(file).getLen() != part.bytes())
                throw new IOException(file + " is missing or not the " + part.bytes() + " bytes its manifest says; move " + folder + " away to generate it again");
            try (InputStream in = fs.open(file)) {
                if (!part.sha256().equals(Manifest.sha256(in)))
                    throw new IOException(file + " does not match the SHA-256 in its manifest; move " + folder + " away to generate it again");
            }
        }
        say.accept("reusing " + material.name() + " from " + folder);
        return new Found(parts != null ? files(material, folder, parts) : null);
    }

    /** The run's folder of packed files made again from compressed ones (see {@link UnpackedTable}), made on first use. */
    private Path unpackedRoot;
    /** The tables unpacked there, by material: their packed files are deleted once the run no longer reads them. */
    private final Map<Material, Path> unpacked = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A table found with its compressed files alone: its packed files made again for this run, from them and from
     * those of every table it reaches, which must be written by then.
     */
    public synchronized TableFiles unpack(Material material) throws IOException {
        Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        if (unpackedRoot == null) {
            FileSystem fs = tables.getFileSystem(hadoop);
            // a run killed outright (kill -9, a lost machine) left its folder: the set's next run clears it
            if (fs.exists(tables))
                for (org.apache.hadoop.fs.FileStatus stale : fs.listStatus(tables, p -> p.getName().startsWith(".unpacked-"))) fs.delete(stale.getPath(), true);
            unpackedRoot = new Path(tables, ".unpacked-" + java.util.UUID.randomUUID());
            fs.deleteOnExit(unpackedRoot); // whatever ends the run
            UNPACKED.put(unpackedRoot, fs);
        }
        Path into = new Path(unpackedRoot, TableExport.folderName(material));
        Map<Material, String> folders = new java.util.HashMap<>();
        for (Material m : TablePlan.of(material)) folders.put(m, folderOf(m).toString());
        long start = System.nanoTime();
        TableFiles files = UnpackedTable.unpack(JavaSparkContext.fromSparkContext(spark.sparkContext()), material, folders, into,
                spark.sparkContext().defaultParallelism());
        unpacked.put(material, into);
        say.accept(String.format("%s: its packed files made again from its compressed ones for this run, in %.2f s", material.name(), (System.nanoTime() - start) / 1e9));
        return files;
    }

    /** The runs' folders of packed files made again, with their file systems: a run stopped by a signal deletes them. */
    private static final Map<Path, FileSystem> UNPACKED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Deletes the folders of packed files made again of every run in this JVM: a run stopped by a signal leaves none. */
    public static void discardUnpacked() {
        UNPACKED.forEach((folder, fs) -> {
            try {
                fs.delete(folder, true);
            } catch (IOException | RuntimeException e) {
                // the file system is already closing: the set's next run clears it
            }
        });
    }

    /** Deletes the run's folder of packed files made again from compressed ones, if it made one. */
    public void deleteUnpacked() throws IOException {
        if (unpackedRoot == null) return;
        unpackedRoot.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(unpackedRoot, true);
        UNPACKED.remove(unpackedRoot);
    }

    /**
     * The run reads no more of a table's packed files: those made again for it are deleted, and unless {@code keep},
     * those of its folder too (its packed DTZ with them), where its compressed files are there to read (its manifest rewritten without them,
     * aside and then renamed over the old one, before they go). Returns the bytes deleted from the table's folder.
     */
    public long releasePacked(Material material, boolean keep) throws IOException {
        Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        Path made = unpacked.remove(material);
        if (made != null) {
            made.getFileSystem(hadoop).delete(made, true);
            return 0;
        }
        if (keep) return 0;
        Path folder = folderOf(material);
        FileSystem fs = folder.getFileSystem(hadoop);
        if (fs instanceof org.apache.hadoop.fs.LocalFileSystem local) fs = local.getRawFileSystem(); // no checksum side files
        Manifest manifest = manifest(material);
        List<Manifest.FileEntry> parts = manifest.packedFiles();
        if (parts == null || manifest.compressedFiles() == null) return 0; // none, or the table's only files
        Path aside = new Path(folder, "." + Manifest.FILE + ".lean"), file = new Path(folder, Manifest.FILE);
        try (java.io.OutputStream out = fs.create(aside, true)) {
            manifest.withoutPackedFiles().write(out);
        }
        replace(aside, file, hadoop);
        long bytes = 0;
        Manifest.DtzFigures dtz = manifest.dtz(); // its packed DTZ goes with them, where its compressed DTZ stays
        if (dtz != null && dtz.files() != null && dtz.compressedFiles() != null)
            parts = java.util.stream.Stream.concat(parts.stream(), dtz.files().stream()).toList();
        for (Manifest.FileEntry part : parts) {
            bytes += part.bytes();
            fs.delete(new Path(folder, part.name()), false);
        }
        return bytes;
    }

    /** Renames {@code from} over {@code to} in one step where the file system can (local disks, HDFS), else deletes {@code to} first. */
    private static void replace(Path from, Path to, Configuration hadoop) throws IOException {
        FileSystem fs = to.getFileSystem(hadoop);
        java.nio.file.Path local = TableFiles.localFolder(to, fs);
        if (local != null) {
            java.nio.file.Files.move(TableFiles.localFolder(from, fs), local, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        try {
            org.apache.hadoop.fs.FileContext.getFileContext(to.toUri(), hadoop).rename(from, to, org.apache.hadoop.fs.Options.Rename.OVERWRITE);
        } catch (org.apache.hadoop.fs.UnsupportedFileSystemException e) {
            fs.delete(to, false);
            if (!fs.rename(from, to)) throw new IOException("cannot rename " + from + " to " + to);
        }
    }

    private static TableFiles files(Material material, Path folder, List<Manifest.FileEntry> parts) {
        return new TableFiles(material, folder.toString(), parts.stream().map(Manifest.FileEntry::name).toList());
    }

    /** A table written: its files, the seconds until they were in place, and until its Parquet rows were (null without rows). */
    public record Wrote(TableFiles files, double seconds, Double rowsSeconds) {}

    /**
     * Writes a table just solved into its folder (aside, then renamed) and returns its files; {@code smaller} opens
     * the tables its captures reach; {@code dtz}, its DTZ to write too, or null.
     */
    public Wrote write(SolvedTable table, SmallerTables smaller, JavaRDD<SolvedPartition> dtz) throws IOException {
        long start = System.nanoTime(), startMillis = System.currentTimeMillis();
        TableExport.Written written;
        if (table.material().equals(asked)) {
            written = TableExport.write(spark, table, smaller, askedFolder, run, entriesPerFile, dtz);
            askedFolder.commit();
        } else {
            try (OutputFolder folder = OutputFolder.prepare(folderOf(table.material()).toString(), false, spark.sparkContext().hadoopConfiguration())) {
                written = TableExport.write(spark, table, smaller, folder, run, entriesPerFile, dtz);
                folder.commit();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Double rowsSeconds = run.parquet() ? Math.max(0, written.rowsDoneMillis() - startMillis) / 1e3 : null;
        if (run.parquet())
            say.accept(String.format("wrote %s to %s in %.2f s, its Parquet rows in %.2f s", table.material().name(), folderOf(table.material()),
                    seconds, rowsSeconds));
        else
            say.accept(String.format("wrote %s to %s in %.2f s (no Parquet rows: --no-parquet)", table.material().name(), folderOf(table.material()), seconds));
        return new Wrote(files(table.material(), folderOf(table.material()), written.manifest().packedFiles()), seconds, rowsSeconds);
    }
}
