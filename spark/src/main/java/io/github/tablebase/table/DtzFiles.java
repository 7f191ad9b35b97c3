package io.github.tablebase.table;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.DtzTable;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.Manifest;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A written table's DTZ ({@code material}'s) as an executor opens it: its packed file where its folder keeps it (mapped, as {@link
 * TableFiles} maps a table's results), else its compressed part files ({@code compressed}, White to move's
 * then Black's, in {@code folder}), their blocks decoded as lookups reach them and kept for the task.
 */
public record DtzFiles(Material material, TableFiles packed, String folder, List<String> compressed) implements Serializable {
    public EntryResults open(Configuration hadoop) throws IOException {
        if (packed != null) return packed.open(hadoop);
        long entries = 2 * new PositionIndex(material).size(); // the cache holds the whole table: a task reads it all
        List<java.nio.file.Path> files = new java.util.ArrayList<>();
        for (String name : compressed) files.add(TableFiles.local(new Path(folder, name), hadoop));
        return DtzTable.compressed(Manifest.DtzFigures.ofSide(files, Color.WHITE), Manifest.DtzFigures.ofSide(files, Color.BLACK), new BlockCache(entries));
    }
}
