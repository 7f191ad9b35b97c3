package tablebase.table;

import org.apache.spark.api.java.JavaRDD;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;

/**
 * A solved table as the engine hands it to the exports: its result blocks, kept by the executors, one per partition
 * (one result code per index and side to move, as {@link tablebase.probe.Result} spells it, the byte 255 for no
 * canonical legal position; plies a byte cannot hold in the block's {@link tablebase.probe.LatePlies}), and the
 * figures the driver holds. The driver never holds the entries.
 */
public record SolvedTable(Material material, JavaRDD<ResultBlock> blocks, TableFigures figures, SolveFigures solve) {
    public PositionIndex index() { return new PositionIndex(material); }

    /** Lets the executors drop the blocks, once the table is written. */
    public void release() { blocks.unpersist(false); }
}
