package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.List;

/**
 * One endgame's table as {@link Tablebase} reads it: the packed {@link IndexedTable} (both sides to move, best moves
 * stored) or the {@link CompressedTable} (one side to move, no moves; the rest is found by one ply of search).
 */
interface DtmTable {
    Material material();

    PositionIndex index();

    /** Whether positions with {@code side} to move are stored; the others are answered from their moves. */
    boolean stores(Color side);

    /** Where a stored position's value is: its legality and index, computed apart from the read, for batches. */
    long entry(Position p);

    /** The ply of {@code p} (see {@link IndexedTable}), -1 for a draw, read at {@code entry}, its {@link #entry}. */
    int plyAt(long entry, Position p);

    default int ply(Position p) { return plyAt(entry(p), p); }

    /**
     * The ply of the legal position of {@code squares} (its pieces in material order, identical ones in any order),
     * {@code side} to move, without an en-passant right: a position a legal move leads to, so looked up unchecked.
     * {@code squares} may be changed while it runs and is restored.
     */
    default int plyOfLegal(int[] squares, Color side) { return ply(new Position(material(), squares, side)); }

    /** The stored best move of {@code p}, one of its {@code legal} moves, or null when none is stored. */
    Move move(Position p, List<Move> legal);

    /** Releases what the table holds open; lookups after it fail. */
    void close();
}
