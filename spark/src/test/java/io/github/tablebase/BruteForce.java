package io.github.tablebase;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tablebase computed the slow, obvious way, to check the engine against: forward move generation over every
 * position key ({@link Position#key}), then rounds of minimax by ply until nothing changes. Round {@code r}: an
 * undecided position wins at an odd {@code r} if a move reaches a position lost at {@code r - 1}, and is lost at an
 * even {@code r} if every move reaches a position won before. Captures and promotions lead to other materials,
 * whose brute force is given (bare kings are a draw).
 */
public final class BruteForce {
    /** Plies of a position: a draw, and no legal position. */
    public static final int DRAW = Result.ply(Result.DRAW), NO_POSITION = -2;
    private final int[] ply;

    private BruteForce(int[] ply) { this.ply = ply; }

    /** Solves {@code material}; {@code smaller} holds the brute force of every material its captures and promotions reach. */
    public static BruteForce solve(Material material, Map<Material, BruteForce> smaller) {
        int keys = 1 << (6 * material.size() + 1);
        int[][] children = new int[keys][], exits = new int[keys][];
        int[] ply = new int[keys];
        java.util.Arrays.fill(ply, NO_POSITION);
        for (int key = 0; key < keys; key++) {
            Position p = Position.fromKey(material, key);
            if (p.key() != key || !p.isLegal()) continue;
            List<Integer> inTable = new ArrayList<>(), out = new ArrayList<>();
            for (Move m : p.legalMoves()) {
                Position after = p.play(m);
                if (after.material() == material) inTable.add((int) after.key());
                else out.add(after.material().size() == 2 ? DRAW : smaller.get(after.material()).ply(after.key()));
            }
            children[key] = inTable.stream().mapToInt(Integer::intValue).toArray();
            exits[key] = out.stream().mapToInt(Integer::intValue).toArray();
            ply[key] = children[key].length + exits[key].length == 0 && p.inCheck() ? 0 : DRAW;
        }
        int lastExit = 0;
        for (int[] e : exits) if (e != null) for (int q : e) lastExit = Math.max(lastExit, q + 1);
        for (int r = 1; ; r++) {
            List<Integer> decided = new ArrayList<>();
            for (int key = 0; key < keys; key++) {
                if (ply[key] != DRAW || children[key].length + exits[key].length == 0) continue;
                boolean win = false, allWon = true;
                for (int[] list : new int[][] {exits[key], children[key]})
                    for (int v : list) {
                        int q = list == exits[key] ? v : ply[v];
                        if (q == r - 1 && r % 2 == 1) win = true;
                        if (q < 0 || q % 2 == 0 || q >= r) allWon = false;
                    }
                if (win || r % 2 == 0 && allWon) decided.add(key);
            }
            for (int key : decided) ply[key] = r;
            if (decided.isEmpty() && r > lastExit + 1) return new BruteForce(ply);
        }
    }

    /** The ply of a position key: even, the side to move is mated in ply / 2 moves; odd, it mates in (ply + 1) / 2; or {@link #DRAW}, {@link #NO_POSITION}. */
    public int ply(long key) { return ply[(int) key]; }
}
