package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableInvariantException;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The DTZ of a whole table, in one task: a retrograde analysis in plies to the next zeroing move or mate (see {@link
 * Dtz}), where every capture, promotion and pawn move is an exit whose worth is known before the plies start.
 *
 * <p>Pawn moves stay in the table, so the table is solved by <em>pawn level</em>, the pawns' advance from their
 * first squares, highest first: the moves that keep the level are the pieces', which the plies follow; a pawn move
 * raises it, into positions already solved. A pawnless table is one level.
 *
 * <p>Each ply decides both sides' positions, as DTZ has both parities for both (a loss in one ply: every move zeroes
 * into the opponent's win). Ply {@code d}: the earlier positions of the losses of ply {@code d - 1} win; those of its
 * wins lose if each of their moves is now known to lose, which is checked move by move (Syzygy's way: no counters,
 * and no weights for symmetric positions); the exits' wins and losses come in at ply 1 or {@code rule + 1}.
 * What is undecided when a level's plies end is a draw.
 *
 * <p>It holds a {@code short} an entry and a byte an index for the levels (a first step: the lean engine's one byte
 * an entry is for later). Codes past a short (wins of 16,384 plies) are refused.
 */
public final class DtzSolve {
    /** Undecided entries, by what their exits do: none, all lose in 1 ply, all lose past the rule, some draw or win. */
    private static final short UNDECIDED = -2, EXITS_LOSE_AT_ONE = -3, EXITS_LOSE_PAST_RULE = -4, CANNOT_LOSE = -5;

    private final PositionIndex index;
    private final MoveGenerator gen;
    private final Successors exits;
    private final int rule;
    private final short[] codes;
    private final byte[] levels;
    private final int[] squares, moves = new int[256], unmoves = new int[256], enPassant = new int[2], scratch = new int[256];
    private final boolean[] pawn;

    private DtzSolve(PositionIndex index, MoveGenerator gen, Successors exits, int rule) {
        long entries = 2 * index.size();
        if (entries > Integer.MAX_VALUE - 8) throw new IllegalArgumentException(index.material().name() + " is too large to solve in one task");
        this.index = index;
        this.gen = gen;
        this.exits = exits;
        this.rule = rule;
        codes = new short[(int) entries];
        int pieces = index.material().size();
        squares = new int[pieces];
        pawn = new boolean[pieces];
        for (int k = 0; k < pieces; k++) pawn[k] = index.material().piece(k).type() == PieceType.PAWN;
        levels = index.material().hasPawns() ? new byte[(int) index.size()] : null;
    }

    /**
     * The DTZ codes of every entry {@code 2 * index + side} of {@code index}'s table under a rule of {@code rule}
     * plies; {@code exits} reads the smaller tables' DTZ codes (its own results are not used).
     */
    public static short[] solve(PositionIndex index, MoveGenerator gen, Successors exits, int rule) {
        DtzSolve s = new DtzSolve(index, gen, exits, rule);
        int top = s.markLegal();
        for (int level = top; level >= 0; level--) s.solveLevel(level);
        return s.codes;
    }

    /**
     * The DTZ of {@code material} under the game's rule as an RDD of one partition, its codes by entry, solved by the
     * task that reads it (the export's, which writes them): a task run again solves it again, the same way.
     */
    public static JavaRDD<short[]> plane(JavaSparkContext jsc, Material material, SmallerTables smaller) {
        return jsc.parallelize(List.of(0), 1).map(x -> solve(new PositionIndex(material), new MoveGenerator(material),
                new Successors(material, null, smaller.openDtz()), Dtz.RULE_PLIES));
    }

    /** Marks each entry legal (undecided) or not, and each index's pawn level; returns the highest level. */
    private int markLegal() {
        int top = 0;
        for (long i = 0; i < index.size(); i++) {
            boolean canonical = index.decode(i, squares) && index.index(squares) == i;
            for (int side = 0; side < 2; side++)
                codes[(int) (2 * i + side)] = canonical && !gen.opponentInCheck(squares, side) ? UNDECIDED : Dtz.NONE;
            if (levels != null && canonical) top = Math.max(top, levels[(int) i] = (byte) level(squares));
        }
        return top;
    }

    /** The pawns' advance from their first squares: every pawn move raises it. */
    private int level(int[] squares) {
        int level = 0;
        for (int k = 0; k < squares.length; k++) {
            if (!pawn[k]) continue;
            int rank = Square.rank(squares[k]);
            level += gen.side(k) == 0 ? rank - 1 : 6 - rank;
        }
        return level;
    }

    private boolean atLevel(long i, int level) { return levels == null || levels[(int) i] == level; }

    /** Sets up, then plies, one pawn level; what is left undecided is drawn. */
    private void solveLevel(int level) {
        Ints frontier = new Ints(), winsAtOne = new Ints(), winsPastRule = new Ints(), lossesAtOne = new Ints(), lossesPastRule = new Ints();
        for (long i = 0; i < index.size(); i++) {
            if (!atLevel(i, level) || codes[(int) (2 * i)] == Dtz.NONE && codes[(int) (2 * i + 1)] == Dtz.NONE) continue;
            index.decode(i, squares);
            for (int side = 0; side < 2; side++) {
                int e = (int) (2 * i + side);
                if (codes[e] == Dtz.NONE) continue;
                int best = setUp(e, side, frontier);
                if (Dtz.wins(best)) (Dtz.plies(best) == 1 ? winsAtOne : winsPastRule).add(e);
                else if (Dtz.loses(best)) (Dtz.plies(best) == 1 ? lossesAtOne : lossesPastRule).add(e);
            }
        }
        for (int d = 1; frontier.size > 0 || d <= rule + 1; d++) {
            Ints next = new Ints();
            for (int f = 0; f < frontier.size; f++) if (Dtz.loses(codes[frontier.at[f]])) winEarlier(frontier.at[f], d, next);
            Ints wins = d == 1 ? winsAtOne : d == rule + 1 ? winsPastRule : null;
            if (wins != null) for (int k = 0; k < wins.size; k++) decide(wins.at[k], Dtz.win(d), next);
            for (int f = 0; f < frontier.size; f++) if (Dtz.wins(codes[frontier.at[f]])) loseEarlier(frontier.at[f], d, next);
            Ints losses = d == 1 ? lossesAtOne : d == rule + 1 ? lossesPastRule : null;
            if (losses != null) for (int k = 0; k < losses.size; k++) if (lostAt(losses.at[k], d)) decide(losses.at[k], Dtz.loss(d), next);
            frontier = next;
        }
        for (long i = 0; i < index.size(); i++)
            if (atLevel(i, level))
                for (int side = 0; side < 2; side++) if (codes[(int) (2 * i + side)] < Dtz.NONE) codes[(int) (2 * i + side)] = Dtz.DRAW;
    }

    /**
     * The set-up kernel of entry {@code e} ({@code squares} decoded): mate and stalemate decided at once, else what
     * its zeroing moves are worth; returns the best of them ({@link Dtz#DRAW} when none).
     */
    int setUp(int e, int side, Ints frontier) {
        int count = gen.legalMoves(squares, side, moves), best = Dtz.NONE;
        if (count == 0) {
            codes[e] = (short) (gen.inCheck(squares, side) ? Dtz.loss(0) : Dtz.DRAW);
            if (codes[e] != Dtz.DRAW) frontier.add(e);
            return Dtz.DRAW;
        }
        long occupied = MoveGenerator.occupied(squares);
        for (int k = 0; k < count; k++) {
            if (!zeroing(occupied, moves[k])) continue;
            int worth = Dtz.byMove(zeroedInto(moves[k], side), true, rule);
            best = Dtz.better(best, worth);
        }
        codes[e] = best == Dtz.NONE ? UNDECIDED : !Dtz.loses(best) ? CANNOT_LOSE : Dtz.plies(best) == 1 ? EXITS_LOSE_AT_ONE : EXITS_LOSE_PAST_RULE;
        return best == Dtz.NONE ? Dtz.DRAW : best;
    }

    private boolean zeroing(long occupied, int move) { return !MoveGenerator.staysInTable(occupied, move) || pawn[MoveGenerator.piece(move)]; }

    /** The code of the position a zeroing move of {@code side} leads to, the opponent to move there. */
    private int zeroedInto(int move, int side) {
        if (!MoveGenerator.staysInTable(squares, move)) return exits.exitResult(squares, move, 1 - side);
        int piece = MoveGenerator.piece(move), from = squares[piece];
        squares[piece] = MoveGenerator.to(move);
        int after = codes[(int) (2 * index.index(squares) + 1 - side)];
        if (after < 0) throw new TableInvariantException(index.material().name() + ": a pawn move reaches an entry not yet solved");
        if (gen.isDoublePush(move)) after = withEnPassant(1 - side, piece, after);
        squares[piece] = from;
        return after;
    }

    /** The code after a double push of {@code pushed}, {@code side} to move there: its entry's, or better, an en-passant capture's. */
    private int withEnPassant(int side, int pushed, int entry) {
        int n = gen.enPassantCaptures(squares, side, pushed, enPassant);
        if (n == 0) return entry;
        int best = gen.legalMoves(squares, side, scratch) > 0 ? entry : Dtz.NONE;
        for (int k = 0; k < n; k++) {
            int worth = Dtz.byMove(exits.exitResult(squares, enPassant[k], 1 - side), true, rule);
            best = Dtz.better(best, worth);
        }
        return best;
    }

    /** Each undecided position one piece move before {@code lost} wins at ply {@code d}. */
    private void winEarlier(int lost, int d, Ints next) {
        int n = earlier(lost);
        for (int k = 0; k < n; k++) if (codes[unmoves[k]] <= UNDECIDED) decide(unmoves[k], Dtz.win(d), next);
    }

    /** Each undecided position one piece move before {@code won} that has no move left but losing ones loses at ply {@code d}. */
    private void loseEarlier(int won, int d, Ints next) {
        int n = earlier(won);
        for (int k = 0; k < n; k++) if (lostAt(unmoves[k], d)) decide(unmoves[k], Dtz.loss(d), next);
    }

    /** The entries one piece move (no pawn, no capture) before entry {@code e}, into {@link #unmoves}; their count. */
    private int earlier(int e) {
        int side = e & 1;
        index.decode(e >>> 1, squares);
        int n = gen.unmoves(squares, side, true, true, unmoves), m = 0;
        for (int k = 0; k < n; k++) {
            int piece = MoveGenerator.piece(unmoves[k]);
            if (pawn[piece]) continue;
            int now = squares[piece];
            squares[piece] = MoveGenerator.from(unmoves[k]);
            unmoves[m++] = (int) (2 * index.index(squares) + 1 - side);
            squares[piece] = now;
        }
        return m;
    }

    /**
     * The loss kernel: whether undecided entry {@code e} is lost at ply {@code d}: its exits lose by then, and each of
     * its piece moves leads to a win of the opponent's decided before this ply.
     */
    boolean lostAt(int e, int d) {
        int s = codes[e];
        if (s != UNDECIDED && s != EXITS_LOSE_AT_ONE && !(s == EXITS_LOSE_PAST_RULE && d > rule)) return false;
        int side = e & 1;
        index.decode(e >>> 1, squares);
        int count = gen.legalMoves(squares, side, moves);
        long occupied = MoveGenerator.occupied(squares);
        for (int k = 0; k < count; k++) {
            if (zeroing(occupied, moves[k])) continue;
            int piece = MoveGenerator.piece(moves[k]), from = squares[piece];
            squares[piece] = MoveGenerator.to(moves[k]);
            int after = codes[(int) (2 * index.index(squares) + 1 - side)];
            squares[piece] = from;
            if (!Dtz.wins(after) || Dtz.plies(after) >= d) return false;
        }
        return true;
    }

    private void decide(int e, int code, Ints next) {
        if (codes[e] >= Dtz.DRAW) return;
        if (code > Short.MAX_VALUE) throw new TableInvariantException(index.material().name() + ": a DTZ past " + Short.MAX_VALUE / 2 + " plies");
        codes[e] = (short) code;
        next.add(e);
    }

    /** A growing list of entries. */
    static final class Ints {
        int[] at = new int[64];
        int size;

        void add(int v) {
            if (size == at.length) at = Arrays.copyOf(at, 2 * size);
            at[size++] = v;
        }
    }
}
