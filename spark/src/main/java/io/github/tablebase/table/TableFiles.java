package io.github.tablebase.table;

import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.IndexedTable;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A written table's packed part files, on any Hadoop file system, as an executor opens them: where the executor can
 * reach them on its local disk they are mapped as they are, else each is copied once into the executor's temporary
 * folder and mapped there. This is how the smaller tables reach the executors that solve and write a table, and how
 * a table's own result planes reach those that find its best moves: no table passes through the driver.
 */
public record TableFiles(Material material, String folder, List<String> parts) implements Serializable {
    /** The files copied from file systems that are not a local disk, by their path, length and time. */
    private static final Map<String, java.nio.file.Path> COPIES = new ConcurrentHashMap<>();

    /** Maps the table's part files. */
    public IndexedTable open(Configuration hadoop) throws IOException {
        List<java.nio.file.Path> local = new ArrayList<>();
        for (String part : parts) local.add(local(new Path(folder, part), hadoop));
        return IndexedTable.open(local);
    }

    /** A path of {@code fs} as a path of this machine's disk, or null when {@code fs} is not the local disk. */
    public static java.nio.file.Path localFolder(Path path, FileSystem fs) {
        if (fs instanceof LocalFileSystem local) return local.pathToFile(path).toPath();
        if (fs instanceof RawLocalFileSystem raw) return raw.pathToFile(path).toPath();
        return null;
    }

    /** A file on any Hadoop file system as a path on this machine's disk. */
    public static java.nio.file.Path local(Path file, Configuration hadoop) throws IOException {
        FileSystem fs = file.getFileSystem(hadoop);
        java.nio.file.Path onDisk = localFolder(file, fs);
        if (onDisk != null) return onDisk;
        FileStatus status = fs.getFileStatus(file);
        String key = status.getPath() + "|" + status.getLen() + "|" + status.getModificationTime();
        java.nio.file.Path copy = COPIES.get(key);
        if (copy != null) return copy;
        synchronized (COPIES) {
            copy = COPIES.get(key);
            if (copy == null) {
                java.nio.file.Path dir = Files.createTempDirectory("tablebase-copies");
                dir.toFile().deleteOnExit(); // before its file's: deleted at exit in the reverse order, the file first
                copy = dir.resolve(file.getName());
                copy.toFile().deleteOnExit();
                fs.copyToLocalFile(false, file, new Path(copy.toUri()), true);
                COPIES.put(key, copy);
            }
            return copy;
        }
    }
}
