package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PositionTest {
    /** Every placement of the material's pieces with either side to move, legal or not. */
    static List<Position> everyPosition(Material material) {
        List<Position> all = new ArrayList<>();
        int n = material.size();
        long count = 1L << (6 * n + 1);
        for (long key = 0; key < count; key++) {
            Position p = Position.fromKey(material, key);
            if (p.key() == key) all.add(p); // skips the unsorted twin of identical pieces
        }
        return all;
    }

    @Test
    void unmovesAreExactlyTheInverseOfMovesOverEveryKrkPosition() {
        Material krk = Material.parse("KRK");
        Map<Position, Set<Position>> parents = new HashMap<>();
        List<Position> legal = everyPosition(krk).stream().filter(Position::isLegal).toList();
        for (Position p : legal)
            for (Move m : p.legalMoves())
                if (!m.isCapture()) parents.computeIfAbsent(p.play(m), k -> new HashSet<>()).add(p);
        long checked = 0;
        for (Position p : legal) {
            List<Position> unmoves = p.unmoves();
            assertEquals(unmoves.size(), new HashSet<>(unmoves).size(), () -> "repeated un-move in " + p);
            assertEquals(parents.getOrDefault(p, Set.of()), new HashSet<>(unmoves), () -> "un-moves of " + p);
            checked += unmoves.size();
        }
        assertTrue(checked > 1_000_000, "un-moves checked: " + checked);
    }

    @Test
    void keysRoundTripAndFollowTheDocumentedLayout() {
        Material kqk = Material.parse("KQK");
        for (Position p : everyPosition(kqk)) {
            assertEquals(p, Position.fromKey(kqk, p.key()));
            long expected = p.square(0) | (long) p.square(1) << 6 | (long) p.square(2) << 12
                    | (p.sideToMove() == Color.BLACK ? 1L << 18 : 0);
            assertEquals(expected, p.key());
        }
        Material five = Material.parse("KBBKN");
        Random random = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            int[] squares = random.ints(5, 0, 64).toArray();
            Position p = new Position(five, squares, random.nextBoolean() ? Color.WHITE : Color.BLACK);
            assertEquals(p, Position.fromKey(five, p.key()));
            // the two bishops are one piece kind: swapping them is the same position and the same key
            int[] swapped = squares.clone();
            swapped[1] = squares[2];
            swapped[2] = squares[1];
            assertEquals(p.key(), new Position(five, swapped, p.sideToMove()).key());
        }
    }

    @Test
    void fenRoundTripsOverEveryLegalKrkPosition() {
        for (Position p : everyPosition(Material.parse("KRK"))) {
            if (!p.isLegal()) continue;
            assertEquals(p, Fen.parse(Fen.of(p)));
        }
        String fen = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1";
        assertEquals(fen, Fen.of(Fen.parse(fen)));
        assertEquals("KBNK", Fen.parse(fen).material().name());
        assertEquals(Fen.parse(fen), Fen.parse("8/8/8/4k3/8/8/8/KBN5 w"));
    }

    @Test
    void malformedFensAreRejectedWithAReason() {
        String[] bad = {"", "8/8/8 w", "8/8/8/8/8/8/8/8 w", "9/8/8/8/8/8/8/8 w", "k7/8/8/8/8/8/8/K7 x",
                "k7/8/8/8/8/8/8/K7 w KQ", "k7/8/8/8/8/8/8/K7 w - e4", "k7/8/8/8/8/8/8/K7 w - z6", "k7/8/8/8/8/8/8/KK6 w",
                "k7/8/8/8/8/8/8/K8 w", "k7/8/8/8/8/8/8/K6X w", "k7/8/8/8/8/8/8/K7 w - - x 1", "kkkkkkkk/K7/8/8/8/8/8/QQQ5 w"};
        for (String fen : bad) {
            Fen.FenException e = assertThrows(Fen.FenException.class, () -> Fen.parse(fen), fen);
            assertNotNull(e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void legalityCheckAndTheEndsOfTheGame() {
        assertEquals("the kings touch", Fen.parse("8/8/8/8/8/8/1k6/K7 w").illegalReason());
        assertEquals("two pieces on a1", new Position(Material.parse("KBNK"), new int[] {0, 0, 10, 40}, Color.WHITE).illegalReason());
        assertTrue(Fen.parse("k7/8/8/8/8/8/8/R5K1 w").illegalReason().contains("Black is in check"));
        assertNull(Fen.parse("k7/8/8/8/8/8/8/R5K1 b").illegalReason());

        Position mate = Fen.parse("k7/2K5/8/8/8/8/8/R7 b");
        assertTrue(mate.inCheck());
        assertTrue(mate.isCheckmate());
        Position stalemate = Fen.parse("k7/2Q5/1K6/8/8/8/8/8 b");
        assertTrue(stalemate.isStalemate());
        // the Black king may take an undefended piece, which leaves the material smaller
        Position capture = Fen.parse("8/8/8/8/8/8/1B6/k5K1 b");
        Move take = capture.legalMoves().stream().filter(Move::isCapture).findFirst().orElseThrow();
        assertEquals("a1b2", take.uci());
        assertEquals("KK", capture.play(take).material().name());
        // a defended piece may not be taken
        assertTrue(Fen.parse("8/8/8/8/8/8/1BK5/k7 b").legalMoves().stream().noneMatch(Move::isCapture));
    }

    @Test
    void materialIsParsedIntoCanonicalOrder() {
        Material m = Material.parse("knbk");
        assertEquals("KBNK", m.name());
        assertEquals(List.of("wk", "wb", "wn", "bk"), m.columnNames());
        assertEquals(List.of("wk", "wb1", "wb2", "bk"), Material.parse("KBBK").columnNames());
        assertThrows(IllegalArgumentException.class, () -> Material.parse("KBN"));
        assertThrows(IllegalArgumentException.class, () -> Material.parse("BKNK"));
        assertThrows(IllegalArgumentException.class, () -> Material.parse("KXK"));
        assertEquals(PieceType.PAWN, Material.parse("KRPKR").piece(2).type());
    }
}
