package tablebase.table;

import org.apache.spark.api.java.JavaRDD;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;
import tablebase.probe.IndexedTable;

/**
 * A solved table as the engine hands it to the exports: its result blocks, kept by the executors, one per partition
 * (one result byte per index and side to move, coded as in the packed file: {@link #DRAW}, the byte 255 for {@link
 * #NONE} (no canonical legal position), or {@code ply + 1}, where {@code ply} is even when the side to move is lost
 * (mated after {@code ply / 2} moves of the opponent) and odd when it wins (mates in {@code (ply + 1) / 2}); plies a
 * byte cannot hold in the block's {@link tablebase.probe.LatePlies}), and the figures the driver holds. A result read
 * through those is an int: {@code NONE}, {@code DRAW} or {@code ply + 1}, any ply. The driver never holds the entries.
 */
public record SolvedTable(Material material, JavaRDD<ResultBlock> blocks, TableFigures figures, double seconds) {
    public static final int DRAW = IndexedTable.DRAW, NONE = IndexedTable.NONE;
    /** The deepest ply a result byte holds: later ones are listed beside the bytes. */
    public static final int MAX_PLY = 253;

    public PositionIndex index() { return new PositionIndex(material); }

    /** Lets the executors drop the blocks, once the table is written. */
    public void release() { blocks.unpersist(false); }
}
