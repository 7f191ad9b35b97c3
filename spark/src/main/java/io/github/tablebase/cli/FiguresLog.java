package io.github.tablebase.cli;

import io.github.tablebase.output.TableFolders;
import io.github.tablebase.probe.Json;
import io.github.tablebase.table.SolveFigures;
import io.github.tablebase.table.SolvedTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of each table a run makes, one JSON object a line as each is written ({@code jobs/generate --figures
 * FILE}): what benchmarks read, instead of the progress lines, which are worded for people.
 */
final class FiguresLog implements AutoCloseable {
    private final BufferedWriter out;

    private FiguresLog(BufferedWriter out) { this.out = out; }

    /** A log that writes nothing. */
    static FiguresLog none() { return new FiguresLog(null); }

    /** A log into {@code file}, made anew. */
    static FiguresLog to(Path file) throws IOException { return new FiguresLog(Files.newBufferedWriter(file, StandardCharsets.UTF_8)); }

    /** The line of a table solved and written. */
    static Map<String, Object> line(SolvedTable table, TableFolders.Wrote wrote) {
        SolveFigures s = table.solve();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endgame", table.material().name());
        m.put("entries", 2 * table.index().size());
        m.put("positions", s.positions());
        m.put("solve_seconds", s.seconds());
        m.put("write_seconds", wrote.seconds());
        m.put("rows_seconds", wrote.rowsSeconds());
        m.put("plies", s.plies());
        m.put("shuffled_bytes", s.shuffledBytes());
        m.put("largest_ply_shuffled_bytes", s.largestPlyShuffledBytes());
        m.put("peak_heap_bytes", s.peakHeapBytes());
        m.put("live_heap_bytes", s.liveHeapBytes());
        m.put("executors_peak_heap_bytes", new LinkedHashMap<>(s.executorsPeakHeapBytes()));
        return m;
    }

    synchronized void table(SolvedTable table, TableFolders.Wrote wrote) {
        if (out == null) return;
        try {
            out.write(Json.text(line(table, wrote)));
            out.newLine();
            out.flush(); // a run stopped later keeps the lines of the tables it wrote
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override public void close() throws IOException {
        if (out != null) out.close();
    }
}
