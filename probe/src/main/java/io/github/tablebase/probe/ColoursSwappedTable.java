package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.List;

/**
 * A material answered from the table of its colours swapped (KRKQ from KQKR): each position is looked up as seen
 * from the other side ({@link Position#coloursSwapped}), whose value for the side to move is the same. A set then
 * needs one table a material, as other DTM sets ship. No move is stored here: the best move is the first, in this
 * material's own order of moves, that reaches the ply before, the one a table of this material would store.
 */
final class ColoursSwappedTable implements DtmTable {
    private final Material material;
    private final PositionIndex index;
    private final DtmTable swapped;

    ColoursSwappedTable(DtmTable swapped) {
        this.swapped = swapped;
        this.material = swapped.material().coloursSwapped();
        this.index = new PositionIndex(material);
    }

    @Override public Material material() { return material; }

    @Override public PositionIndex index() { return index; }

    /** Either side: the side the other table does not store is searched there. */
    @Override public boolean stores(Color side) { return true; }

    /** The other table's entry where it stores the side, else -1: {@link #plyAt} then searches. */
    @Override public long entry(Position p) {
        String illegal = p.illegalReason(); // named with this position's squares, not the other side's view
        if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
        Position seen = p.coloursSwapped();
        return swapped.stores(seen.sideToMove()) ? swapped.entry(seen) : -1;
    }

    @Override public int plyAt(long entry, Position p) {
        if (entry >= 0) return swapped.plyAt(entry, p.coloursSwapped());
        return ((CompressedTable) swapped).plyBySearch(p.coloursSwapped()); // only a compressed table leaves a side out
    }

    @Override public int plyOfLegal(int[] squares, Color side) {
        return swapped.plyOfLegal(Position.coloursSwapped(material, squares), side.opponent());
    }

    @Override public Move move(Position p, List<Move> legal) { return null; }

    /** The other table is closed as itself. */
    @Override public void close() {}
}
