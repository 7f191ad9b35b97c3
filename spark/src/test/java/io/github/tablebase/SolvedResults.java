package io.github.tablebase;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Result;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.SolvedTable;
import io.github.tablebase.table.TableFigures;
import io.github.tablebase.table.TableFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A small solved table's results gathered on the test's driver ({@code 2 * index + side}: result codes as {@link Result} spells
 * them, late plies read), which the engine never does: what the tests compare with brute
 * force, successors and each other.
 */
public record SolvedResults(Material material, int[] results, TableFigures figures) {
    /** Gathers a solved table's blocks; the table stays as it was (the caller releases it). */
    public static SolvedResults of(SolvedTable table) {
        List<SolvedPartition> blocks = table.partitions().collect();
        int[] results = new int[Math.toIntExact(2 * table.index().size())];
        for (SolvedPartition b : blocks)
            for (int k = 0; k < b.results().length; k++) results[Math.toIntExact(2 * b.lo() + k)] = b.late().result(2 * b.lo() + k, b.results()[k] & 0xFF);
        return new SolvedResults(table.material(), results, table.figures());
    }

    /** The results of a table generate wrote, as its packed files give them. */
    public static SolvedResults read(Path folder, Material material) throws IOException {
        IndexedTable table = io.github.tablebase.probe.IndexedTable.open(partFiles(folder, material));
        int[] results = new int[Math.toIntExact(2 * table.index().size())];
        for (int e = 0; e < results.length; e++) results[e] = table.result(e);
        return new SolvedResults(material, results, null);
    }

    private static List<Path> partFiles(Path folder, Material material) throws IOException {
        try (var files = Files.list(folder)) {
            String name = material.name().toLowerCase();
            return files.filter(f -> f.getFileName().toString().matches(name + "(\\.\\d{5})?\\.tbl")).sorted().toList();
        }
    }

    /** The index of each material, made once: the checks against successors look up millions of positions. */
    private static final java.util.concurrent.ConcurrentMap<Material, PositionIndex> INDEXES = new java.util.concurrent.ConcurrentHashMap<>();

    public PositionIndex index() { return INDEXES.computeIfAbsent(material, PositionIndex::new); }

    /** The ply of an entry: even the side to move is lost, odd it wins; -1 a draw, -2 no canonical legal position. */
    public int ply(long index, int side) {
        int r = results[(int) (2 * index + side)];
        return r == Result.NONE ? BruteForce.NO_POSITION : Result.ply(r);
    }

    /** Entries per side (0 White, 1 Black) and result, as {@link TableFigures#entries} counts them: the draws in slot 0, ply q in slot q + 1. */
    public long[][] plyCounts() {
        long[][] counts = new long[2][Math.max(Result.MAX_PLY + 2, Arrays.stream(results).max().orElse(0) + 1)];
        for (int k = 0; k < results.length; k++) if (results[k] != Result.NONE) counts[k & 1][results[k]]++;
        return counts;
    }

    /** The longest win of {@code side} to move, counted from the gathered results by the engine's own figures. */
    public int longestWin(Color side) {
        long[][] counts = plyCounts();
        return new TableFigures(counts, counts).longestWin(side);
    }

    /** Writes the results as a one-part packed file (no best moves) into {@code folder}: how a bigger table reads them. */
    public TableFiles writeTo(Path folder) throws IOException {
        Files.createDirectories(folder);
        PositionIndex index = index();
        String name = IndexedTable.partName(material, 0, 1);
        byte[] bytes = new byte[results.length], noMoves = new byte[results.length];
        for (int e = 0; e < bytes.length; e++) {
            if (results[e] > Result.MAX_PLY + 1) throw new IllegalArgumentException("a test table past " + Result.MAX_PLY + " plies");
            bytes[e] = (byte) results[e];
        }
        Arrays.fill(noMoves, (byte) IndexedTable.NO_MOVE);
        try (OutputStream out = Files.newOutputStream(folder.resolve(name))) {
            IndexedTable.writePart(index, 0, index.size(), bytes, noMoves, io.github.tablebase.probe.LatePlies.NONE, out);
        }
        return new TableFiles(material, folder.toUri().toString(), List.of(name));
    }
}
