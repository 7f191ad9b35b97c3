package io.github.tablebase.cli;

import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.Manifest;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code jobs/list}: the tables of a folder, from their manifests: the material each also answers with the colours
 * swapped, entries, size on disk and of the compressed files, longest wins, the first compressed file's SHA-256.
 */
public final class ListTables {
    static final String USAGE = "usage: list --tables DIR\n"
            + "example: jobs/list --tables out";

    private ListTables() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("list", USAGE, () -> list(argv)));
    }

    static int list(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--tables"), Set.of());
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        Path root = Path.of(args.required("--tables"));
        if (!Files.isDirectory(root)) throw new NoSuchFileException(root + ": no such folder");
        List<Path> folders = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root, f -> Files.isRegularFile(f.resolve(Manifest.FILE)))) {
            children.forEach(folders::add);
        }
        if (folders.isEmpty()) throw new NoSuchFileException(root + " holds no table folder (make them with jobs/generate --up-to 4 --out " + root + ")");
        List<Object[]> rows = new ArrayList<>();
        for (Path folder : folders) {
            Manifest m = Manifest.read(folder.resolve(Manifest.FILE));
            Material material = m.material();
            List<Manifest.FileEntry> parts = m.compressedFiles();
            if (parts == null) parts = m.packedFiles(); // a table made before the compressed files
            String sha = parts == null ? "(no files)" : parts.get(0).sha256().substring(0, 16)
                    + (parts.size() > 1 ? " (+" + (parts.size() - 1) + " parts)" : "");
            rows.add(new Object[] {material, m.entries(), bytes(folder), Manifest.bytes(m.compressedFiles()), longestWin(m, 0), longestWin(m, 1), sha,
                    folder.getFileName()});
        }
        rows.sort(java.util.Comparator.comparingInt((Object[] r) -> ((Material) r[0]).size()).thenComparing(r -> ((Material) r[0]).name()));
        System.out.printf("%-7s %-7s %15s %10s %11s %12s %12s  %-16s  %s%n", "table", "swapped", "entries", "on disk", "compressed", "White wins", "Black wins",
                "SHA-256", "folder");
        long total = 0, compressed = 0;
        Set<Material> answered = new java.util.HashSet<>();
        for (Object[] r : rows) answered.add((Material) r[0]);
        for (Object[] r : rows) {
            // the material this table also answers with the colours swapped, unless it is its own twin or has a table of its own
            Material twin = ((Material) r[0]).coloursSwapped();
            String swapped = twin == r[0] || answered.contains(twin) ? "-" : twin.name();
            System.out.printf("%-7s %-7s %,15d %10s %11s %12s %12s  %-16s  %s%n", r[0], swapped, r[1], size((Long) r[2]), size((Long) r[3]), r[4], r[5], r[6],
                    r[7]);
            total += (Long) r[2];
            compressed += (Long) r[3];
        }
        long materials = rows.stream().map(r -> (Material) r[0]).flatMap(m -> Stream.of(m, m.coloursSwapped())).distinct().count();
        System.out.printf("%d tables answering %d materials, %s on disk, %s of it compressed tables (longest wins in moves, the side to move winning)%n",
                rows.size(), materials, size(total), size(compressed));
        return 0;
    }

    /** "in 35", "-" when the side never wins, "?" when the manifest does not say. */
    static String longestWin(Manifest manifest, int side) {
        int win = manifest.longestWin(side);
        return win < 0 ? "?" : win == 0 ? "-" : "in " + win;
    }

    private static long bytes(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    static String size(long bytes) {
        if (bytes < 1 << 10) return bytes + " B";
        if (bytes < 1 << 20) return String.format("%.0f KB", bytes / 1024.0);
        if (bytes < 1L << 30) return String.format("%.1f MB", bytes / (double) (1 << 20));
        return String.format("%.2f GB", bytes / (double) (1L << 30));
    }
}
