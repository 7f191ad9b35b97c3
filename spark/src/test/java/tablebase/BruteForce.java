package tablebase;

import java.util.Arrays;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;

/**
 * A tablebase computed the slow, obvious way, to check the Spark job against: forward move generation
 * over every position, repeated rounds of "White wins in r if some move reaches a Black position lost in
 * r - 1; Black is lost in r if every move reaches a White win", until nothing changes. Captures lead to
 * smaller material, which for the endgames checked here is a draw.
 */
public final class BruteForce {
    private final Material material;
    /** Indexed by position key: White's mate distance (0: not won) or Black's moves-to-mate (-1: not lost). */
    private final int[] value;

    private BruteForce(Material material, int[] value) {
        this.material = material;
        this.value = value;
    }

    public static BruteForce solve(Material material) {
        int keys = 1 << (6 * material.size() + 1);
        int[][] children = new int[keys][];
        boolean[] escapes = new boolean[keys];
        int[] value = new int[keys];
        Arrays.fill(value, Integer.MIN_VALUE);
        for (int key = 0; key < keys; key++) {
            Position p = Position.fromKey(material, key);
            if (p.key() != key || !p.isLegal()) continue;
            children[key] = p.legalMoves().stream().filter(m -> !m.isCapture()).mapToInt(m -> (int) p.play(m).key()).toArray();
            escapes[key] = p.legalMoves().stream().anyMatch(Move::isCapture);
            boolean white = p.sideToMove() == Color.WHITE;
            value[key] = white ? 0 : (p.isCheckmate() ? 0 : -1);
        }
        for (int round = 1; ; round++) {
            boolean changed = false;
            for (int key = 0; key < keys; key++) {
                if (children[key] == null || !isWhite(material, key) || value[key] != 0) continue;
                for (int child : children[key]) {
                    if (value[child] == round - 1) { value[key] = round; changed = true; break; }
                }
            }
            for (int key = 0; key < keys; key++) {
                if (children[key] == null || isWhite(material, key) || value[key] != -1) continue;
                if (escapes[key] || children[key].length == 0) continue;
                boolean allWon = true;
                for (int child : children[key]) allWon &= value[child] > 0;
                if (allWon) { value[key] = round; changed = true; }
            }
            if (!changed) return new BruteForce(material, value);
        }
    }

    private static boolean isWhite(Material m, int key) { return (key >>> (6 * m.size())) == 0; }

    /** White's mate distance, 0 when White to move does not win (or the key is no legal position). */
    public int whiteDtm(long key) { int v = value[(int) key]; return v > 0 ? v : 0; }

    /** Black's distance to mate, -1 when Black to move is not lost. */
    public int blackDtm(long key) { int v = value[(int) key]; return v == Integer.MIN_VALUE ? -1 : v; }

    public long count(Color side) {
        long n = 0;
        for (int key = 0; key < value.length; key++) {
            if (value[key] == Integer.MIN_VALUE || isWhite(material, key) != (side == Color.WHITE)) continue;
            if (side == Color.WHITE ? value[key] > 0 : value[key] >= 0) n++;
        }
        return n;
    }
}
