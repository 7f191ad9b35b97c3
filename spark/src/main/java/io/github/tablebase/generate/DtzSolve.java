package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.table.DtzCodes;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableInvariantException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>It holds a {@code short} an entry ({@link DtzCodes}, long-indexed: 6-piece tables too), a byte an index for the
 * levels, and a bit an entry for each of two frontiers, this ply's and the next's; an undecided entry's code says
 * what its exits do, so that the plies that take them in (1 and {@code rule + 1}) find them by a pass over the level.
 * Codes past a short (wins of 16,384 plies) are refused.
 *
 * <p>Each step runs on every core the task's JVM has, each thread a slice of the indexes or of the frontier with its
 * own scratch space: within a ply the wins are all decided before the losses, every write of a step gives an entry
 * the one code that step can give it, and an entry is decided once (compare and set), so the codes are the same
 * however the threads interleave.
 */
public final class DtzSolve {
    /**
     * Undecided entries, by what their exits do: none; all lose in 1 ply; all lose past the rule; some draw or win, but
     * none within the rule; one wins past the rule (a zeroing move into a blessed loss).
     */
    private static final short UNDECIDED = -2, EXITS_LOSE_AT_ONE = -3, EXITS_LOSE_PAST_RULE = -4, CANNOT_LOSE = -5, EXITS_WIN_PAST_RULE = -6;
    /** The frontiers' words, set bit by bit from any thread. */
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    private final PositionIndex index;
    private final MoveGenerator gen;
    private final int rule;
    private final DtzCodes codes;
    private final byte[] levels;
    /** This ply's entries and the next's, a bit an entry; swapped each ply. */
    private long[] frontier, next;
    /** One a thread: each step's slices run on these, each with its own scratch space. */
    private final Worker[] workers;

    private DtzSolve(PositionIndex index, MoveGenerator gen, Successors exits, int rule, int threads, int segmentBits) {
        if (index.material().hasPawns() && index.size() > Integer.MAX_VALUE - 8) // every table solved in one task has far fewer
            throw new IllegalArgumentException(index.material().name() + ": its pawn levels, a byte an index, pass an array's size");
        this.index = index;
        this.gen = gen;
        this.rule = rule;
        codes = new DtzCodes(2 * index.size(), segmentBits);
        levels = index.material().hasPawns() ? new byte[(int) index.size()] : null;
        frontier = new long[Math.toIntExact((2 * index.size() + 63) >>> 6)];
        next = new long[frontier.length];
        workers = new Worker[Math.max(1, threads)];
        ZeroingMoves first = new ZeroingMoves(index, gen, exits, rule);
        for (int t = 0; t < workers.length; t++) workers[t] = new Worker(t, t == 0 ? first : first.withOwnScratch());
    }

    /**
     * The DTZ codes of every entry {@code 2 * index + side} of {@code index}'s table under a rule of {@code rule}
     * plies, on every core; {@code exits} reads the smaller tables' DTZ codes (its own results are not used).
     */
    public static DtzCodes solve(PositionIndex index, MoveGenerator gen, Successors exits, int rule) {
        return solve(index, gen, exits, rule, Runtime.getRuntime().availableProcessors(), DtzCodes.SEGMENT_BITS);
    }

    /** {@link #solve(PositionIndex, MoveGenerator, Successors, int)} on {@code threads} threads, the codes in arrays of 2^{@code segmentBits}. */
    static DtzCodes solve(PositionIndex index, MoveGenerator gen, Successors exits, int rule, int threads, int segmentBits) {
        DtzSolve s = new DtzSolve(index, gen, exits, rule, threads, segmentBits);
        int top = s.markLegal();
        for (int level = top; level >= 0; level--) s.solveLevel(level);
        return s.codes;
    }

    /**
     * The DTZ of {@code material} under the game's rule as an RDD of one solved partition, the whole table's codes
     * ({@link SolvedPartition#ofDtz}), solved by the task that reads it (the export's, which writes them): a task run
     * again solves it again, the same way.
     */
    static JavaRDD<SolvedPartition> plane(JavaSparkContext jsc, Material material, SmallerTables smaller) {
        return jsc.parallelize(List.of(0), 1).map(x -> {
            DtzCodes codes = solve(new PositionIndex(material), new MoveGenerator(material), new Successors(material, null, smaller.openDtz()),
                    Dtz.RULE_PLIES);
            return SolvedPartition.ofDtz(0, Math.toIntExact(codes.size()), codes::get);
        });
    }

    /** Runs {@code step} on every worker at once, worker {@code t} given slice {@code t} of {@code size} items (from, to). */
    private void inSlices(long size, SliceStep step) {
        int n = workers.length;
        IntStream.range(0, n).parallel().forEach(t -> step.run(workers[t], size * t / n, size * (t + 1) / n));
    }

    private interface SliceStep {
        void run(Worker w, long from, long to);
    }

    /** The per-entry step of a pass over a frontier. */
    private interface EntryStep {
        void run(Worker w, long e);
    }

    /** Runs {@code step} on each entry of {@code bits} (a frontier), on every core. */
    private void eachOf(long[] bits, EntryStep step) {
        inSlices(bits.length, (w, from, to) -> {
            for (int k = (int) from; k < to; k++)
                for (long word = bits[k]; word != 0; word &= word - 1) step.run(w, ((long) k << 6) + Long.numberOfTrailingZeros(word));
        });
    }

    /** Runs {@code step} on each entry of level {@code level} whose code is {@code state}, on every core. */
    private void eachInState(int level, short state, EntryStep step) {
        inSlices(index.size(), (w, from, to) -> {
            for (long i = from; i < to; i++)
                if (atLevel(i, level))
                    for (int side = 0; side < 2; side++) if (codes.get(2 * i + side) == state) step.run(w, 2 * i + side);
        });
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
        long size = count(frontier);
        for (int d = 1; size > 0 || d <= rule + 1; d++) {
            int at = d;
            // the wins of the ply first, then its losses, which count only wins of earlier plies
            eachOf(frontier, (w, e) -> {
                if (Dtz.loses(codes.get(e))) w.winEarlier(e, at);
            });
            if (d == rule + 1) eachInState(level, EXITS_WIN_PAST_RULE, (w, e) -> w.decide(e, Dtz.win(at)));
            eachOf(frontier, (w, e) -> {
                if (Dtz.wins(codes.get(e))) w.loseEarlier(e, at);
            });
            if (d == 1 || d == rule + 1)
                eachInState(level, d == 1 ? EXITS_LOSE_AT_ONE : EXITS_LOSE_PAST_RULE, (w, e) -> {
                    if (w.lostAt(e, at)) w.decide(e, Dtz.loss(at));
                });
            long[] done = frontier;
            frontier = next;
            next = done;
            inSlices(next.length, (w, from, to) -> Arrays.fill(next, (int) from, (int) to, 0L));
            size = count(frontier);
        }
        inSlices(index.size(), (w, from, to) -> {
            for (long i = from; i < to; i++)
                if (atLevel(i, level))
                    for (int side = 0; side < 2; side++) if (codes.get(2 * i + side) < Dtz.NONE) codes.set(2 * i + side, Dtz.DRAW);
        });
    }

    /** The entries of a frontier. */
    private long count(long[] bits) {
        AtomicLong n = new AtomicLong();
        inSlices(bits.length, (w, from, to) -> {
            long c = 0;
            for (int k = (int) from; k < to; k++) c += Long.bitCount(bits[k]);
            n.addAndGet(c);
        });
        return n.get();
    }

    /** Puts entry {@code e} in frontier {@code bits}, whatever other threads add beside it. */
    private static void add(long[] bits, long e) { WORD.getAndBitwiseOr(bits, (int) (e >>> 6), 1L << e); }

    /** A thread's scratch space, and the kernels it runs. */
    final class Worker {
        final int id;
        private final ZeroingMoves zeroing;
        private final int[] squares, moves = new int[256], unmoves = new int[256];
        private final long[] earlier = new long[256];

        Worker(int id, ZeroingMoves zeroing) {
            this.id = id;
            this.zeroing = zeroing;
            squares = new int[index.material().size()];
        }

        /** Marks indexes {@code from .. to - 1}; returns their highest pawn level. */
        int markLegal(long from, long to) {
            int top = 0;
            for (long i = from; i < to; i++) {
                boolean canonical = index.decode(i, squares) && index.index(squares) == i;
                for (int side = 0; side < 2; side++)
                    codes.set(2 * i + side, canonical && !gen.opponentInCheck(squares, side) ? UNDECIDED : Dtz.NONE);
                if (levels != null && canonical) top = Math.max(top, levels[(int) i] = (byte) zeroing.level(squares));
            }
            return top;
        }

        /**
         * Sets up the entries of pawn level {@code level} among indexes {@code from .. to - 1}: checkmates into this
         * ply's frontier, wins in one zeroing ply decided into the next's, the others' codes saying what their exits do.
         */
        void setUpLevel(int level, long from, long to) {
            for (long i = from; i < to; i++) {
                if (!atLevel(i, level) || codes.get(2 * i) == Dtz.NONE && codes.get(2 * i + 1) == Dtz.NONE) continue;
                index.decode(i, squares);
                for (int side = 0; side < 2; side++) {
                    long e = 2 * i + side;
                    if (codes.get(e) != Dtz.NONE) setUp(e, side);
                }
            }
        }

        /**
         * The set-up kernel of entry {@code e} ({@code squares} decoded): mate and stalemate decided at once, a win by a
         * zeroing move within the rule too (ply 1, no piece move does better); else its code says what its zeroing moves do.
         */
        void setUp(long e, int side) {
            int best = zeroing.best(squares, side, codes);
            if (zeroing.legal() == 0) {
                boolean mated = gen.inCheck(squares, side);
                codes.set(e, mated ? Dtz.loss(0) : Dtz.DRAW);
                if (mated) add(frontier, e);
                return;
            }
            switch (ZeroingMoves.kind(best)) {
                case ZeroingMoves.WIN_AT_ONE -> {
                    codes.set(e, best);
                    add(next, e);
                }
                case ZeroingMoves.NONE -> codes.set(e, UNDECIDED);
                case ZeroingMoves.WIN_PAST_RULE -> codes.set(e, EXITS_WIN_PAST_RULE);
                case ZeroingMoves.CANNOT_LOSE -> codes.set(e, CANNOT_LOSE);
                case ZeroingMoves.LOSE_AT_ONE -> codes.set(e, EXITS_LOSE_AT_ONE);
                default -> codes.set(e, EXITS_LOSE_PAST_RULE);
            }
        }

        /** Each undecided position one piece move before {@code lost} wins at ply {@code d}. */
        void winEarlier(long lost, int d) {
            int n = earlier(lost);
            for (int k = 0; k < n; k++) if (codes.get(earlier[k]) <= UNDECIDED) decide(earlier[k], Dtz.win(d));
        }

        /** Each undecided position one piece move before {@code won} that has no move left but losing ones loses at ply {@code d}. */
        void loseEarlier(long won, int d) {
            int n = earlier(won);
            for (int k = 0; k < n; k++) if (lostAt(earlier[k], d)) decide(earlier[k], Dtz.loss(d));
        }

        /** The entries one piece move (no pawn, no capture) before entry {@code e}, into {@link #earlier}; their count. */
        private int earlier(long e) {
            int side = (int) (e & 1);
            index.decode(e >>> 1, squares);
            int n = gen.unmoves(squares, side, true, true, unmoves), m = 0;
            for (int k = 0; k < n; k++) {
                int piece = MoveGenerator.piece(unmoves[k]);
                if (zeroing.pawn(piece)) continue;
                int now = squares[piece];
                squares[piece] = MoveGenerator.from(unmoves[k]);
                earlier[m++] = 2 * index.index(squares) + 1 - side;
                squares[piece] = now;
            }
            return m;
        }

        /**
         * The loss kernel: whether undecided entry {@code e} is lost at ply {@code d}: its exits lose by then, and each of
         * its piece moves leads to a win of the opponent's decided before this ply.
         */
        boolean lostAt(long e, int d) {
            int s = codes.get(e);
            if (s != UNDECIDED && s != EXITS_LOSE_AT_ONE && !(s == EXITS_LOSE_PAST_RULE && d > rule)) return false;
            int side = (int) (e & 1);
            index.decode(e >>> 1, squares);
            int count = gen.legalMoves(squares, side, moves);
            long occupied = MoveGenerator.occupied(squares);
            for (int k = 0; k < count; k++) {
                if (zeroing.zeroing(occupied, moves[k])) continue;
                int piece = MoveGenerator.piece(moves[k]), from = squares[piece];
                squares[piece] = MoveGenerator.to(moves[k]);
                int after = codes.get(2 * index.index(squares) + 1 - side);
                squares[piece] = from;
                if (!Dtz.wins(after) || Dtz.plies(after) >= d) return false;
            }
            return true;
        }

        /** Decides undecided entry {@code e} as {@code code} (once: a thread that finds it decided leaves it), into the next frontier. */
        void decide(long e, int code) {
            if (code > Short.MAX_VALUE) throw new TableInvariantException(index.material().name() + ": a DTZ past " + Short.MAX_VALUE / 2 + " plies");
            for (int s = codes.get(e); s < Dtz.DRAW; s = codes.get(e))
                if (codes.compareAndSet(e, s, code)) {
                    add(next, e);
                    return;
                }
        }
    }
}
