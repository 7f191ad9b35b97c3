package io.github.tablebase.output;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.LatePlies;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.table.TableFiles;
import io.github.tablebase.table.TablePlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * The packed files of a table whose folder keeps only its compressed ones, made again for a run that extends a set:
 * each task opens the compressed files of the table and of every table it reaches (on its own disk, copied there
 * when they are elsewhere) and writes the result bytes of its range of king pairs into a packed part file (no best
 * moves: a bigger table reads results alone). The files go to a folder of the run's, deleted once no table reads them.
 */
public final class UnpackedTable {
    private UnpackedTable() {}

    /** Local copies of the table folders a task reads, by their Hadoop path: one per executor JVM. */
    private static final Map<String, java.nio.file.Path> COPIES = new ConcurrentHashMap<>();

    /**
     * Writes {@code material}'s packed part files into {@code into} from the compressed files in {@code folders} (the
     * folder of each table of {@link TablePlan#of}, by material), in about {@code tasks} tasks, and returns them.
     */
    public static TableFiles unpack(JavaSparkContext jsc, Material material, Map<Material, String> folders, Path into, int tasks) throws IOException {
        PositionIndex index = new PositionIndex(material);
        int parts = (int) Math.max(tasks, (2 * index.size() + IndexedTable.ENTRIES_PER_FILE - 1) / IndexedTable.ENTRIES_PER_FILE);
        parts = (int) Math.min(parts, index.kingPairs());
        long[] starts = IndexedTable.kingPairStarts(index, parts);
        List<String> reached = new ArrayList<>();
        for (Material m : TablePlan.of(material)) reached.add(folders.get(m));
        Broadcast<SerializableWritable<Configuration>> hadoop = jsc.broadcast(new SerializableWritable<>(jsc.hadoopConfiguration()));
        String folder = into.toString();
        int n = parts;
        jsc.setJobDescription(material.name() + ": packed files from the compressed ones");
        try {
            List<String> names = jsc.parallelize(IntStream.range(0, n).boxed().toList(), n)
                    .map(p -> writePart(material, reached, starts[p], starts[p + 1], new Path(folder, IndexedTable.partName(material, p, n)), hadoop.value().value()))
                    .collect();
            return new TableFiles(material, folder, names);
        } finally {
            jsc.setJobDescription(null);
            hadoop.destroy(false);
        }
    }

    /** One task: the results of indexes {@code lo .. hi - 1}, read from the compressed tables, as a packed part file; its name. */
    private static String writePart(Material material, List<String> folders, long lo, long hi, Path file, Configuration hadoop) throws IOException {
        List<java.nio.file.Path> local = new ArrayList<>();
        for (String f : folders) local.add(local(new Path(f), hadoop));
        byte[] results;
        try (Tablebase tables = Tablebase.open(local, Tablebase.Check.HEADERS, 64L << 20)) {
            results = results(material, tables, lo, hi);
        }
        byte[] noMoves = new byte[results.length];
        java.util.Arrays.fill(noMoves, (byte) IndexedTable.NO_MOVE);
        PositionIndex index = new PositionIndex(material);
        TableExport.writeAside(file, hadoop, out -> IndexedTable.writePart(index, lo, hi, results, noMoves, LatePlies.NONE, out));
        return file.getName();
    }

    /**
     * The kernel: each entry's result code (see {@link Result}) as the engine gives it, from a probe of its
     * position: no canonical legal position where the engine has none, else a draw or the ply plus one.
     */
    static byte[] results(Material material, Tablebase tables, long lo, long hi) {
        PositionIndex index = new PositionIndex(material);
        MoveGenerator gen = new MoveGenerator(material);
        byte[] results = new byte[Math.toIntExact(2 * (hi - lo))];
        int[] squares = new int[material.size()];
        for (long i = lo; i < hi; i++) {
            boolean canonical = index.decode(i, squares) && index.index(squares) == i;
            for (int side = 0; side < 2; side++) {
                int e = (int) (2 * (i - lo)) + side;
                if (!canonical || gen.opponentInCheck(squares, side)) {
                    results[e] = (byte) Result.NONE;
                    continue;
                }
                int ply = tables.ply(new Position(material, squares.clone(), side == 0 ? Color.WHITE : Color.BLACK));
                if (ply + 1 > Result.MAX_PLY)
                    throw new IllegalStateException(material.name() + " has plies past " + Result.MAX_PLY + ": keep its packed files (--keep-packed) to extend its set");
                results[e] = (byte) (ply < 0 ? Result.DRAW : ply + 1);
            }
        }
        return results;
    }

    /**
     * A table folder on this machine's disk: itself on a local file system, else its manifest and the files it lists
     * copied once into a temporary folder of this JVM, beside the other tables copied (a manifest names its smaller
     * tables as sibling folders).
     */
    private static java.nio.file.Path local(Path folder, Configuration hadoop) throws IOException {
        FileSystem fs = folder.getFileSystem(hadoop);
        java.nio.file.Path onDisk = TableFiles.localFolder(folder, fs);
        if (onDisk != null) return onDisk;
        try {
            return COPIES.computeIfAbsent(folder.toString(), k -> {
                try {
                    java.nio.file.Path copy = copiesRoot().resolve(folder.getName());
                    Files.createDirectories(copy);
                    copy.toFile().deleteOnExit(); // before its files: deleted at exit in the reverse order, the files first
                    Manifest manifest = TableExport.readManifest(fs, new Path(folder, Manifest.FILE));
                    List<Manifest.FileEntry> files = manifest.compressedFiles() != null ? manifest.compressedFiles() : manifest.packedFiles();
                    for (Manifest.FileEntry f : files) {
                        String name = f.name();
                        fs.copyToLocalFile(false, new Path(folder, name), new Path(copy.resolve(name).toUri()), true);
                        copy.resolve(name).toFile().deleteOnExit();
                    }
                    fs.copyToLocalFile(false, new Path(folder, Manifest.FILE), new Path(copy.resolve(Manifest.FILE).toUri()), true);
                    copy.resolve(Manifest.FILE).toFile().deleteOnExit();
                    return copy;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static java.nio.file.Path root;

    private static synchronized java.nio.file.Path copiesRoot() throws IOException {
        if (root == null) {
            root = Files.createTempDirectory("tablebase-folders");
            root.toFile().deleteOnExit();
        }
        return root;
    }
}
