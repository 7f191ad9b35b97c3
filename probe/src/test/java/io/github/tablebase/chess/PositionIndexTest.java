package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PositionIndexTest {
    /** The smallest key among a position's eight images: one value per symmetry class. */
    private static long classOf(Position p) {
        return IntStream.range(0, 8).mapToLong(s -> p.transform(s).key()).min().orElseThrow();
    }

    private static boolean placeable(Position p) {
        return p.illegalReason() == null || !p.illegalReason().startsWith("two pieces") && !p.illegalReason().equals("the kings touch");
    }

    @Test
    void thereAre462ClassesOfKingPairs() {
        assertEquals(462, new PositionIndex(Material.parse("KQK")).kingPairs());
    }

    /** Every placement (kings apart, squares distinct) of the material, White to move. */
    private static void checkEveryPlacement(Material material, PositionIndex index) {
        Set<Long> classes = new HashSet<>(), indexes = new HashSet<>();
        int n = material.size();
        for (long key = 0; key < 1L << (6 * n); key++) {
            Position p = Position.fromKey(material, key);
            if (p.key() != key || !placeable(p)) continue;
            long i = index.index(p);
            for (int s = 1; s < 8; s++) assertEquals(i, index.index(p.transform(s)), () -> "symmetry of " + p);
            Position decoded = index.position(i, Color.WHITE);
            assertNotNull(decoded);
            assertEquals(p.transform(index.canonicalSymmetry(p)), decoded, () -> "decoding the index of " + p);
            int symmetries = index.canonicalSymmetries(p);
            for (int s = 0; s < 8; s++)
                assertEquals(p.transform(s).equals(decoded), (symmetries >> s & 1) == 1, "symmetry " + s + " of " + p);
            classes.add(classOf(p));
            indexes.add(i);
        }
        assertEquals(classes.size(), indexes.size(), "one index per class of positions");
    }

    @Test
    void everyKqkPlacementHasOneIndexPerSymmetryClass() {
        checkEveryPlacement(Material.parse("KQK"), new PositionIndex(Material.parse("KQK")));
        assertEquals(462L * (64 * 63 / 2), new PositionIndex(Material.parse("KBBK")).size(),
                "two identical bishops are one combination of squares");
    }

    @Test
    void canonicalIndexesDecodeToThemselves() {
        for (String name : new String[] {"KQK", "KBBK"}) { // a lone piece, and a pair decoded from its rank
            PositionIndex index = new PositionIndex(Material.parse(name));
            Set<Long> classes = new HashSet<>();
            long canonical = 0;
            for (long i = 0; i < index.size(); i++) {
                Position p = index.position(i, Color.BLACK);
                if (p == null) continue;
                assertTrue(index.index(p) <= i, () -> "a decoded position's index is its own or a smaller image's");
                if (index.index(p) == i) canonical++;
                classes.add(classOf(p));
            }
            assertEquals(classes.size(), canonical, name);
        }
    }

    /** The indexes holding a legal position are those of every legal placement of the pieces, side by side. */
    @Test
    void theIndexesHoldingALegalPositionAreThoseOfEveryLegalPlacement() {
        PositionIndex index = new PositionIndex(Material.parse("KRK"));
        for (Color side : Color.values()) {
            Set<Long> placed = new HashSet<>();
            for (int wk = 0; wk < 64; wk++)
                for (int r = 0; r < 64; r++)
                    for (int bk = 0; bk < 64; bk++) {
                        if (wk == r || wk == bk || r == bk) continue;
                        Position p = new Position(index.material(), new int[] {wk, r, bk}, side);
                        if (p.isLegal()) placed.add(index.index(p));
                    }
            Set<Long> held = new HashSet<>();
            for (long i = 0; i < index.size(); i++) {
                Position p = index.legalPosition(i, side);
                if (p == null) continue;
                held.add(i);
                assertEquals(i, index.index(p));
            }
            assertEquals(placed, held, side.toString());
        }
    }

    /**
     * Stepping through a range with decodeNext places the pieces as decoding each index whole does, and tells the
     * canonical ones as the index of the placed pieces does: every index of materials with a lone piece, a pair, pawns
     * and three identical pieces (the first two whole, with their symmetric king pairs), and a stretch of a run of four
     * (decoded by search).
     */
    @Test
    void steppingThroughIndexesDecodesEachAsWhole() {
        for (String name : new String[] {"KQK", "KBBK", "KPKP", "KPPK", "KRRRK", "KRRRRK"}) {
            PositionIndex index = new PositionIndex(Material.parse(name));
            int n = index.material().size();
            int[] stepped = new int[n], whole = new int[n];
            long end = Math.min(index.size(), Math.max(2, 2_000_000 / index.restSize()) * index.restSize() + 977), notCanonical = 0;
            boolean placed = index.decode(0, stepped);
            for (long i = 0; i < end; i++) {
                if (i > 0) placed = index.decodeNext(i, stepped);
                boolean expected = index.decode(i, whole);
                long at = i;
                assertEquals(expected, placed, () -> name + " index " + at);
                assertTrue(java.util.Arrays.equals(whole, stepped), () -> name + " index " + at);
                if (expected) {
                    boolean canonical = index.index(whole) == i;
                    assertEquals(canonical, index.canonicalDecoded(i, stepped), () -> name + " index " + at);
                    if (!canonical) notCanonical++;
                }
            }
            if (index.size() == end) assertTrue(notCanonical > 0 == !name.contains("P"), name + ": placements on symmetric king pairs");
        }
    }

    @Test
    void materialsWithBlackPiecesRoundTripOnRandomPositions() {
        Random random = new Random(4);
        // up to three runs of one or two pieces (the straight-line rest), then three identical pieces and four runs (run by run)
        for (String name : new String[] {"KBBK", "KRKN", "KQKR", "KBBKN", "KQQKQ", "KRNKB", "KQQQK", "KRBNKQ"}) {
            Material m = Material.parse(name);
            PositionIndex index = new PositionIndex(m);
            for (int t = 0; t < 20_000; t++) {
                Position p = Position.randomLegal(m, random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
                long i = index.index(p);
                assertTrue(i >= 0 && i < index.size());
                int s = random.nextInt(8);
                assertEquals(i, index.index(p.transform(s)));
                assertEquals(p.transform(index.canonicalSymmetry(p)), index.position(i, p.sideToMove()), p::toString);
            }
        }
    }

    @Test
    void aPieceMovedChangesItsRunsDigitAloneAsTheWholeIndexSays() {
        Random random = new Random(6);
        for (String name : new String[] {"KRNKR", "KQQKQ", "KBNK", "KRPKR", "KPKP", "KNPKN", "KRRKPP", "KQQQK"}) {
            Material m = Material.parse(name);
            PositionIndex index = new PositionIndex(m);
            int shortcuts = 0;
            for (int t = 0; t < 2_000; t++) {
                int[] squares = Position.randomLegal(m, Color.WHITE, random).squares();
                long i = index.index(squares);
                for (int piece = 0; piece < m.size(); piece++)
                    for (int to = 0; to < 64; to++) {
                        if (MoveGenerator.pieceAt(squares, to) >= 0) continue;
                        boolean pawn = m.piece(piece).type() == PieceType.PAWN;
                        if (pawn && (to < 8 || to >= 56)) continue;
                        long moved = index.indexAfterMove(i, squares, piece, to);
                        boolean king = piece == m.kingIndex(Color.WHITE) || piece == m.kingIndex(Color.BLACK);
                        boolean whole = king || index.symmetricKingPair(i) || name.equals("KQQQK");
                        assertEquals(whole, moved < 0, name);
                        if (moved < 0) continue;
                        int from = squares[piece];
                        squares[piece] = to;
                        assertEquals(index.index(squares), moved, () -> name + " " + java.util.Arrays.toString(squares));
                        squares[piece] = from;
                        shortcuts++;
                    }
            }
            assertTrue(name.equals("KQQQK") ? shortcuts == 0 : shortcuts > 10_000, name + ": " + shortcuts);
        }
    }

    @Test
    void threeIdenticalPiecesAreTheirColexRank() {
        Random random = new Random(5);
        for (String name : new String[] {"KQQQK", "KPPPK"}) {
            Material m = Material.parse(name);
            PositionIndex index = new PositionIndex(m);
            int offset = m.hasPawns() ? 8 : 0;
            for (int t = 0; t < 20_000; t++) {
                long i = index.index(Position.randomLegal(m, Color.WHITE, random));
                int[] s = index.position(i, Color.WHITE).squaresUnchanged();
                int[] three = {s[1] - offset, s[2] - offset, s[3] - offset};
                java.util.Arrays.sort(three);
                long colex = three[0] + three[1] * (three[1] - 1L) / 2 + three[2] * (three[2] - 1L) * (three[2] - 2) / 6;
                assertEquals(colex, i % index.restSize(), name);
            }
        }
    }

    @Test
    void aProbesIndexIsTheIndexOrNoneForTouchingKings() {
        Material kqk = Material.parse("KQK");
        PositionIndex index = new PositionIndex(kqk);
        for (int wk = 0; wk < 64; wk++)
            for (int q = 0; q < 64; q++)
                for (int bk = 0; bk < 64; bk++) {
                    Position p = new Position(kqk, new int[] {wk, q, bk}, Color.WHITE);
                    if (Square.distance(wk, bk) <= 1) assertEquals(PositionIndex.NONE, index.indexOrNone(p));
                    else assertEquals(index.index(p), index.indexOrNone(p));
                }
    }

    @Test
    void touchingKingsAndOutOfRangeIndexesAreRefused() {
        PositionIndex kqk = new PositionIndex(Material.parse("KQK"));
        assertThrows(IllegalArgumentException.class, () -> kqk.index(Fen.parse("8/8/8/8/8/8/1k6/KQ6 w - - 0 1")));
        assertThrows(IllegalArgumentException.class, () -> kqk.position(kqk.size(), Color.WHITE));
    }
}
