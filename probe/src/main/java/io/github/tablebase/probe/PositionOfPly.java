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
 * ask). For a side to move the table stores: the first canonical legal entry of that ply in index order (of those that
 * hold their ply, when any does: see below). For the side
 * a compressed table leaves out, a position whose best move reaches a stored entry of the ply before (found among that
 * entry's un-moves) or that an entry of the ply after reaches (its best move); failing those, the first in index order
 * whose best move is a capture or promotion (or, ply 0, that is checkmated), which takes a pass over the side's
 * positions. Entries whose byte says their value is their captures' (marked) are searched last, when the others gave
 * nothing, since each costs a search of its captures. Every position of the ply is so reachable: none is missed.
 * KRPKQ's longest wins (its 355 million Black entries stored): Black's in 15 s (the first pass, mostly decoding the
 * blocks), White's, a promotion, in 27 to 35 s (the second); the marked entries' pass alone takes about 100 s.
 */
final class PositionOfPly {
    private PositionOfPly() {}

    static Optional<Position> find(Tablebase tablebase, DtmTable table, Color side, int ply) {
        if (ply < 0) return Optional.empty();
        boolean stored = table.stores(side);
        Color read = stored ? side : side.opponent();
        Optional<Position> found = fromEntries(tablebase, table, side, ply, read, false);
        if (found.isEmpty() && !stored) found = leavingTable(tablebase, table, side, ply);
        return found.isPresent() ? found : fromEntries(tablebase, table, side, ply, read, true);
    }

    /**
     * Through the stored side's entries in index order, marked or not: one of the ply ({@code side} stored), or a
     * position of {@code side} a move before one of the ply before or after one of the ply after.
     */
    private static Optional<Position> fromEntries(Tablebase tablebase, DtmTable table, Color side, int ply, Color read, boolean marked) {
        boolean stored = read == side;
        Material material = table.material();
        PositionIndex index = table.index();
        MoveGenerator generator = new MoveGenerator(material);
        int[] squares = new int[material.size()];
        for (long i = 0; i < index.size(); i++) {
            int code = code(table, i, read);
            boolean near = stored ? code == Result.code(ply) : ply >= 1 && code == Result.code(ply - 1) || code == Result.code(ply + 1);
            if (marked ? code != CompressedTable.BY_EXITS : !near) continue;
            // a don't-care byte may read as any code: the entry's position first
            if (!index.decode(i, squares) || !index.canonicalDecoded(i, squares) || generator.opponentInCheck(squares, read.ordinal())) continue;
            int entryPly = marked ? table.plyOfLegal(squares, read) : Result.ply(code);
            Position entry = new Position(material, squares, read);
            if (stored) {
                if (entryPly == ply) return Optional.of(entry);
                continue;
            }
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

    /** The first position of {@code side} in index order with a capture or promotion to the ply before and of the ply, or, ply 0, checkmated. */
    static Optional<Position> leavingTable(Tablebase tablebase, DtmTable table, Color side, int ply) {
        Material material = table.material();
        PositionIndex index = table.index();
        MoveGenerator generator = new MoveGenerator(material);
        int[] squares = new int[material.size()], exits = new int[generator.mostMoves(side.ordinal())];
        for (long i = 0; i < index.size(); i++) {
            if (!(i == 0 ? index.decode(i, squares) : index.decodeNext(i, squares)) || !index.canonicalDecoded(i, squares)
                    || generator.opponentInCheck(squares, side.ordinal()))
                continue;
            if (ply > 0 && generator.legalExits(squares, side.ordinal(), exits) == 0) continue;
            Position p = new Position(material, squares, side);
            if (ply == 0) {
                if (p.inCheck() && p.legalMoves().isEmpty()) return Optional.of(p);
                continue;
            }
            for (Move m : p.legalMoves())
                if ((m.isCapture() || m.promotion() != null) && tablebase.ply(p.play(m)) == ply - 1 && tablebase.ply(p) == ply) return Optional.of(p);
        }
        return Optional.empty();
    }

    /** The result code of the entry of index {@code i} with {@code side} to move, a side the table stores. */
    private static int code(DtmTable table, long i, Color side) {
        return table instanceof CompressedTable c ? c.result(i) : ((IndexedTable) table).result(2 * i + side.ordinal());
    }
}
