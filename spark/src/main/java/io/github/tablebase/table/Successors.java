package io.github.tablebase.table;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MaterialChange;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.ResultPlane;
import java.util.Map;

/**
 * What each move of a position leads to: the result code (see {@link Result}) of the position after it, in
 * this table for a quiet move, in a smaller table for a capture or a promotion (bare kings: a draw). After a pawn's
 * double push that the opponent may take en passant, the position is worth the better of the table's entry (the
 * same position without that right) and the captures. One per thread: it keeps scratch space.
 */
public final class Successors {
    private final PositionIndex index;
    private final MoveGenerator gen;
    private final ResultPlane own;
    private final int pieces;
    /** By {@link #exit}: where a capture or promotion leads, that table's index and results; null results for bare kings. */
    private final MaterialChange[] changes;
    private final PositionIndex[] exitIndexes;
    private final EntryResults[] exitTables;
    /** By {@link #exit}: whether the material reached is read from its colours-swapped table (KKR from KRK). */
    private final boolean[] swapsColours;
    private final int[] smallerSquares, sameSquares, twinSquares, enPassant = new int[2], scratch = new int[256];
    private final Map<Material, ? extends EntryResults> smaller;

    /** {@code own} (its results) may be null when only exits are asked; {@code smaller} maps each material an exit reaches to its table. */
    public Successors(Material material, ResultPlane own, Map<Material, ? extends EntryResults> smaller) {
        index = new PositionIndex(material);
        gen = new MoveGenerator(material);
        this.own = own;
        pieces = material.size();
        int codes = (pieces + 1) * (pieces + 1) * (PieceType.PROMOTIONS.length + 1);
        changes = new MaterialChange[codes];
        exitIndexes = new PositionIndex[codes];
        exitTables = new EntryResults[codes];
        swapsColours = new boolean[codes];
        for (MaterialChange.Exit e : MaterialChange.exits(material)) {
            int code = exit(e.captured(), e.promoted(), PieceType.promotionCode(e.promotion()));
            changes[code] = e.change();
            Material after = e.change().after();
            if (after.size() == 2) continue;
            exitTables[code] = smaller.get(after.tableMaterial());
            if (exitTables[code] == null) throw new IllegalArgumentException(material.name() + " needs the " + after.tableMaterial().name() + " table");
            swapsColours[code] = !after.isTableMaterial();
            exitIndexes[code] = new PositionIndex(after.tableMaterial());
        }
        smallerSquares = new int[pieces - 1];
        sameSquares = new int[pieces];
        twinSquares = new int[pieces];
        this.smaller = smaller;
    }

    /** The same lookups with scratch space of their own, for another thread (the tables are read, never changed). */
    public Successors withOwnScratch() { return new Successors(index.material(), own, smaller); }

    /** The table's own results, as given. */
    public ResultPlane ownResults() { return own; }

    private int exit(int captured, int promoted, int promotion) {
        return ((captured + 1) * (pieces + 1) + promoted + 1) * (PieceType.PROMOTIONS.length + 1) + promotion;
    }

    /** The result, for {@code side} to move there, of the position after {@code move} (a {@link MoveGenerator} code). */
    public int resultAfter(int[] squares, int move, int side) {
        int mover = MoveGenerator.piece(move), from = squares[mover], to = MoveGenerator.to(move);
        if (MoveGenerator.staysInTable(squares, move)) {
            squares[mover] = to;
            int r = own.result(2 * index.index(squares) + side);
            if (gen.isDoublePush(move)) r = withEnPassant(squares, side, mover, r);
            squares[mover] = from;
            return r;
        }
        return exitResult(squares, move, side);
    }

    /** The result after a capture or a promotion, for {@code side} to move there. */
    public int exitResult(int[] squares, int move, int side) {
        int mover = MoveGenerator.piece(move), from = squares[mover], captured = MoveGenerator.captured(squares, move);
        int promotion = MoveGenerator.promotionCode(move);
        int code = exit(captured, promotion == 0 ? -1 : mover, promotion);
        if (exitTables[code] == null) return Result.DRAW;
        int[] after = changes[code].after().size() == pieces ? sameSquares : smallerSquares;
        squares[mover] = MoveGenerator.to(move);
        changes[code].squares(squares, after);
        squares[mover] = from;
        if (swapsColours[code]) { // the same position seen from the other side, which is then to move
            Position.coloursSwapped(changes[code].after(), after, twinSquares);
            after = twinSquares;
            side = 1 - side;
        }
        long i = exitIndexes[code].index(after);
        int r = exitTables[code].result(2 * i + side);
        if (r == Result.NONE)
            throw new TableInvariantException("the " + changes[code].after().name() + " table has no entry " + i + " for a legal position");
        return r;
    }

    /**
     * The result of the position on {@code squares} just after pawn {@code pushed} moved two squares, {@code side}
     * to move, whose entry without the en-passant right is {@code entry}: the captures' results folded in, if any.
     */
    private int withEnPassant(int[] squares, int side, int pushed, int entry) {
        int n = gen.enPassantCaptures(squares, side, pushed, enPassant);
        if (n == 0) return entry;
        Result.Fold fold = new Result.Fold();
        for (int k = 0; k < n; k++) fold.add(exitResult(squares, enPassant[k], 1 - side));
        if (gen.legalMoves(squares, side, scratch) > 0) fold.addBest(entry);
        return fold.result();
    }

    /** The legal moves of {@code side} on {@code squares}, as {@link MoveGenerator#sortedLegalMoves} ranks them, into {@code moves}; their count. */
    public int sortedLegalMoves(int[] squares, int side, int[] moves) { return gen.sortedLegalMoves(squares, side, moves); }

    /**
     * The rank among a position's {@code n} legal {@code moves}, sorted as {@link #sortedLegalMoves} sorts them, of its
     * best move, its result being {@code result} (a win or a loss, not checkmate). The winner's first move into a
     * position lost one ply earlier (a fastest mate); the loser's first move into a position won one ply earlier (the
     * longest defence).
     */
    public int bestMoveRank(int[] squares, int side, int result, int[] moves, int n) {
        for (int k = 0; k < n; k++) if (resultAfter(squares, moves[k], 1 - side) == result - 1) return k;
        throw new TableInvariantException("no move of " + index.material().name() + " entry " + index.index(squares)
                + " side " + side + " leads to the ply before its result " + result);
    }
}
