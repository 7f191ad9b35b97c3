package io.github.tablebase.table;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import org.apache.spark.api.java.JavaRDD;

/**
 * A solved table as the engine hands it to the exports: its solved partitions, kept by the executors
 * (one result code per index and side to move, as {@link io.github.tablebase.probe.Result} spells it, the byte 255 for no
 * canonical legal position; plies a byte cannot hold in each partition's {@link io.github.tablebase.probe.LatePlies}), and the
 * figures the driver holds. The driver never holds the entries.
 */
public record SolvedTable(Material material, JavaRDD<SolvedPartition> partitions, TableFigures figures, SolveFigures solve) {
    public PositionIndex index() { return new PositionIndex(material); }

    /** Lets the executors drop the solved partitions, once the table is written. */
    public void release() { partitions.unpersist(false); }
}
