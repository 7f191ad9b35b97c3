package tablebase.table;

import org.apache.spark.api.java.JavaRDD;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;
import tablebase.probe.IndexedTable;

/**
 * A solved table as the engine hands it to the exports: its result blocks, kept by the executors, one per partition
 * (one result byte per index and side to move, coded as in the packed file: {@link #DRAW}, {@link #NONE} (no
 * canonical legal position), or {@code ply + 1}, where {@code ply} is even when the side to move is lost (mated
 * after {@code ply / 2} moves of the opponent) and odd when it wins (mates in {@code (ply + 1) / 2})), and the
 * figures the driver holds. The driver never holds the entries.
 */
public record SolvedTable(Material material, JavaRDD<ResultBlock> blocks, TableFigures figures, double seconds) {
    public static final int DRAW = IndexedTable.DRAW, NONE = IndexedTable.NONE;
    /** The deepest ply a result byte holds. */
    public static final int MAX_PLY = 253;

    public PositionIndex index() { return new PositionIndex(material); }

    /** Lets the executors drop the blocks, once the table is written. */
    public void release() { blocks.unpersist(false); }
}
