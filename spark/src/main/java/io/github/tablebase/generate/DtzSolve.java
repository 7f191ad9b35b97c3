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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
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
 *
 * <p>Each step runs on every core the task's JVM has, each thread a slice of the indexes or of the frontier with its
 * own scratch space: within a ply the wins are all decided before the losses, every write of a step gives an entry
 * the one code that step can give it, and an entry is decided once (compare and set), so the codes are the same
 * however the threads interleave.
 */
public final class DtzSolve {
    /** Undecided entries, by what their exits do: none, all lose in 1 ply, all lose past the rule, some draw or win. */
    private static final short UNDECIDED = -2, EXITS_LOSE_AT_ONE = -3, EXITS_LOSE_PAST_RULE = -4, CANNOT_LOSE = -5;
    /** The codes' atomic access, for deciding an entry once however many threads reach it. */
    private static final VarHandle CODE = MethodHandles.arrayElementVarHandle(short[].class);

    private final PositionIndex index;
    private final MoveGenerator gen;
    private final int rule;
    private final short[] codes;
    private final byte[] levels;
    private final boolean[] pawn;
    /** One a thread: each step's slices run on these, each with its own scratch space. */
    private final Worker[] workers;

    private DtzSolve(PositionIndex index, MoveGenerator gen, Successors exits, int rule, int threads) {
        long entries = 2 * index.size();
        if (entries > Integer.MAX_VALUE - 8) throw new IllegalArgumentException(index.material().name() + " is too large to solve in one task");
        this.index = index;
        this.gen = gen;
        this.rule = rule;
        codes = new short[(int) entries];
        int pieces = index.material().size();
        pawn = new boolean[pieces];
        for (int k = 0; k < pieces; k++) pawn[k] = index.material().piece(k).type() == PieceType.PAWN;
        levels = index.material().hasPawns() ? new byte[(int) index.size()] : null;
        workers = new Worker[Math.max(1, threads)];
        for (int t = 0; t < workers.length; t++) workers[t] = new Worker(t, t == 0 ? exits : exits.withOwnScratch());
    }

    /**
     * The DTZ codes of every entry {@code 2 * index + side} of {@code index}'s table under a rule of {@code rule}
     * plies, on every core; {@code exits} reads the smaller tables' DTZ codes (its own results are not used).
     */
    public static short[] solve(PositionIndex index, MoveGenerator gen, Successors exits, int rule) {
        return solve(index, gen, exits, rule, Runtime.getRuntime().availableProcessors());
    }

    /** {@link #solve(PositionIndex, MoveGenerator, Successors, int)} on {@code threads} threads. */
    static short[] solve(PositionIndex index, MoveGenerator gen, Successors exits, int rule, int threads) {
        DtzSolve s = new DtzSolve(index, gen, exits, rule, threads);
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

    /** Runs {@code step} on every worker at once, worker {@code t} given slice {@code t} of {@code size} items (from, to). */
    private void inSlices(long size, SliceStep step) {
        int n = workers.length;
        IntStream.range(0, n).parallel().forEach(t -> step.run(workers[t], size * t / n, size * (t + 1) / n));
    }

    private interface SliceStep {
        void run(Worker w, long from, long to);
    }

    /** Marks each entry legal (undecided) or not, and each index's pawn level; returns the highest level. */
    private int markLegal() {
        int[] tops = new int[workers.length];
        inSlices(index.size(), (w, from, to) -> tops[w.id] = w.markLegal(from, to));
        return Arrays.stream(tops).max().orElse(0);
    }

    private boolean atLevel(long i, int level) { return levels == null || levels[(int) i] == level; }

    /** Sets up, then plies, one pawn level; what is left undecided is drawn. */
    private void solveLevel(int level) {
        inSlices(index.size(), (w, from, to) -> w.setUpLevel(level, from, to));
        Ints frontier = Ints.joined(workers, w -> w.frontier), winsAtOne = Ints.joined(workers, w -> w.winsAtOne),
                winsPastRule = Ints.joined(workers, w -> w.winsPastRule), lossesAtOne = Ints.joined(workers, w -> w.lossesAtOne),
                lossesPastRule = Ints.joined(workers, w -> w.lossesPastRule);
        for (int d = 1; frontier.size > 0 || d <= rule + 1; d++) {
            Ints ply = frontier, wins = d == 1 ? winsAtOne : d == rule + 1 ? winsPastRule : null;
            Ints losses = d == 1 ? lossesAtOne : d == rule + 1 ? lossesPastRule : null;
            int at = d;
            // the wins of the ply first, then its losses, which count only wins of earlier plies
            inSlices(ply.size, (w, from, to) -> {
                for (long f = from; f < to; f++) if (Dtz.loses(codes[ply.at[(int) f]])) w.winEarlier(ply.at[(int) f], at);
            });
            if (wins != null) inSlices(wins.size, (w, from, to) -> {
                for (long k = from; k < to; k++) w.decide(wins.at[(int) k], Dtz.win(at));
            });
            inSlices(ply.size, (w, from, to) -> {
                for (long f = from; f < to; f++) if (Dtz.wins(codes[ply.at[(int) f]])) w.loseEarlier(ply.at[(int) f], at);
            });
            if (losses != null) inSlices(losses.size, (w, from, to) -> {
                for (long k = from; k < to; k++) if (w.lostAt(losses.at[(int) k], at)) w.decide(losses.at[(int) k], Dtz.loss(at));
            });
            frontier = Ints.joined(workers, w -> w.next);
        }
        inSlices(index.size(), (w, from, to) -> {
            for (long i = from; i < to; i++)
                if (atLevel(i, level))
                    for (int side = 0; side < 2; side++) if (codes[(int) (2 * i + side)] < Dtz.NONE) codes[(int) (2 * i + side)] = Dtz.DRAW;
        });
    }

    /** A thread's scratch space and lists, and the kernels it runs. */
    final class Worker {
        final int id;
        private final Successors exits;
        private final int[] squares, moves = new int[256], unmoves = new int[256], enPassant = new int[2], scratch = new int[256];
        Ints frontier, winsAtOne, winsPastRule, lossesAtOne, lossesPastRule, next = new Ints();

        Worker(int id, Successors exits) {
            this.id = id;
            this.exits = exits;
            squares = new int[index.material().size()];
        }

        /** Marks indexes {@code from .. to - 1}; returns their highest pawn level. */
        int markLegal(long from, long to) {
            int top = 0;
            for (long i = from; i < to; i++) {
                boolean canonical = index.decode(i, squares) && index.index(squares) == i;
                for (int side = 0; side < 2; side++)
                    codes[(int) (2 * i + side)] = canonical && !gen.opponentInCheck(squares, side) ? UNDECIDED : Dtz.NONE;
                if (levels != null && canonical) top = Math.max(top, levels[(int) i] = (byte) level(squares));
            }
            return top;
        }

        /** Sets up the entries of pawn level {@code level} among indexes {@code from .. to - 1}, into this worker's lists. */
        void setUpLevel(int level, long from, long to) {
            frontier = new Ints();
            winsAtOne = new Ints();
            winsPastRule = new Ints();
            lossesAtOne = new Ints();
            lossesPastRule = new Ints();
            for (long i = from; i < to; i++) {
                if (!atLevel(i, level) || codes[(int) (2 * i)] == Dtz.NONE && codes[(int) (2 * i + 1)] == Dtz.NONE) continue;
                index.decode(i, squares);
                for (int side = 0; side < 2; side++) {
                    int e = (int) (2 * i + side);
                    if (codes[e] == Dtz.NONE) continue;
                    int best = setUp(e, side);
                    if (Dtz.wins(best)) (Dtz.plies(best) == 1 ? winsAtOne : winsPastRule).add(e);
                    else if (Dtz.loses(best)) (Dtz.plies(best) == 1 ? lossesAtOne : lossesPastRule).add(e);
                }
            }
        }

        /**
         * The set-up kernel of entry {@code e} ({@code squares} decoded): mate and stalemate decided at once, else what
         * its zeroing moves are worth; returns the best of them ({@link Dtz#DRAW} when none).
         */
        int setUp(int e, int side) {
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
        void winEarlier(int lost, int d) {
            int n = earlier(lost);
            for (int k = 0; k < n; k++) if (codes[unmoves[k]] <= UNDECIDED) decide(unmoves[k], Dtz.win(d));
        }

        /** Each undecided position one piece move before {@code won} that has no move left but losing ones loses at ply {@code d}. */
        void loseEarlier(int won, int d) {
            int n = earlier(won);
            for (int k = 0; k < n; k++) if (lostAt(unmoves[k], d)) decide(unmoves[k], Dtz.loss(d));
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

        /** Decides undecided entry {@code e} as {@code code} (once: a thread that finds it decided leaves it), into the next frontier. */
        void decide(int e, int code) {
            if (code > Short.MAX_VALUE) throw new TableInvariantException(index.material().name() + ": a DTZ past " + Short.MAX_VALUE / 2 + " plies");
            for (short s = codes[e]; s < Dtz.DRAW; s = codes[e])
                if (CODE.compareAndSet(codes, e, s, (short) code)) {
                    next.add(e);
                    return;
                }
        }
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

    private boolean zeroing(long occupied, int move) { return !MoveGenerator.staysInTable(occupied, move) || pawn[MoveGenerator.piece(move)]; }

    /** A growing list of entries. */
    static final class Ints {
        int[] at = new int[64];
        int size;

        void add(int v) {
            if (size == at.length) at = Arrays.copyOf(at, 2 * size);
            at[size++] = v;
        }

        /** Each worker's list, joined in the workers' order; each worker's is emptied. */
        static Ints joined(Worker[] workers, java.util.function.Function<Worker, Ints> list) {
            Ints all = new Ints();
            int size = 0;
            for (Worker w : workers) size += list.apply(w).size;
            all.at = new int[Math.max(64, size)];
            for (Worker w : workers) {
                Ints part = list.apply(w);
                System.arraycopy(part.at, 0, all.at, all.size, part.size);
                all.size += part.size;
                part.size = 0;
            }
            return all;
        }
    }
}
