package tablebase.output;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * An output folder written aside and renamed into place: everything goes into a hidden staging folder
 * next to the final one, and only {@link #commit()} moves it to the final path. Closing without a commit
 * deletes the staging folder, so a failure never leaves anything at the final path.
 */
public final class OutputFolder implements AutoCloseable {
    private final Path target;
    private final Path staging;
    private final boolean overwrite;
    private boolean committed;

    private OutputFolder(Path target, Path staging, boolean overwrite) {
        this.target = target;
        this.staging = staging;
        this.overwrite = overwrite;
    }

    /** Checks the final path up front: an existing one is refused unless {@code overwrite}; the parent must be writable. */
    public static OutputFolder prepare(Path target, boolean overwrite) throws IOException {
        Path out = target.toAbsolutePath().normalize();
        if (Files.exists(out) && !overwrite)
            throw new FileAlreadyExistsException(out + " already exists (pass --overwrite to replace it)");
        if (Files.exists(out) && !Files.isDirectory(out))
            throw new IOException(out + " exists and is not a folder");
        Path parent = out.getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new IOException("cannot create " + parent + ": " + e.getMessage());
        }
        if (!Files.isWritable(parent)) throw new IOException(parent + " is not writable");
        Path staging = parent.resolve("." + out.getFileName() + ".partial-" + UUID.randomUUID());
        return new OutputFolder(out, staging, overwrite);
    }

    /**
     * Where the outputs are written until the commit; made on first use, so a run killed before its outputs
     * (say, in the middle of the half-moves) leaves nothing behind.
     */
    public Path staging() throws IOException {
        if (!Files.isDirectory(staging)) Files.createDirectory(staging);
        return staging;
    }

    public Path target() { return target; }

    /** Moves the finished outputs to the final path (replacing what was there, when allowed). */
    public void commit() throws IOException {
        Path old = null;
        if (Files.exists(target)) {
            if (!overwrite) throw new FileAlreadyExistsException(target + " appeared while generating; not replaced");
            old = target.resolveSibling("." + target.getFileName() + ".old-" + UUID.randomUUID());
            Files.move(target, old);
        }
        Files.move(staging, target);
        committed = true;
        if (old != null) deleteTree(old);
    }

    @Override public void close() {
        if (!committed) deleteTree(staging);
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
