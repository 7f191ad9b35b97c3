package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.Optional;

/**
 * A position of a table with a given ply, found in its files (a set's longest wins, where no Parquet rows were made to
 * ask): for a side to move the table stores, the first canonical legal entry of that ply in index order; for the side
 * a compressed table leaves out, the first position found a non-capturing move before a stored entry of the ply
 * before (the move its best line starts with), or after one of the ply after (that entry's best move), the entries
 * taken in index order. The entries whose byte says their value is their captures' (marked) are searched only when no
 * other entry gives the ply, since each costs a search of its captures.
 */
final class PositionOfPly {
    private PositionOfPly() {}

    static Optional<Position> find(Tablebase tablebase, DtmTable table, Color side, int ply) {
        boolean stored = table.stores(side);
        Color read = stored ? side : side.opponent();
        Material material = table.material();
        PositionIndex index = table.index();
        MoveGenerator generator = new MoveGenerator(material);
        int[] squares = new int[material.size()];
        for (boolean marked : new boolean[] {false, true})
            for (long i = 0; i < index.size(); i++) {
                int code = code(table, i, read);
                boolean near = stored ? code == Result.code(ply) : ply >= 1 && code == Result.code(ply - 1) || code == Result.code(ply + 1);
                if (marked ? code != CompressedTable.BY_EXITS : !near) continue;
                // a don't-care byte may read as any code: the entry's position first
                if (!index.decode(i, squares) || !index.canonicalDecoded(i, squares) || generator.opponentInCheck(squares, read.ordinal())) continue;
                int entryPly = marked ? table.plyOfLegal(squares, read) : Result.ply(code);
                Position entry = new Position(material, squares, read);
                if (stored && entryPly == ply) return Optional.of(entry);
                if (stored) continue;
                if (ply >= 1 && entryPly == ply - 1)
                    for (Position before : entry.unmoves())
                        if (tablebase.ply(before) == ply) return Optional.of(index.canonical(before));
                if (entryPly == ply + 1)
                    for (Move m : entry.legalMoves()) {
                        Position after = entry.play(m);
                        if (after.material().equals(material) && after.enPassant() < 0 && tablebase.ply(after) == ply)
                            return Optional.of(index.canonical(after));
                    }
            }
        return Optional.empty();
    }

    /** The result code of the entry of index {@code i} with {@code side} to move, a side the table stores. */
    private static int code(DtmTable table, long i, Color side) {
        return table instanceof CompressedTable c ? c.result(i) : ((IndexedTable) table).result(2 * i + side.ordinal());
    }
}
