package io.github.tablebase.generate;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Piece;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.LatePlies;
import io.github.tablebase.probe.Result;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableInvariantException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import scala.Tuple2;

/**
 * One partition of a table being solved: the canonical indexes {@code lo..hi-1}, whole king pairs, both sides to
 * move. An entry {@code e = 2 * (index - lo) + side} holds one state byte, which each ply makes anew:
 * <ul>
 *   <li>{@link #NONE}: no canonical legal position;</li>
 *   <li>{@code 1 .. bytePlies + 1}: decided, the {@link Result} code of its ply;</li>
 *   <li>{@link #CANNOT_LOSE} ({@code 0}, a draw's code): undecided, and a capture draws or wins, or it is stalemate;</li>
 *   <li>{@code bytePlies + 1 + c}: undecided, {@code c} of its moves not yet known to lose (at most the material's
 *       {@link #mostMovesLeft}); it is lost at the ply this reaches 0.</li>
 * </ul>
 * So a slice costs one byte an entry, and each ply one more while it makes the next (Syzygy's generator keeps
 * one byte a position too). What is undecided at the end is a draw.
 * Captures were looked up once in the smaller tables: an entry that wins by a capture does so at a ply known in
 * advance (a win event), and an entry whose captures all lose counts them as one move refuted at the ply of the
 * longest (a loss event). Best moves are not kept: they follow from the final results.
 *
 * <p>En passant: a table's positions have no en-passant right, but a pawn's double push that the opponent may take
 * en passant leads to a position that has one. Such a position gets an entry of its own after the slice's
 * {@code 2 * (hi - lo)} (the same moves as its entry without the right, and the captures), reached by the same
 * un-moves, and its only un-move is the double push; the double push is then not an un-move of the entry without
 * the right. These entries are dropped by {@link #solvedPartition}.
 *
 * <p>Plies of any length: a state byte holds plies below {@link #bytePlies} (the files' 253, less the room the
 * material's counters take: 223 for KBNKN, 136 for KQQQQK); an entry decided at a later ply gets the code of ply
 * {@code bytePlies} (it reads as decided, which is all a ply asks), and the entries each such ply decided are kept
 * in a list of their own (a ply's frontier, kept), from which {@link #solvedPartition} writes the exact plies. Long
 * mates have few entries that late: the lists cost little.
 *
 * <p>The kernels: {@link #init} sets the entries up; {@link #kingUnmoves} makes the un-moves of the kings from the
 * frontier, the only ones that can reach another partition (another king pair); {@link #next} makes the other
 * pieces' un-moves itself and takes the kings' from every partition.
 *
 * <p>A slice Spark holds is never changed: {@link #next} returns a new slice (it copies the state bytes and
 * shares the rest), so that a task run twice, a speculative copy, or a task on a deserialized copy elsewhere each
 * start from the same ply and make the same next one; a slice Spark keeps serialized is each task's own copy, and
 * {@link #next} plies it in place. {@link #solveAlone} plies in place too, on the slice its own init made.
 */
final class TableSlice implements Serializable {
    /** The state of an undecided entry that cannot lose: a draw's result code. */
    static final int CANNOT_LOSE = Result.DRAW;
    /** The state of an index and side with no canonical legal position: the result byte of {@link Result#NONE}. */
    static final int NONE = 0xFF;

    final long lo, hi;
    /** The state bytes, the en-passant entries after the table's. */
    private final byte[] state;
    /** Entries decided at {@link #ply}. */
    private int[] frontier;
    int frontierSize;
    /** The last ply applied. */
    int ply;
    /** Entries by the ply of their capture event, shared by the slices of every ply. */
    private final PlyEvents wins, losses;
    /**
     * Table entries with a capture or promotion that draws and none that wins, shared by the slices of every ply:
     * with the events, what {@link #solvedPartition} finds the entries their exits decide from.
     */
    private final BitSet drawnByExits;
    /** En-passant entry {@code 2 * (hi - lo) + k}: the entry without the right ({@code epBase[k]}, ascending), the pawn that moved two squares. */
    private final int[] epBase, epPawn;
    /** {@link #enPassantBuckets} of {@link #epBase}: where the en-passant entries of each run of entries start. */
    private final int[] epFirst;
    /** The plies a state byte holds: 0 .. bytePlies - 1 as they are, later ones as {@code bytePlies} and listed. */
    final int bytePlies;
    /** The plies the solved partition's result bytes hold ({@code spark.tablebase.bytePlies}), later ones listed beside them. */
    private final int filePlies;
    /** The plies from {@link #bytePlies} on, and the table entries each decided: shared with the slice before, never changed. */
    private int[] latePly;
    private int[][] lateEntries;

    private TableSlice(long lo, long hi, byte[] state, int[] frontier, int frontierSize, int ply, PlyEvents wins, PlyEvents losses,
                       BitSet drawnByExits, int[] epBase, int[] epPawn, int[] epFirst, int bytePlies, int filePlies, int[] latePly,
                       int[][] lateEntries) {
        this.lo = lo;
        this.hi = hi;
        this.state = state;
        this.frontier = frontier;
        this.frontierSize = frontierSize;
        this.ply = ply;
        this.wins = wins;
        this.losses = losses;
        this.drawnByExits = drawnByExits;
        this.epBase = epBase;
        this.epPawn = epPawn;
        this.epFirst = epFirst != null ? epFirst : enPassantBuckets(epBase, (int) (2 * (hi - lo)));
        this.bytePlies = bytePlies;
        this.filePlies = filePlies;
        this.latePly = latePly;
        this.lateEntries = lateEntries;
    }

    /**
     * The most moves an entry of {@code gen}'s material can have left to refute: every legal move of the side with
     * the more, and one for its captures and promotions.
     */
    static int mostMovesLeft(MoveGenerator gen) { return Math.max(gen.mostMoves(0), gen.mostMoves(1)) + 1; }

    /** The plies a state byte of {@code gen}'s material holds, the files' result bytes holding {@code filePlies}. */
    static int bytePlies(MoveGenerator gen, int filePlies) {
        return Math.min(filePlies, Result.MAX_PLY - mostMovesLeft(gen));
    }

    /** Writes the slice in a plain binary form ({@link #readFrom} reads it back), for the work folder. */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeLong(lo);
        out.writeLong(hi);
        out.writeInt(ply);
        out.writeInt(state.length);
        out.write(state);
        out.writeInt(bytePlies);
        out.writeInt(filePlies);
        for (int[] ints : new int[][] {Arrays.copyOf(frontier, frontierSize), epBase, epPawn, latePly}) {
            out.writeInt(ints.length);
            for (int v : ints) out.writeInt(v);
        }
        wins.writeTo(out);
        losses.writeTo(out);
        long[] drawn = drawnByExits.toLongArray();
        out.writeInt(drawn.length);
        for (long word : drawn) out.writeLong(word);
        for (int[] ints : lateEntries) {
            out.writeInt(ints.length);
            for (int v : ints) out.writeInt(v);
        }
    }

    static TableSlice readFrom(DataInputStream in) throws IOException {
        long lo = in.readLong(), hi = in.readLong();
        int ply = in.readInt();
        byte[] state = new byte[in.readInt()];
        in.readFully(state);
        int bytePlies = in.readInt(), filePlies = in.readInt();
        int[][] ints = new int[4][];
        for (int k = 0; k < ints.length; k++) ints[k] = readInts(in);
        PlyEvents wins = PlyEvents.readFrom(in), losses = PlyEvents.readFrom(in);
        long[] drawn = new long[in.readInt()];
        for (int k = 0; k < drawn.length; k++) drawn[k] = in.readLong();
        int[][] late = new int[ints[3].length][];
        for (int k = 0; k < late.length; k++) late[k] = readInts(in);
        return new TableSlice(lo, hi, state, Arrays.copyOf(ints[0], Math.max(1024, ints[0].length)), ints[0].length, ply,
                wins, losses, BitSet.valueOf(drawn), ints[1], ints[2], null, bytePlies, filePlies, ints[3], late);
    }

    private static int[] readInts(DataInputStream in) throws IOException {
        int[] ints = new int[in.readInt()];
        for (int j = 0; j < ints.length; j++) ints[j] = in.readInt();
        return ints;
    }

    /** The last ply at which a capture event decides something, or 0. */
    int lastEventPly() { return Math.max(0, Math.max(wins.lastPly(), losses.lastPly())); }

    /**
     * The init kernel: every canonical legal entry of {@code lo..hi-1} with its move count, checkmates decided at
     * ply 0 (the first frontier), its captures and promotions looked up in the smaller tables, and an entry for
     * each en-passant right its position may carry. Its state bytes hold {@code bytePlies} (at most {@link
     * #bytePlies(MoveGenerator, int)}), the solved partition's result bytes {@code filePlies}.
     */
    static TableSlice init(PositionIndex index, MoveGenerator gen, Successors exits, long lo, long hi, int bytePlies, int filePlies) {
        if (bytePlies < 1 || bytePlies > bytePlies(gen, filePlies))
            throw new IllegalArgumentException(gen.material().name() + "'s state bytes hold 1 to " + bytePlies(gen, filePlies) + " plies, not " + bytePlies);
        int n = (int) (hi - lo);
        Entries entries = new Entries(2 * n, bytePlies);
        int[] squares = new int[index.material().size()], moves = new int[256], captures = new int[2];
        boolean enPassant = hasPawn(gen, Color.WHITE) && hasPawn(gen, Color.BLACK);
        for (int j = 0; j < n; j++) {
            long i = lo + j;
            boolean placed = j == 0 ? index.decode(i, squares) : index.decodeNext(i, squares);
            boolean canonical = placed && index.canonicalDecoded(i, squares);
            for (int side = 0; side < 2; side++) {
                int e = 2 * j + side;
                if (!canonical || gen.opponentInCheck(squares, side)) {
                    entries.state[e] = (byte) NONE;
                    continue;
                }
                int counted = gen.countedMoves(squares, side, moves), quiet = counted >>> 16, count = counted & 0xFFFF;
                entries.decide(e, squares, side, quiet, moves, count, captures, 0, gen, exits);
                if (!enPassant) continue;
                for (int pushed = 0; pushed < squares.length; pushed++) {
                    if (!justPushedTwo(gen, squares, side, pushed)) continue;
                    int taking = gen.enPassantCaptures(squares, side, pushed, captures);
                    if (taking > 0) entries.decide(entries.enPassant(e, pushed), squares, side, quiet, moves, count, captures, taking, gen, exits);
                }
            }
        }
        return entries.slice(lo, hi, filePlies);
    }

    private static boolean hasPawn(MoveGenerator gen, Color color) {
        return gen.material().pieces().contains(new Piece(color, PieceType.PAWN));
    }

    /** Whether piece {@code pushed}, not of {@code side}, is a pawn on its fourth rank with the two squares behind it empty. */
    private static boolean justPushedTwo(MoveGenerator gen, int[] squares, int side, int pushed) {
        if (gen.side(pushed) == side || gen.material().piece(pushed).type() != PieceType.PAWN) return false;
        int sq = squares[pushed], back = side == 0 ? 8 : -8; // the pusher is the other side: behind it is towards the side to move
        if (Square.rank(sq) != (side == 0 ? 4 : 3)) return false;
        return MoveGenerator.pieceAt(squares, sq + back) < 0 && MoveGenerator.pieceAt(squares, sq + 2 * back) < 0;
    }

    /** The entries init makes: the table's, then those with an en-passant right, with their events and first frontier. */
    private static final class Entries {
        final byte[] state;
        byte[] epState = new byte[16];
        final PlyEvents wins = new PlyEvents(), losses = new PlyEvents();
        final BitSet drawnByExits = new BitSet();
        final IntPairs enPassant = new IntPairs();
        int[] frontier = new int[1024];
        int frontierSize;
        private final int tableEntries, bytePlies;

        Entries(int tableEntries, int bytePlies) {
            this.tableEntries = tableEntries;
            this.bytePlies = bytePlies;
            state = new byte[tableEntries];
        }

        /** A new en-passant entry of entry {@code e}, pawn {@code pushed} having moved two squares. */
        int enPassant(int e, int pushed) {
            int k = enPassant.size();
            enPassant.add(e, pushed);
            if (k == epState.length) epState = Arrays.copyOf(epState, 2 * k);
            return tableEntries + k;
        }

        /**
         * Sets entry {@code e} up from its {@code quiet} legal moves that stay in the table, its {@code count} legal
         * exits ({@code moves}: captures and promotions) and {@code taking} en-passant captures: checkmate and
         * stalemate at once; a capture or promotion that wins, a win event; one that draws, a position that cannot
         * lose; else its quiet moves to refute, plus one for its exits if they all lose (a loss event).
         */
        void decide(int e, int[] squares, int side, int quiet, int[] moves, int count, int[] captures, int taking, MoveGenerator gen,
                    Successors exits) {
            Result.Fold fold = new Result.Fold();
            for (int k = 0; k < count; k++) fold.add(exits.exitResult(squares, moves[k], 1 - side));
            for (int k = 0; k < taking; k++) fold.add(exits.exitResult(squares, captures[k], 1 - side));
            if (quiet + count + taking == 0) {
                if (gen.inCheck(squares, side)) {
                    set(e, Result.code(0)); // checkmated
                    if (frontierSize == frontier.length) frontier = Arrays.copyOf(frontier, 2 * frontierSize);
                    frontier[frontierSize++] = e;
                } else {
                    set(e, CANNOT_LOSE); // stalemate
                }
            } else if (fold.wins()) {
                set(e, CANNOT_LOSE);
                wins.add(fold.winPly(), e); // ply + 1 of the lost position reached: this one wins at that ply
            } else if (fold.draws()) {
                set(e, CANNOT_LOSE);
                if (e < tableEntries) drawnByExits.set(e);
            } else {
                set(e, bytePlies + 1 + quiet + (fold.loses() ? 1 : 0));
                if (fold.loses()) losses.add(fold.lossPly(), e);
            }
        }

        private void set(int e, int value) {
            if (e < tableEntries) state[e] = (byte) value; else epState[e - tableEntries] = (byte) value;
        }

        TableSlice slice(long lo, long hi, int filePlies) {
            int extra = enPassant.size();
            byte[] all = state;
            if (extra > 0) {
                all = Arrays.copyOf(state, tableEntries + extra);
                System.arraycopy(epState, 0, all, tableEntries, extra);
            }
            return new TableSlice(lo, hi, all, frontier, frontierSize, 0, wins.trimmed(), losses.trimmed(), drawnByExits, enPassant.keys(),
                    enPassant.values(), null, bytePlies, filePlies, new int[0], new int[0][]);
        }
    }

    /**
     * The kernel of the map side of ply {@code frontierPly + 1}: the kings' un-moves from this slice's frontier, as
     * (partition, batch of un-move keys), made lazily batch by batch. A key is
     * {@code (2 * index + side) * 8 + weight - 1}, {@code weight} the distinct moves of the earlier position
     * it stands for (see {@link #unmove}).
     */
    Iterator<Tuple2<Integer, long[]>> kingUnmoves(int frontierPly, PositionIndex index, MoveGenerator gen, int[] partitionOfKingPair) {
        if (ply != frontierPly) throw new TableInvariantException(atAnotherPly(frontierPly));
        return new KingUnmoveBatches(index, gen, partitionOfKingPair, lo, (int) (2 * (hi - lo)), frontier, frontierSize, (e, key) -> key);
    }

    /** The entries of the table won or lost so far (a resumed run's start of its count). */
    long decided() {
        long n = 0;
        for (int k = 0; k < 2 * (hi - lo); k++) if (decided(state[k] & 0xFF)) n++;
        return n;
    }

    /**
     * The key of the earlier position an un-move reaches from the frontier position on {@code squares}, or -1
     * when the frontier position is its own mirror image and this un-move's image under that symmetry stands
     * for it (each distinct earlier move is told once). The weight is the number of distinct moves of the
     * canonical earlier position that the un-move stands for: more than one when that position is symmetric.
     */
    static long unmove(PositionIndex index, int[] squares, int side, int selfSymmetries, int unmove) {
        int piece = MoveGenerator.piece(unmove), origin = MoveGenerator.from(unmove), now = MoveGenerator.to(unmove);
        for (int s = 1; s < 8; s++)
            if ((selfSymmetries >> s & 1) != 0 && Square.transform(now, s) * 64 + Square.transform(origin, s) < now * 64 + origin) return -1;
        squares[piece] = origin;
        int symmetries = index.canonicalSymmetries(squares);
        long before = index.index(squares, symmetries);
        squares[piece] = now;
        int weight = 1;
        if (Integer.bitCount(symmetries) > 1) {
            int[] codes = new int[8];
            weight = 0;
            for (int s = 0; s < 8; s++) {
                if ((symmetries >> s & 1) == 0) continue;
                int code = Square.transform(origin, s) * 64 + Square.transform(now, s);
                boolean seen = false;
                for (int k = 0; k < weight; k++) seen |= codes[k] == code;
                if (!seen) codes[weight++] = code;
            }
        }
        return ((2 * before + 1 - side) << 3) + weight - 1;
    }

    /**
     * The kernel of ply {@code q}: the slice after the un-moves of this one's frontier (its other pieces' made here,
     * the kings' arriving from every partition) and the capture events of {@code q}. Odd {@code q}: an undecided
     * earlier position wins now. Even {@code q}: it counts off the moves refuted, and is lost now when none is left.
     * The entries decided become the new slice's frontier. With {@code ownCopy} (a copy this task deserialized from
     * the bytes Spark keeps, which no one else sees) this slice itself becomes it; else this slice stays as it was.
     */
    TableSlice next(int q, PositionIndex index, MoveGenerator gen, boolean ownCopy, Iterator<long[]> kingKeys) {
        if (ply != q - 1) throw new TableInvariantException(atAnotherPly(q - 1));
        // the state bytes change at every ply: the rest is shared
        TableSlice next = ownCopy ? this : new TableSlice(lo, hi, state.clone(), frontier, frontierSize, ply, wins, losses, drawnByExits, epBase,
                epPawn, epFirst, bytePlies, filePlies, latePly, lateEntries);
        next.applyInPlace(q, index, gen, false, kingKeys);
        return next;
    }

    /**
     * Ply {@code q} applied to this slice itself: only on a slice no one else sees. The kings' un-moves are made here
     * too with {@code kings} (the slice is the whole table), else they come as {@code kingKeys}.
     */
    private void applyInPlace(int q, PositionIndex index, MoveGenerator gen, boolean kings, Iterator<long[]> kingKeys) {
        int[] old = frontier;
        int oldSize = frontierSize;
        frontier = new int[Math.max(1024, oldSize)];
        frontierSize = 0;
        int[] squares = new int[index.material().size()], unmoves = new int[256];
        long[] keys = new long[REACH_BATCH];
        int pending = 0;
        int tableEntries = (int) (2 * (hi - lo));
        for (int f = 0; f < oldSize; f++) {
            int e = old[f];
            if (e >= tableEntries) unmoveDoublePush(q, index, gen, e - tableEntries, squares);
            else pending = reachUnmoves(q, e, index, gen, kings, squares, unmoves, keys, pending);
        }
        reachAll(q, keys, pending);
        while (kingKeys.hasNext()) {
            long[] batch = kingKeys.next();
            reachAll(q, batch, batch.length);
        }
        (q % 2 == 1 ? wins : losses).forEach(q, e -> touch(q, e, 1));
        if (q >= bytePlies) keepLate(q, tableEntries);
        ply = q;
    }

    /**
     * The un-moves of frontier entry {@code e} (the kings' too with {@code kings}) as keys added to {@code keys} after
     * its {@code pending} ones, reached (and the batch emptied) whenever it is full; returns the keys then pending.
     */
    private int reachUnmoves(int q, int e, PositionIndex index, MoveGenerator gen, boolean kings, int[] squares, int[] unmoves, long[] keys,
                             int pending) {
        int side = e & 1;
        long i = lo + (e >>> 1);
        index.decode(i, squares);
        boolean symmetric = index.symmetricKingPair(i);
        int selfSymmetries = symmetric ? index.canonicalSymmetries(squares) : 1;
        int n = gen.unmoves(squares, side, kings, true, unmoves);
        for (int k = 0; k < n; k++) {
            int u = unmoves[k];
            if (gen.isDoublePush(u) && enPassantEntry(e, MoveGenerator.piece(u)) >= 0) continue; // it led to the en-passant entry
            // a piece other than a king: one digit of the index changes (no symmetry to weigh where the kings' pair has none)
            long before = symmetric ? -1 : index.indexAfterMove(i, squares, MoveGenerator.piece(u), MoveGenerator.from(u));
            long key = before >= 0 ? (2 * before + 1 - side) << 3 : unmove(index, squares, side, selfSymmetries, u);
            if (key < 0) continue;
            keys[pending++] = key;
            if (pending < REACH_BATCH) continue;
            reachAll(q, keys, pending);
            pending = 0;
        }
        return pending;
    }

    /** Lists the table entries ply {@code q} decided (its frontier), past what a state byte holds: new arrays, the old ones shared. */
    private void keepLate(int q, int tableEntries) {
        int[] decided = new int[frontierSize];
        int n = 0;
        for (int f = 0; f < frontierSize; f++) if (frontier[f] < tableEntries) decided[n++] = frontier[f];
        latePly = Arrays.copyOf(latePly, latePly.length + 1);
        latePly[latePly.length - 1] = q;
        lateEntries = Arrays.copyOf(lateEntries, lateEntries.length + 1);
        lateEntries[lateEntries.length - 1] = Arrays.copyOf(decided, n);
    }

    /** The un-move of en-passant entry {@code k}: its pawn back on its second rank, if the other side was not in check there. */
    private void unmoveDoublePush(int q, PositionIndex index, MoveGenerator gen, int k, int[] squares) {
        int base = epBase[k], side = base & 1, pawn = epPawn[k];
        index.decode(lo + (base >>> 1), squares);
        int now = squares[pawn], origin = now + (side == 0 ? 16 : -16); // the pawn is the other side's: it came from behind
        squares[pawn] = origin;
        boolean legal = !gen.attacked(squares, MoveGenerator.occupied(squares), squares[gen.king(side)], 1 - side, -1);
        squares[pawn] = now;
        if (legal) reach(q, unmove(index, squares, side, 1, pawn << 12 | origin << 6 | now));
    }

    /** The en-passant entry of entry {@code e} with {@code pawn} just moved two squares, or -1. */
    private int enPassantEntry(int e, int pawn) {
        for (int k = firstEnPassant(e); k < epBase.length && epBase[k] == e; k++) if (epPawn[k] == pawn) return (int) (2 * (hi - lo)) + k;
        return -1;
    }

    /** The first place in {@link #epBase} not below {@code e}: from its run's start in {@link #epFirst}, a run holding about one. */
    private int firstEnPassant(int e) { return firstEnPassant(epBase, epFirst, e); }

    /** The first place in ascending {@code epBase} not below entry {@code e}, from its {@link #enPassantBuckets} {@code first}. */
    static int firstEnPassant(int[] epBase, int[] first, int e) {
        int run = (e >>> first[0]) + 1, k = first[run], end = first[run + 1];
        while (k < end && epBase[k] < e) k++;
        return k;
    }

    /**
     * The en-passant entries of {@code entries} table entries by runs of 2^shift entries, about as many runs as
     * en-passant entries: the shift at [0], then where each run's start in {@code epBase} (ascending), and its end.
     * Every un-move that reaches an entry looks for its en-passant entries (a search of the whole list took half of
     * KPKP's plies).
     */
    static int[] enPassantBuckets(int[] epBase, int entries) {
        int shift = 0;
        while (shift < 30 && (long) epBase.length << (shift + 1) <= entries) shift++;
        int runs = (int) (((long) entries + (1L << shift) - 1) >>> shift);
        int[] first = new int[runs + 2];
        first[0] = shift;
        for (int run = 0, k = 0; run <= runs; run++) {
            while (k < epBase.length && epBase[k] >>> shift < run) k++;
            first[run + 1] = k;
        }
        return first;
    }

    /**
     * A whole table in one task: init, then every ply on that slice itself (no one else sees it, so nothing is copied
     * and the kings' un-moves need no shuffle), then its results. A task run again starts again from init.
     */
    static SolvedPartition solveAlone(PositionIndex index, MoveGenerator gen, Successors exits, long lo, long hi, int bytePlies,
                                      int filePlies) {
        return init(index, gen, exits, lo, hi, bytePlies, filePlies).solvedInPlace(index, gen);
    }

    /** Every ply applied to this slice itself, a whole table's that no one else sees, then its results ({@link #solveAlone}). */
    SolvedPartition solvedInPlace(PositionIndex index, MoveGenerator gen) {
        int lastEvent = lastEventPly();
        while (frontierSize > 0 || ply < lastEvent) applyInPlace(ply + 1, index, gen, true, java.util.Collections.emptyIterator());
        return solvedPartition();
    }

    /** A slice asked for at another ply than its own: the slices of two plies were mixed up. */
    private String atAnotherPly(int wanted) {
        return "the slice from index " + lo + " is at ply " + ply + ", not " + wanted;
    }

    /**
     * The solved slice's results alone (its en-passant entries dropped, what is undecided a draw), each ply up to
     * {@link #filePlies} in its byte, later ones as the byte {@code filePlies + 1} and listed with their plies: what
     * the exports read.
     */
    SolvedPartition solvedPartition() {
        int tableEntries = (int) (2 * (hi - lo));
        byte[] bytes = new byte[tableEntries];
        for (int e = 0; e < tableEntries; e++) {
            int s = state[e] & 0xFF;
            bytes[e] = (byte) (s == NONE || decided(s) ? s : Result.DRAW);
        }
        int n = 0;
        for (int c = 0; c < latePly.length; c++) {
            int q = latePly[c];
            for (int e : lateEntries[c]) bytes[e] = (byte) (Result.code(Math.min(q, filePlies)));
            if (q > filePlies) n += lateEntries[c].length;
        }
        long[] late = new long[n]; // the slice's entry << 32 | ply: sorted, by entry
        n = 0;
        for (int c = 0; c < latePly.length; c++)
            if (latePly[c] > filePlies) for (int e : lateEntries[c]) late[n++] = (long) e << 32 | latePly[c];
        Arrays.sort(late);
        long[] entries = new long[n];
        int[] plies = new int[n];
        for (int k = 0; k < n; k++) {
            entries[k] = 2 * lo + (late[k] >>> 32);
            plies[k] = (int) late[k];
        }
        return new SolvedPartition(lo, bytes, LatePlies.of(filePlies, entries, plies), byExits(bytes, late));
    }

    /**
     * The kernel of the marks: the table entries whose captures and promotions give their final result ({@code
     * bytes}, the plies past a byte {@code late}, which are never marked), as {@link SolvedPartition#byExits} says.
     * An exit leads where the best moves lead exactly when the entry ends at its win event's ply (no quiet move
     * mates sooner), at its loss event's ply (none holds out longer), or drawn with a drawing exit: init looked the
     * exits up once, so the export need not search them again.
     */
    BitSet byExits(byte[] bytes, long[] late) {
        BitSet marks = new BitSet(bytes.length);
        for (int e = drawnByExits.nextSetBit(0); e >= 0; e = drawnByExits.nextSetBit(e + 1)) if (bytes[e] == Result.DRAW) marks.set(e);
        for (PlyEvents events : new PlyEvents[] {wins, losses})
            for (int q = 0; q <= events.lastPly(); q++) {
                int code = Result.code(q);
                events.forEach(q, e -> {
                    if (e < bytes.length && (bytes[e] & 0xFF) == code) marks.set(e);
                });
            }
        for (long entryAndPly : late) marks.clear((int) (entryAndPly >>> 32));
        return marks;
    }

    /** Whether state {@code s} is a decided entry's result code. */
    private boolean decided(int s) { return s != CANNOT_LOSE && s <= bytePlies + 1; }

    /** Un-move keys gathered before they reach their entries (see {@link #reachAll}): their bytes fit the L2 cache. */
    static final int REACH_BATCH = 1 << 11;
    /** Where {@link #reachAll}'s first pass leaves what it read, so that the JIT keeps those reads. */
    private transient int warmed;

    /**
     * {@link #reach} for {@code n} keys, {@link #REACH_BATCH} at a time: each batch's entries are first read in a loop of
     * independent loads, whose cache misses overlap, then reached from the cache (one miss after another, when each
     * key came after its un-move's index arithmetic: a third of a large table's solve).
     */
    private void reachAll(int q, long[] keys, int n) {
        for (int from = 0; from < n; from += REACH_BATCH) {
            int to = Math.min(n, from + REACH_BATCH), read = 0;
            for (int k = from; k < to; k++) read += state[(int) ((keys[k] >>> 3) - 2 * lo)];
            warmed += read;
            for (int k = from; k < to; k++) reach(q, keys[k]);
        }
    }

    /** An un-move reaching an entry: the same moves of its en-passant entries too. */
    private void reach(int q, long key) {
        int e = (int) ((key >>> 3) - 2 * lo), weight = (int) (key & 7) + 1;
        touch(q, e, weight);
        for (int k = epBase.length == 0 ? 0 : firstEnPassant(e); k < epBase.length && epBase[k] == e; k++) touch(q, (int) (2 * (hi - lo)) + k, weight);
    }

    /**
     * An earlier position reached at ply {@code q}, by {@code weight} of its moves: undecided, it wins at an odd ply;
     * at an even ply its moves left go down by the weight, and it is lost when none is left.
     */
    private void touch(int q, int e, int weight) {
        int s = state[e] & 0xFF;
        if (s == NONE || decided(s)) return;
        if (q % 2 == 0) {
            if (s == CANNOT_LOSE) return;
            int left = s - weight, none = bytePlies + 1;
            if (left < none) throw new TableInvariantException("entry " + e + " of the slice from " + lo + " refuted more often than it has moves");
            if (left > none) {
                state[e] = (byte) left;
                return;
            }
        }
        state[e] = (byte) Result.code(Math.min(q, bytePlies));
        if (frontierSize == frontier.length) frontier = Arrays.copyOf(frontier, 2 * frontierSize);
        frontier[frontierSize++] = e;
    }

    /** Pairs of ints, in the order added: each en-passant entry's entry without the right and pushed pawn. */
    static final class IntPairs {
        private int[] keys = new int[16], values = new int[16];
        private int size;

        void add(int key, int value) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, 2 * size);
                values = Arrays.copyOf(values, 2 * size);
            }
            keys[size] = key;
            values[size++] = value;
        }

        int size() { return size; }

        int[] keys() { return Arrays.copyOf(keys, size); }

        int[] values() { return Arrays.copyOf(values, size); }
    }
}
