package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableInvariantException;

/**
 * The set-up kernel of a DTZ solve, in one task ({@link DtzSolve}) or over partitions ({@link DtzSlice}): what a
 * position's zeroing moves (captures, promotions, pawn moves) are worth under the rule, known before the plies start,
 * since each leads to a smaller table or to a higher pawn level of this one. One per thread: it keeps scratch space.
 */
final class ZeroingMoves {
    /** What a position's zeroing moves decide before the plies, by the best of them ({@link #kind}). */
    static final int NONE = 0, WIN_AT_ONE = 1, WIN_PAST_RULE = 2, CANNOT_LOSE = 3, LOSE_AT_ONE = 4, LOSE_PAST_RULE = 5;

    private final PositionIndex index;
    private final MoveGenerator gen;
    private final Successors exits;
    private final int rule;
    private final boolean[] pawn;
    private final int[] moves = new int[256], enPassant = new int[2], scratch = new int[256];
    private int legal, quiet;

    ZeroingMoves(PositionIndex index, MoveGenerator gen, Successors exits, int rule) {
        this.index = index;
        this.gen = gen;
        this.exits = exits;
        this.rule = rule;
        pawn = pawns(index.material());
    }

    /** Whether each piece of {@code material} is a pawn: its moves are zeroing, its un-moves none of a ply's. */
    static boolean[] pawns(Material material) {
        boolean[] pawn = new boolean[material.size()];
        for (int k = 0; k < pawn.length; k++) pawn[k] = material.piece(k).type() == PieceType.PAWN;
        return pawn;
    }

    /** A copy with scratch space of its own, for another thread. */
    ZeroingMoves withOwnScratch() { return new ZeroingMoves(index, gen, exits.withOwnScratch(), rule); }

    /**
     * The best code of {@code side}'s zeroing moves on {@code squares} ({@link Dtz#NONE} when it has none); {@code own}
     * gives this table's codes by entry, those of a higher pawn level already final. Counts the legal moves ({@link
     * #legal}) and the piece moves that stay in the table ({@link #quiet}) as it goes.
     */
    int best(int[] squares, int side, EntryResults own) {
        legal = gen.legalMoves(squares, side, moves);
        quiet = 0;
        int best = Dtz.NONE;
        long occupied = MoveGenerator.occupied(squares);
        for (int k = 0; k < legal; k++) {
            if (!zeroing(occupied, moves[k])) {
                quiet++;
                continue;
            }
            best = Dtz.better(best, Dtz.byMove(zeroedInto(moves[k], squares, side, own), true, rule));
        }
        return best;
    }

    /** The legal moves of the last {@link #best}'s position. */
    int legal() { return legal; }

    /** Its moves that are neither zeroing nor leave the table: the ones the plies follow. */
    int quiet() { return quiet; }

    /** What the best zeroing move's code {@code best} decides before the plies: one of {@link #NONE} .. {@link #LOSE_PAST_RULE}. */
    static int kind(int best) {
        if (best == Dtz.NONE) return NONE;
        if (Dtz.wins(best)) return Dtz.plies(best) == 1 ? WIN_AT_ONE : WIN_PAST_RULE;
        if (!Dtz.loses(best)) return CANNOT_LOSE;
        return Dtz.plies(best) == 1 ? LOSE_AT_ONE : LOSE_PAST_RULE;
    }

    /** Whether {@code move} is a capture, a promotion or a pawn move. */
    boolean zeroing(long occupied, int move) { return !MoveGenerator.staysInTable(occupied, move) || pawn[MoveGenerator.piece(move)]; }

    /** Whether piece {@code k} is a pawn: its moves are zeroing, its un-moves none of a ply's. */
    boolean pawn(int k) { return pawn[k]; }

    /** The pawns' advance from their first squares: every pawn move raises it. */
    int level(int[] squares) {
        int level = 0;
        for (int k = 0; k < squares.length; k++) {
            if (!pawn[k]) continue;
            int rank = Square.rank(squares[k]);
            level += gen.side(k) == 0 ? rank - 1 : 6 - rank;
        }
        return level;
    }

    /** The code of the position a zeroing move of {@code side} leads to, the opponent to move there. */
    private int zeroedInto(int move, int[] squares, int side, EntryResults own) {
        if (!MoveGenerator.staysInTable(squares, move)) return exits.exitResult(squares, move, 1 - side);
        int piece = MoveGenerator.piece(move), from = squares[piece];
        squares[piece] = MoveGenerator.to(move);
        int after = own.result(2 * index.index(squares) + 1 - side);
        if (after < 0) throw new TableInvariantException(index.material().name() + ": a pawn move reaches an entry not yet solved");
        if (gen.isDoublePush(move)) after = withEnPassant(squares, 1 - side, piece, after);
        squares[piece] = from;
        return after;
    }

    /** The code after a double push of {@code pushed}, {@code side} to move there: its entry's, or better, an en-passant capture's. */
    private int withEnPassant(int[] squares, int side, int pushed, int entry) {
        int n = gen.enPassantCaptures(squares, side, pushed, enPassant);
        if (n == 0) return entry;
        int best = gen.legalMoves(squares, side, scratch) > 0 ? entry : Dtz.NONE;
        for (int k = 0; k < n; k++) best = Dtz.better(best, Dtz.byMove(exits.exitResult(squares, enPassant[k], 1 - side), true, rule));
        return best;
    }
}
