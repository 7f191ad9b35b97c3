package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The un-move kernel against a count made forwards: for each canonical position E and canonical earlier position
 * P, the weights of the un-moves from E that reach P add up to the number of P's moves whose canonical result is
 * E, symmetric positions included (where one move stands for several, or two un-moves for one move).
 */
class TableSliceTest {
    /**
     * The en-passant entries of an entry found from its run's start are where a search of the whole list finds them:
     * every entry of tables of sparse and dense lists, with repeats (one entry, two pawns that may be taken), and none.
     */
    @Test
    void enPassantRunsFindWhatASearchFinds() {
        java.util.Random random = new java.util.Random(3);
        for (int count : new int[] {0, 1, 7, 1000, 40_000}) {
            int entries = 1 + random.nextInt(200_000);
            int[] epBase = random.ints(count, 0, entries).sorted().toArray();
            int[] first = TableSlice.enPassantBuckets(epBase, entries);
            assertTrue(first.length <= 2 * count + 3 + 2, "about two runs an en-passant entry: " + first.length);
            for (int e = 0; e < entries; e++) {
                int a = 0, b = epBase.length;
                while (a < b) {
                    int mid = (a + b) >>> 1;
                    if (epBase[mid] < e) a = mid + 1; else b = mid;
                }
                assertEquals(a, TableSlice.firstEnPassant(epBase, first, e), count + " en-passant entries, entry " + e);
            }
        }
    }

    @Test
    void unmoveWeightsCountEachMoveIntoAClassOnce() {
        check(Material.parse("KQK"), false);
        check(Material.parse("KBBK"), true);
    }

    /** With {@code symmetricOnly}, only frontier positions on a symmetric king pair (where the dedupe matters). */
    private static void check(Material material, boolean symmetricOnly) {
        PositionIndex index = new PositionIndex(material);
        MoveGenerator gen = new MoveGenerator(material);
        long entries = 2 * index.size();
        Map<Long, Integer> forwards = new HashMap<>(), backwards = new HashMap<>();
        int[] squares = new int[material.size()], unmoves = new int[256];
        long symmetricSeen = 0, weighted = 0;
        for (long i = 0; i < index.size(); i++) {
            if (!index.decode(i, squares) || index.index(squares) != i) continue;
            for (Color side : Color.values()) {
                Position p = new Position(material, squares, side);
                if (!p.isLegal()) continue;
                long pKey = 2 * i + (side == Color.WHITE ? 0 : 1);
                for (Move m : p.legalMoves()) { // forwards: P's quiet moves into each class
                    if (m.isCapture()) continue;
                    Position after = p.play(m);
                    long e = index.index(after);
                    if (symmetricOnly && !index.symmetricKingPair(e)) continue;
                    forwards.merge((2 * e + (side == Color.WHITE ? 1 : 0)) * entries + pKey, 1, Integer::sum);
                }
                if (symmetricOnly && !index.symmetricKingPair(i)) continue;
                int s = side == Color.WHITE ? 0 : 1;
                int self = index.symmetricKingPair(i) ? index.canonicalSymmetries(squares) : 1;
                if (Integer.bitCount(self) > 1) symmetricSeen++;
                int n = gen.unmoves(squares, s, true, true, unmoves);
                for (int k = 0; k < n; k++) { // backwards: the kernel's keys
                    long key = TableSlice.unmove(index, squares, s, self, unmoves[k]);
                    if (key < 0) continue;
                    int weight = (int) (key & 7) + 1;
                    if (weight > 1) weighted++;
                    backwards.merge((2 * i + s) * entries + (key >>> 3), weight, Integer::sum);
                }
            }
        }
        assertEquals(forwards, backwards, material.name());
        assertTrue(symmetricSeen > 0 && weighted > 0, material + ": " + symmetricSeen + " symmetric frontier positions, " + weighted + " weighted un-moves");
    }
}
