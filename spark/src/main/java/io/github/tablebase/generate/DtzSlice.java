package io.github.tablebase.generate;

import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.probe.Result;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.TableInvariantException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Iterator;
import scala.Tuple2;

/**
 * One partition of a table whose DTZ is solved over partitions ({@link DtzPlies}): the canonical indexes {@code
 * lo..hi-1}, whole king pairs, both sides to move, as {@link TableSlice} cuts the table for its DTM. An entry {@code e
 * = 2 * (index - lo) + side} holds a {@code short}: its {@link Dtz} code once decided ({@link Dtz#NONE} for no
 * canonical legal position), {@link #UNSET} while its pawn level waits for its set-up, else an undecided state: what
 * its zeroing moves decide ({@link ZeroingMoves#kind}) and its piece moves not yet known to lose, {@code -2 - (kind +}
 * {@link #KINDS}{@code * left)}.
 *
 * <p>The plies are {@link DtzSolve}'s, counted as {@link TableSlice} counts: ply {@code d} takes the un-moves of the
 * entries decided at {@code d - 1} (the kings' shuffled from every partition, the other pieces' made here; pawns'
 * never: a pawn move zeroes). Into a loss they win at {@code d}; into a win they refute one move (by the weight of
 * the symmetric moves an un-move stands for), and an entry lost at {@code d} is one with none left. The zeroing moves
 * count as one move more where they all lose, refuted at ply 1 or {@code rule + 1}; a win by them comes in at ply 1 or
 * {@code rule + 1}. A pawn level's plies start from its set-up, which reads the higher levels of the same slice (a pawn
 * move keeps the king pair).
 *
 * <p>As {@link TableSlice}, a slice Spark holds is never changed: each step returns a new slice with its own codes
 * (the rest shared), unless the task owns the copy it read (slices kept serialized).
 */
final class DtzSlice implements Serializable {
    /** A canonical legal entry whose pawn level is not yet set up. */
    static final short UNSET = Short.MIN_VALUE;
    /** The kinds of {@link ZeroingMoves#kind}. */
    static final int KINDS = 6;

    final long lo, hi;
    private final short[] codes;
    /** Each index's pawn level ({@code index - lo}), null without pawns: set once, shared by every slice after. */
    private final byte[] levels;
    private final int rule;
    /** Entries decided at {@link #ply} of this level. */
    private int[] frontier;
    int frontierSize;
    /** The last ply applied of level {@link #level} (0 after its set-up). */
    int ply;
    int level;

    private DtzSlice(long lo, long hi, short[] codes, byte[] levels, int rule, int[] frontier, int frontierSize, int ply, int level) {
        this.lo = lo;
        this.hi = hi;
        this.codes = codes;
        this.levels = levels;
        this.rule = rule;
        this.frontier = frontier;
        this.frontierSize = frontierSize;
        this.ply = ply;
        this.level = level;
    }

    /** The slice of indexes {@code lo..hi-1} under a rule of {@code rule} plies: each entry legal ({@link #UNSET}) or not, each index's pawn level. */
    static DtzSlice init(PositionIndex index, MoveGenerator gen, ZeroingMoves zeroing, long lo, long hi, int rule) {
        int n = Math.toIntExact(hi - lo);
        short[] codes = new short[2 * n];
        byte[] levels = index.material().hasPawns() ? new byte[n] : null;
        int[] squares = new int[index.material().size()];
        for (int j = 0; j < n; j++) {
            long i = lo + j;
            boolean canonical = index.decode(i, squares) && index.index(squares) == i;
            for (int side = 0; side < 2; side++)
                codes[2 * j + side] = canonical && !gen.opponentInCheck(squares, side) ? UNSET : (short) Dtz.NONE;
            if (levels != null && canonical) levels[j] = (byte) zeroing.level(squares);
        }
        return new DtzSlice(lo, hi, codes, levels, rule, new int[0], 0, 0, -1);
    }

    /** Writes the slice in a plain binary form ({@link #readFrom} reads it back), for the work folder. */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeLong(lo);
        out.writeLong(hi);
        out.writeInt(rule);
        out.writeInt(level);
        out.writeInt(ply);
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        out.writeInt(codes.length);
        for (int from = 0; from < codes.length; from += buffer.capacity() / 2) {
            int n = Math.min(codes.length - from, buffer.capacity() / 2);
            buffer.clear();
            buffer.asShortBuffer().put(codes, from, n);
            out.write(buffer.array(), 0, 2 * n);
        }
        out.writeInt(levels == null ? -1 : levels.length);
        if (levels != null) out.write(levels);
        out.writeInt(frontierSize);
        for (int f = 0; f < frontierSize; f++) out.writeInt(frontier[f]);
    }

    static DtzSlice readFrom(DataInputStream in) throws IOException {
        long lo = in.readLong(), hi = in.readLong();
        int rule = in.readInt(), level = in.readInt(), ply = in.readInt();
        short[] codes = new short[in.readInt()];
        byte[] bytes = new byte[1 << 16];
        for (int from = 0; from < codes.length; from += bytes.length / 2) {
            int n = Math.min(codes.length - from, bytes.length / 2);
            in.readFully(bytes, 0, 2 * n);
            ByteBuffer.wrap(bytes, 0, 2 * n).asShortBuffer().get(codes, from, n);
        }
        int levelCount = in.readInt();
        byte[] levels = levelCount < 0 ? null : new byte[levelCount];
        if (levels != null) in.readFully(levels);
        int size = in.readInt();
        int[] frontier = new int[Math.max(1024, size)];
        for (int f = 0; f < size; f++) frontier[f] = in.readInt();
        return new DtzSlice(lo, hi, codes, levels, rule, frontier, size, ply, level);
    }

    /** The highest pawn level of the slice's positions (0 without pawns). */
    int topLevel() {
        int top = 0;
        if (levels != null) for (byte b : levels) top = Math.max(top, b);
        return top;
    }

    /** The entries decided, won, drawn or lost (none undecided or unset). */
    long decided() {
        long n = 0;
        for (short c : codes) if (c >= Dtz.DRAW) n++;
        return n;
    }

    private static int undecided(int kind, int left) { return -2 - (kind + KINDS * left); }

    private static int kind(int state) { return (-2 - state) % KINDS; }

    private static int left(int state) { return (-2 - state) / KINDS; }

    /** Whether an entry's code is an undecided state (set up, not yet decided). */
    private static boolean isUndecided(int code) { return code < Dtz.NONE && code != UNSET; }

    /**
     * The set-up kernel of pawn level {@code level}: the level before's undecided entries drawn, then each entry of
     * this level set up from its zeroing moves (mates decided, the first frontier), a new slice at ply 0 of it.
     */
    DtzSlice setUp(int level, PositionIndex index, MoveGenerator gen, ZeroingMoves zeroing, boolean ownCopy) {
        if (level >= this.level && this.level >= 0) throw new TableInvariantException("level " + level + " set up after level " + this.level);
        short[] c = ownCopy ? codes : codes.clone();
        for (int e = 0; e < c.length; e++) if (isUndecided(c[e])) c[e] = Dtz.DRAW;
        int[] squares = new int[index.material().size()];
        int[] first = new int[1024];
        int size = 0;
        long base = 2 * lo;
        EntryResults own = entry -> c[(int) (entry - base)]; // a pawn move keeps the king pair: its position is in this slice
        for (int j = 0; j < c.length / 2; j++) {
            if (levels != null && levels[j] != level || c[2 * j] != UNSET && c[2 * j + 1] != UNSET) continue;
            index.decode(lo + j, squares);
            for (int side = 0; side < 2; side++) {
                int e = 2 * j + side;
                if (c[e] != UNSET) continue;
                int best = zeroing.best(squares, side, own);
                if (zeroing.legal() == 0) {
                    boolean mated = gen.inCheck(squares, side);
                    c[e] = (short) (mated ? Dtz.loss(0) : Dtz.DRAW);
                    if (mated) {
                        if (size == first.length) first = Arrays.copyOf(first, 2 * size);
                        first[size++] = e;
                    }
                    continue;
                }
                int kind = ZeroingMoves.kind(best);
                boolean mayLose = kind == ZeroingMoves.NONE || kind == ZeroingMoves.LOSE_AT_ONE || kind == ZeroingMoves.LOSE_PAST_RULE;
                int left = !mayLose ? 0 : zeroing.quiet() + (kind == ZeroingMoves.NONE ? 0 : 1);
                c[e] = (short) undecided(kind, left);
            }
        }
        return new DtzSlice(lo, hi, c, levels, rule, first, size, 0, level);
    }

    /** The kings' un-moves of the entries decided at ply {@code frontierPly}, tagged 1 where that entry loses (its earlier positions win). */
    Iterator<Tuple2<Integer, long[]>> kingUnmoves(int frontierPly, PositionIndex index, MoveGenerator gen, int[] partitionOfKingPair) {
        if (ply != frontierPly && frontierSize > 0) throw new TableInvariantException(atAnotherPly(frontierPly));
        return new KingUnmoveBatches(index, gen, partitionOfKingPair, lo, codes.length, frontier, frontierSize,
                (e, key) -> key << 1 | (Dtz.loses(codes[e]) ? 1 : 0));
    }

    /**
     * The kernel of ply {@code d}: the slice after the un-moves of this one's frontier (decided at {@code d - 1}, or
     * empty when plies are skipped), its other pieces' made here, the kings' arriving as {@code kingKeys}; and the
     * zeroing moves' results that come in at {@code d}. Its entries decided at {@code d} are the new frontier.
     */
    DtzSlice next(int d, PositionIndex index, MoveGenerator gen, boolean ownCopy, Iterator<long[]> kingKeys) {
        if (ply >= d || ply < d - 1 && frontierSize > 0) throw new TableInvariantException(atAnotherPly(d - 1));
        DtzSlice next = ownCopy ? this : new DtzSlice(lo, hi, codes.clone(), levels, rule, frontier, frontierSize, ply, level);
        next.applyInPlace(d, index, gen, kingKeys);
        return next;
    }

    private void applyInPlace(int d, PositionIndex index, MoveGenerator gen, Iterator<long[]> kingKeys) {
        boolean[] pawn = ZeroingMoves.pawns(index.material());
        int[] old = frontier;
        int oldSize = frontierSize;
        frontier = new int[Math.max(1024, oldSize)];
        frontierSize = 0;
        int[] squares = new int[index.material().size()], unmoves = new int[256];
        for (int f = 0; f < oldSize; f++) {
            int e = old[f], side = e & 1;
            long i = lo + (e >>> 1), win = Dtz.loses(codes[e]) ? 1 : 0;
            index.decode(i, squares);
            boolean symmetric = index.symmetricKingPair(i);
            int selfSymmetries = symmetric ? index.canonicalSymmetries(squares) : 1;
            int n = gen.unmoves(squares, side, false, true, unmoves);
            for (int k = 0; k < n; k++) {
                int u = unmoves[k], piece = MoveGenerator.piece(u);
                if (pawn[piece]) continue;
                long before = symmetric ? -1 : index.indexAfterMove(i, squares, piece, MoveGenerator.from(u));
                long key = before >= 0 ? (2 * before + 1 - side) << 3 : TableSlice.unmove(index, squares, side, selfSymmetries, u);
                if (key >= 0) reach(d, key << 1 | win);
            }
        }
        while (kingKeys.hasNext()) for (long key : kingKeys.next()) reach(d, key);
        if (d == 1 || d == rule + 1) zeroingMovesAt(d);
        ply = d;
    }

    /** An un-move key ({@link #kingUnmoves}' form) reaching its entry at ply {@code d}. */
    private void reach(int d, long key) {
        int e = (int) ((key >>> 4) - 2 * lo), weight = (int) (key >>> 1 & 7) + 1, s = codes[e];
        if (!isUndecided(s)) {
            if (s == UNSET) throw new TableInvariantException("entry " + e + " of the DTZ slice from " + lo + " reached before its level's set-up");
            return;
        }
        if ((key & 1) == 1) {
            decide(e, Dtz.win(d));
            return;
        }
        int kind = kind(s);
        if (kind != ZeroingMoves.NONE && kind != ZeroingMoves.LOSE_AT_ONE && kind != ZeroingMoves.LOSE_PAST_RULE) return;
        refute(e, d, kind, left(s) - weight);
    }

    /** Entry {@code e}, which may lose, with {@code left} moves not yet refuted: lost at ply {@code d} when none is. */
    private void refute(int e, int d, int kind, int left) {
        if (left < 0) throw new TableInvariantException("entry " + e + " of the DTZ slice from " + lo + " refuted more often than it has moves");
        if (left == 0) decide(e, Dtz.loss(d));
        else codes[e] = (short) undecided(kind, left);
    }

    /** The zeroing moves' results that come in at ply {@code d} (1 or {@code rule + 1}): wins, and the one move they count as, refuted. */
    private void zeroingMovesAt(int d) {
        boolean atOne = d == 1;
        int wins = atOne ? ZeroingMoves.WIN_AT_ONE : ZeroingMoves.WIN_PAST_RULE, loses = atOne ? ZeroingMoves.LOSE_AT_ONE : ZeroingMoves.LOSE_PAST_RULE;
        for (int e = 0; e < codes.length; e++) {
            int s = codes[e];
            if (!isUndecided(s)) continue;
            int kind = kind(s);
            if (kind == wins) decide(e, Dtz.win(d));
            else if (kind == loses) refute(e, d, kind, left(s) - 1);
        }
    }

    private void decide(int e, int code) {
        if (code > Short.MAX_VALUE) throw new TableInvariantException("a DTZ past " + Short.MAX_VALUE / 2 + " plies");
        codes[e] = (short) code;
        if (frontierSize == frontier.length) frontier = Arrays.copyOf(frontier, 2 * frontierSize);
        frontier[frontierSize++] = e;
    }

    private String atAnotherPly(int wanted) {
        return "the DTZ slice from index " + lo + " is at ply " + ply + " of level " + level + ", not " + wanted;
    }

    /**
     * The solved slice's DTZ codes as a solved partition's result bytes (a DTZ code is a {@link Result} code; those
     * past a byte listed as late plies), what is still undecided drawn: what the exports read.
     */
    SolvedPartition solvedPartition() {
        return SolvedPartition.ofDtz(lo, codes.length, e -> {
            int c = codes[e];
            if (c == UNSET) throw new TableInvariantException("entry " + e + " of the DTZ slice from " + lo + " never set up");
            return isUndecided(c) ? Dtz.DRAW : c;
        });
    }
}
