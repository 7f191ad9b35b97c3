package io.github.tablebase.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An output folder written aside and renamed into place: everything goes into a hidden staging folder
 * next to the final one, and only {@link #commit()} moves it to the final path. Closing without a commit
 * deletes the staging folder, so a failure never leaves anything at the final path.
 *
 * <p>Any Hadoop filesystem works (a local folder, {@code hdfs://}, ...), so a cluster's executors can
 * write the Parquet export where the driver writes the rest.
 */
public final class OutputFolder implements AutoCloseable {
    private final FileSystem fs;
    private final Path target;
    private final Path staging;
    private final boolean overwrite;
    private boolean committed;
    /** The folders prepared and not yet closed, for {@link #discardUncommitted}. */
    private static final java.util.Set<OutputFolder> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private OutputFolder(FileSystem fs, Path target, Path staging, boolean overwrite) {
        this.fs = fs;
        this.target = target;
        this.staging = staging;
        this.overwrite = overwrite;
    }

    /**
     * Checks the final path up front: an existing one is refused unless {@code overwrite}; the parent must be writable.
     * {@code hadoop}: the run's Hadoop settings (its {@code spark.hadoop.*} properties), which name file systems and
     * their credentials.
     */
    public static OutputFolder prepare(String target, boolean overwrite, Configuration hadoop) throws IOException {
        Path given = new Path(target);
        // an instance of our own: no checksum side files, and closing it leaves Spark's cached one alone
        FileSystem fs = FileSystem.newInstance(given.toUri(), hadoop);
        try {
            return prepare(fs, given, overwrite);
        } catch (IOException | RuntimeException e) {
            fs.close();
            throw e;
        }
    }

    private static OutputFolder prepare(FileSystem fs, Path given, boolean overwrite) throws IOException {
        fs.setWriteChecksum(false);
        Path out = fs.makeQualified(given);
        if (fs.exists(out) && !overwrite)
            throw new FileAlreadyExistsException(out + " already exists (pass --overwrite to replace it)");
        if (fs.exists(out) && !fs.getFileStatus(out).isDirectory())
            throw new IOException(out + " exists and is not a folder");
        Path parent = out.getParent();
        Path probe = new Path(parent, "." + out.getName() + ".probe-" + UUID.randomUUID());
        try {
            fs.mkdirs(parent);
            fs.create(probe, false).close();
            fs.delete(probe, false);
        } catch (IOException e) {
            throw new IOException("cannot create " + out + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
        // a run killed outright (kill -9, a lost machine) left its staging folder: the folder's next writer clears it
        for (org.apache.hadoop.fs.FileStatus stale : fs.listStatus(parent, p -> p.getName().startsWith("." + out.getName() + ".partial-")))
            fs.delete(stale.getPath(), true);
        OutputFolder folder = new OutputFolder(fs, out, new Path(parent, "." + out.getName() + ".partial-" + UUID.randomUUID()), overwrite);
        OPEN.add(folder);
        return folder;
    }

    /** Deletes the staging folder of every folder not committed: a run stopped by a signal leaves no partial folder. */
    public static void discardUncommitted() {
        for (OutputFolder folder : OPEN) {
            try {
                if (!folder.committed) folder.fs.delete(folder.staging, true);
            } catch (IOException | RuntimeException e) {
                // the file system is already closing: nothing more to do
            }
        }
    }

    /**
     * Where the outputs are written until the commit; made on first use, so a run killed before its outputs
     * (say, in the middle of the plies) leaves nothing behind.
     */
    public Path staging() throws IOException {
        if (!fs.exists(staging)) fs.mkdirs(staging);
        return staging;
    }

    /** A new file in the staging folder. */
    public OutputStream create(String name) throws IOException {
        return fs.create(new Path(staging(), name), false);
    }

    public Path target() { return target; }

    /** Moves the finished outputs to the final path (replacing what was there, when allowed). */
    public void commit() throws IOException {
        Path old = null;
        if (fs.exists(target)) {
            if (!overwrite) throw new FileAlreadyExistsException(target + " appeared while generating; not replaced");
            old = new Path(target.getParent(), "." + target.getName() + ".old-" + UUID.randomUUID());
            rename(target, old);
        }
        rename(staging, target);
        committed = true;
        if (old != null) fs.delete(old, true);
    }

    private void rename(Path from, Path to) throws IOException {
        if (!fs.rename(from, to)) throw new IOException("cannot rename " + from + " to " + to);
    }

    @Override public void close() throws IOException {
        OPEN.remove(this);
        try {
            if (!committed) fs.delete(staging, true);
        } finally {
            fs.close();
        }
    }
}
