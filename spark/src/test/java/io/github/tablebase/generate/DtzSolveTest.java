package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MaterialChange;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.table.DtzCodes;
import io.github.tablebase.table.Successors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The DTZ kernel against a brute force that knows nothing of DTZ: each position's result at every halfmove clock,
 * from its moves (a position with the clock at the rule's limit is drawn unless checkmated; a zeroing move sets the
 * clock to 0), with the rule ignored for the cursed results. A win within the rule is one at clock 0, its DTZ the
 * rule less the highest clock it still wins at (the same for losses); a cursed win wins without the rule only. The
 * rule is shortened to make cursed results in three-piece tables, where the game's 100 plies make none.
 */
class DtzSolveTest {
    private static final Map<String, DtzCodes> SOLVED = new HashMap<>();
    private static final Map<String, Oracle> ORACLES = new HashMap<>();

    @Test
    void threePieceTablesAgreeWithTheClockAtEveryPosition() {
        for (int rule : new int[] {Dtz.RULE_PLIES, 9}) {
            for (String name : new String[] {"KRK", "KQK", "KPK"}) {
                Material m = Material.parse(name);
                Oracle o = oracle(m, rule);
                DtzCodes codes = dtz(m, rule);
                int[] counts = new int[5];
                for (int e = 0; e < codes.size(); e++) {
                    String where = name + " rule " + rule + " entry " + e;
                    if (!o.legal[e]) {
                        assertEquals(Dtz.NONE, codes.get(e), where);
                        continue;
                    }
                    int expectedWdl = o.wdl(e);
                    assertEquals(expectedWdl, Dtz.wdl(codes.get(e), rule), where);
                    counts[expectedWdl + 2]++;
                    if (Math.abs(expectedWdl) == 2) assertEquals(o.dtz(e), Dtz.signed(codes.get(e)), where);
                }
                if (rule < Dtz.RULE_PLIES && !name.equals("KPK")) assertTrue(counts[1] > 0 && counts[3] > 0, name + " has cursed results under a rule of " + rule);
            }
        }
    }

    /**
     * The results of each position's moves give its own, every position of a 4-piece table: KRKN under a short rule
     * (cursed results), KNKP under the game's and a short one, where Black's pawn moves lose at once (losses and wins
     * at plies of either parity, as no pawnless table has them).
     */
    @Test
    void everyPositionOfTwoFourPieceTablesAgreesWithItsMoves() {
        assertTrue(checkAgainstMoves("KRKN", 20)[3] > 0, "KRKN has cursed wins under a rule of 20");
        int[] game = checkAgainstMoves("KNKP", Dtz.RULE_PLIES), shortRule = checkAgainstMoves("KNKP", 30);
        assertTrue(game[0] > 0 && shortRule[1] > 0, "KNKP has losses in an odd number of plies, and blessed losses under a rule of 30");
    }

    /**
     * The codes do not hang on the threads that solve them (one, or more than the cores, interleaved as they come), nor
     * on the arrays that hold them (a table's own, or thousands of 1,024 entries: a 6-piece table's past 2^30 entries).
     */
    @Test
    void theCodesAreTheSameOnOneThreadAsOnManyInOneArrayAsInMany() {
        for (String name : new String[] {"KRKN", "KNKP"}) {
            Material m = Material.parse(name);
            DtzCodes one = DtzSolve.solve(new PositionIndex(m), new MoveGenerator(m), exits(m, 30), 30, 1, DtzCodes.SEGMENT_BITS);
            DtzCodes many = DtzSolve.solve(new PositionIndex(m), new MoveGenerator(m), exits(m, 30), 30, 5, 10);
            assertEquals(one.size(), many.size(), name);
            for (long e = 0; e < one.size(); e++) assertEquals(one.get(e), many.get(e), name + " entry " + e);
        }
    }

    /** Checks each entry of a table (pawns of one side at most: no en passant) against its moves; counts odd losses, blessed losses, draws, cursed wins. */
    private static int[] checkAgainstMoves(String name, int rule) {
        Material m = Material.parse(name);
        DtzCodes codes = dtz(m, rule);
        PositionIndex index = new PositionIndex(m);
        Successors exits = exits(m, rule);
        MoveGenerator gen = new MoveGenerator(m);
        int[] squares = new int[m.size()], moves = new int[256], counts = new int[4];
        for (long i = 0; i < index.size(); i++) {
            if (!index.decode(i, squares) || index.index(squares) != i) continue;
            for (int side = 0; side < 2; side++) {
                int e = (int) (2 * i + side);
                if (gen.opponentInCheck(squares, side)) continue;
                int n = gen.legalMoves(squares, side, moves), best = Dtz.NONE;
                for (int k = 0; k < n; k++) {
                    boolean stays = MoveGenerator.staysInTable(squares, moves[k]);
                    int p = MoveGenerator.piece(moves[k]), after;
                    if (stays) {
                        int from = squares[p];
                        squares[p] = MoveGenerator.to(moves[k]);
                        after = codes.get(2 * index.index(squares) + 1 - side);
                        squares[p] = from;
                    } else {
                        after = exits.exitResult(squares, moves[k], 1 - side);
                    }
                    boolean zeroing = !stays || m.piece(p).type() == PieceType.PAWN;
                    int worth = Dtz.byMove(after, zeroing, rule);
                    best = Dtz.better(best, worth);
                }
                int expected = n > 0 ? best : gen.inCheck(squares, side) ? Dtz.loss(0) : Dtz.DRAW;
                assertEquals(expected, codes.get(e), name + " rule " + rule + " entry " + e);
                if (Dtz.loses(codes.get(e)) && Dtz.plies(codes.get(e)) % 2 == 1) counts[0]++;
                int wdl = Dtz.wdl(codes.get(e), rule);
                if (wdl == -1) counts[1]++;
                else if (wdl == 0) counts[2]++;
                else if (wdl == 1) counts[3]++;
            }
        }
        return counts;
    }

    static synchronized DtzCodes dtz(Material m, int rule) {
        String key = m.name() + "/" + rule;
        DtzCodes codes = SOLVED.get(key);
        if (codes == null) {
            codes = DtzSolve.solve(new PositionIndex(m), new MoveGenerator(m), exits(m, rule), rule);
            SOLVED.put(key, codes);
        }
        return codes;
    }

    /** The smaller tables' DTZ, each solved here first. */
    static Successors exits(Material m, int rule) {
        Map<Material, EntryResults> smaller = new HashMap<>();
        for (MaterialChange.Exit exit : MaterialChange.exits(m)) {
            Material after = exit.change().after().tableMaterial();
            if (after.size() > 2 && !smaller.containsKey(after)) {
                DtzCodes codes = dtz(after, rule);
                smaller.put(after, codes);
            }
        }
        return new Successors(m, null, smaller);
    }

    private static Oracle oracle(Material m, int rule) {
        String key = m.name() + "/" + rule;
        Oracle o = ORACLES.get(key);
        if (o == null) {
            o = new Oracle(m, rule);
            ORACLES.put(key, o);
        }
        return o;
    }

    /**
     * The brute force, over a table's positions and those just after a double push that may be taken en passant:
     * each node's moves, then its result at every clock and without the rule. Results for the side to move: 1 loss,
     * 2 draw, 3 win.
     */
    private static final class Oracle {
        static final byte LOSS = 1, DRAW = 2, WIN = 3;
        final int rule, entries;
        final boolean[] legal;
        final List<int[]> moveTargets = new ArrayList<>(); // per node: target << 2 | kind, or a fixed result << 2 | FIXED
        final List<byte[]> fixedWithoutRule = new ArrayList<>();
        final List<Boolean> inCheck = new ArrayList<>();
        final List<Integer> level = new ArrayList<>();
        final byte[][] atClock;
        final byte[] withoutRule;
        static final int QUIET = 0, ZEROING = 1, FIXED = 2;
        private final PositionIndex index;
        private final Map<Long, Integer> enPassantNodes = new HashMap<>();

        Oracle(Material m, int rule) {
            this.rule = rule;
            index = new PositionIndex(m);
            entries = (int) (2 * index.size());
            legal = new boolean[entries];
            int[] squares = new int[m.size()];
            for (int e = 0; e < entries; e++) {
                moveTargets.add(null);
                fixedWithoutRule.add(null);
                inCheck.add(false);
                level.add(0);
            }
            for (int e = 0; e < entries; e++) {
                long i = e / 2;
                if (!index.decode(i, squares) || index.index(squares) != i) continue;
                Position p = new Position(m, squares, e % 2 == 0 ? Color.WHITE : Color.BLACK);
                if (!p.isLegal()) continue;
                legal[e] = true;
                build(e, p);
            }
            atClock = new byte[rule + 1][moveTargets.size()];
            int top = level.stream().mapToInt(Integer::intValue).max().orElse(0);
            for (int l = top; l >= 0; l--)
                for (int c = rule; c >= 0; c--)
                    for (int node = 0; node < moveTargets.size(); node++)
                        if (moveTargets.get(node) != null && level.get(node) == l) atClock[c][node] = resultAt(node, c);
            withoutRule = new byte[moveTargets.size()];
            for (boolean changed = true; changed; ) {
                changed = false;
                for (int node = 0; node < moveTargets.size(); node++) {
                    if (moveTargets.get(node) == null || withoutRule[node] != 0) continue;
                    byte r = resultWithoutRule(node);
                    if (r != 0) {
                        withoutRule[node] = r;
                        changed = true;
                    }
                }
            }
        }

        /** The node of a position of this table (its en-passant right, if any, making a node of its own). */
        private int node(Position q) {
            int e = (int) (2 * index.index(q) + (q.sideToMove() == Color.WHITE ? 0 : 1));
            if (q.enPassant() < 0) return e;
            long key = (long) e * 64 + q.enPassant();
            Integer known = enPassantNodes.get(key);
            if (known != null) return known;
            int node = moveTargets.size();
            enPassantNodes.put(key, node);
            moveTargets.add(null);
            fixedWithoutRule.add(null);
            inCheck.add(false);
            level.add(0);
            build(node, q);
            return node;
        }

        private void build(int node, Position p) {
            List<Move> moves = p.legalMoves();
            int[] targets = new int[moves.size()];
            byte[] fixed = new byte[moves.size()];
            for (int k = 0; k < moves.size(); k++) {
                Move mv = moves.get(k);
                Position q = p.play(mv);
                if (q.material().equals(p.material())) {
                    boolean zeroing = p.piece(mv.piece()).type() == PieceType.PAWN;
                    targets[k] = node(q) << 2 | (zeroing ? ZEROING : QUIET);
                } else if (q.material().size() == 2) {
                    targets[k] = DRAW << 2 | FIXED;
                    fixed[k] = DRAW;
                } else {
                    Position t = q.material().isTableMaterial() ? q : q.coloursSwapped();
                    Oracle o = oracle(t.material(), rule);
                    int e = (int) (2 * o.index.index(t) + (t.sideToMove() == Color.WHITE ? 0 : 1));
                    targets[k] = o.atClock[0][e] << 2 | FIXED;
                    fixed[k] = o.withoutRule[e];
                }
            }
            moveTargets.set(node, targets);
            fixedWithoutRule.set(node, fixed);
            inCheck.set(node, p.inCheck());
            int l = 0;
            for (int k = 0; k < p.material().size(); k++) {
                if (p.piece(k).type() != PieceType.PAWN) continue;
                int rank = Square.rank(p.square(k));
                l += p.piece(k).color() == Color.WHITE ? rank - 1 : 6 - rank;
            }
            level.set(node, l);
        }

        private byte resultAt(int node, int clock) {
            int[] targets = moveTargets.get(node);
            if (targets.length == 0) return inCheck.get(node) ? LOSS : DRAW;
            if (clock == rule) return DRAW;
            byte best = LOSS;
            for (int t : targets) {
                int kind = t & 3, target = t >>> 2;
                byte after = kind == FIXED ? (byte) target : atClock[kind == ZEROING ? 0 : clock + 1][target];
                byte mine = (byte) (4 - after);
                if (mine > best) best = mine;
            }
            return best;
        }

        private byte resultWithoutRule(int node) {
            int[] targets = moveTargets.get(node);
            if (targets.length == 0) return inCheck.get(node) ? LOSS : DRAW;
            boolean allWin = true;
            byte[] fixed = fixedWithoutRule.get(node);
            for (int k = 0; k < targets.length; k++) {
                byte after = (targets[k] & 3) == FIXED ? fixed[k] : withoutRule[targets[k] >>> 2];
                if (after == LOSS) return WIN;
                if (after != WIN) allWin = false;
            }
            return allWin ? LOSS : 0;
        }

        /** Five-valued WDL. */
        int wdl(int e) {
            if (atClock[0][e] == WIN) return 2;
            if (atClock[0][e] == LOSS) return -2;
            byte r = withoutRule[e];
            return r == WIN ? 1 : r == LOSS ? -1 : 0;
        }

        /** Signed DTZ of a result within the rule: the rule less the highest clock at which it still holds. */
        int dtz(int e) {
            byte r = atClock[0][e];
            int c = 0;
            while (c < rule && atClock[c + 1][e] == r) c++;
            return (r == WIN ? 1 : -1) * (rule - c);
        }
    }
}
