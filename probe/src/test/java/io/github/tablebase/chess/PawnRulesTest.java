package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pawns in the chess core: pushes, captures, en passant and promotions against published move counts, FEN, SAN, un-moves. */
class PawnRulesTest {
    private static long perft(Position p, int depth) {
        List<Move> moves = p.legalMoves();
        if (depth == 1) return moves.size();
        long n = 0;
        for (Move m : moves) n += perft(p.play(m), depth - 1);
        return n;
    }

    private static long[] perfts(String fen, int depth) {
        long[] counts = new long[depth];
        for (int d = 1; d <= depth; d++) counts[d - 1] = perft(Fen.parse(fen), d);
        return counts;
    }

    @Test
    void moveCountsOfPublishedPositionsWithPawns() {
        // chessprogramming.org, "Perft Results", position 3: pawns, en passant that would uncover a check along a rank
        assertArrayEquals(new long[] {14, 191, 2_812, 43_238, 674_624}, perfts("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5));
        // rocechess.ch perft suite: promotions of both sides, with and without captures
        assertArrayEquals(new long[] {18, 270, 4_699, 79_355}, perfts("8/PPPk4/8/8/8/8/4Kppp/8 b - - 0 1", 4));
    }

    @Test
    void enPassantIsReadWrittenPlayedAndChecked() {
        Position p = Fen.parse("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
        assertEquals(Square.parse("d6"), p.enPassant());
        assertEquals("8/8/8/3pP3/8/8/8/K6k w - d6 0 1", p.toString());
        Move ep = p.legalMoves().stream().filter(m -> m.uci().equals("e5d6")).findFirst().orElseThrow();
        assertTrue(ep.isCapture());
        assertEquals("exd6", San.of(p, ep));
        assertEquals("8/8/3P4/8/8/8/8/K6k b - - 0 1", p.play(ep).toString());
        assertEquals(Material.parse("KPK"), p.play(ep).material());
        assertEquals(p.legalMoves().size() - 1, Fen.parse("8/8/8/3pP3/8/8/8/K6k w - - 0 1").legalMoves().size(), "no en passant without the square");

        // a double push leaves the square only when an enemy pawn stands beside
        Position before = Fen.parse("k7/3p4/8/4P3/8/8/8/K7 b - - 0 1");
        Position pushed = before.play(before.legalMoves().stream().filter(m -> m.uci().equals("d7d5")).findFirst().orElseThrow());
        assertEquals(Square.parse("d6"), pushed.enPassant());
        Position lone = Fen.parse("k7/3p4/8/8/8/8/8/K7 b - - 0 1");
        assertEquals(-1, lone.play(lone.legalMoves().stream().filter(m -> m.uci().equals("d7d5")).findFirst().orElseThrow()).enPassant());

        assertTrue(Fen.parse("8/8/8/3pP3/8/8/8/K6k w - e6 0 1").illegalReason().contains("two squares past e6"));
        assertTrue(Fen.parse("8/8/8/4P3/8/8/8/K6k w - d6 0 1").illegalReason().contains("two squares past d6"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fen.parse("8/8/8/3pP3/8/8/8/K6k w - d5 0 1")).getMessage()
                .contains("third or sixth rank"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fen.parse("8/8/8/8/8/8/8/K6k w KQ - 0 1")).getMessage()
                .contains("castling rights 'KQ' are out of scope"));
    }

    @Test
    void aPromotionIsFourMovesEachIntoItsOwnMaterial() {
        Position p = Fen.parse("8/P7/8/8/8/8/8/K6k w - - 0 1");
        List<String> promotions = p.legalMoves().stream().filter(m -> m.promotion() != null).map(m -> San.of(p, m) + " " + m.uci()).toList();
        assertEquals(List.of("a8=Q+ a7a8q", "a8=R a7a8r", "a8=B+ a7a8b", "a8=N a7a8n"), promotions);
        for (Move m : p.legalMoves())
            if (m.promotion() != null)
                assertEquals(Material.parse("K" + m.promotion().letter() + "K"), p.play(m).material(), m.uci());
        Position capture = Fen.parse("1r6/P7/8/8/8/8/8/K6k w - - 0 1");
        Move takes = capture.legalMoves().stream().filter(m -> m.uci().equals("a7b8n")).findFirst().orElseThrow();
        assertEquals("axb8=N", San.of(capture, takes));
        assertEquals(Material.parse("KNK"), capture.play(takes).material());
        assertTrue(Fen.parse("P7/8/8/8/8/8/8/K6k w - - 0 1").illegalReason().contains("first or last rank"));
    }

    @Test
    void unmovesAreExactlyTheInverseOfQuietPushesOverEveryKpkPosition() {
        Material kpk = Material.parse("KPK");
        long checked = 0;
        for (int wk = 0; wk < 64; wk++)
            for (int wp = 8; wp < 56; wp++)
                for (int bk = 0; bk < 64; bk++)
                    for (Color side : Color.values()) {
                        Position p = new Position(kpk, new int[] {wk, wp, bk}, side);
                        if (!p.isLegal()) continue;
                        Set<Long> forward = new HashSet<>();
                        for (Move m : p.legalMoves())
                            if (!m.isCapture() && m.promotion() == null) forward.add(p.play(m).key());
                        for (long after : forward)
                            assertTrue(Position.fromKey(kpk, after).unmoves().stream().anyMatch(q -> q.key() == p.key()),
                                    () -> p + " is not among the un-moves of " + Position.fromKey(kpk, after));
                        for (Position q : p.unmoves())
                            assertTrue(q.legalMoves().stream().anyMatch(m -> !m.isCapture() && m.promotion() == null && q.play(m).key() == p.key()),
                                    () -> q + " has no move to " + p);
                        checked++;
                    }
        assertTrue(checked > 300_000, checked + " positions");
    }

    @Test
    void withPawnsTheIndexFoldsTheLeftRightMirrorOnly() {
        PositionIndex kpk = new PositionIndex(Material.parse("KPK"));
        assertEquals(1_806, kpk.kingPairs(), "king placements up to the mirror: 3,612 / 2");
        assertEquals(1_806L * 48, kpk.size(), "one pawn over 48 squares");
        Set<Long> reached = new HashSet<>();
        int[] decoded = new int[3];
        long placements = 0;
        for (int wk = 0; wk < 64; wk++)
            for (int wp = 8; wp < 56; wp++)
                for (int bk = 0; bk < 64; bk++) {
                    Position p = new Position(Material.parse("KPK"), new int[] {wk, wp, bk}, Color.WHITE);
                    if (!p.placeable() || p.kingsTouch()) continue;
                    long i = kpk.index(p);
                    assertEquals(i, kpk.index(p.transform(1)), () -> p + " and its mirror image");
                    assertTrue(kpk.decode(i, decoded));
                    Position back = new Position(p.material(), decoded, Color.WHITE);
                    assertTrue(back.equals(p) || back.equals(p.transform(1)), () -> p + " decodes to " + back);
                    reached.add(i);
                    placements++;
                }
        assertEquals(placements / 2, reached.size(), "no square is its own mirror image: every index stands for two placements");
        // identical pawns are one combination of 48 squares; pawns of both sides, and pieces with them
        java.util.Random random = new java.util.Random(13);
        for (String name : List.of("KPPK", "KPKP", "KRPKR", "KPPKP")) {
            Material m = Material.parse(name);
            PositionIndex index = new PositionIndex(m);
            int[] squares = new int[m.size()];
            for (int n = 0; n < 20_000; n++) {
                Position p = Position.randomLegal(m, n % 2 == 0 ? Color.WHITE : Color.BLACK, random);
                long i = index.index(p);
                assertTrue(i >= 0 && i < index.size(), name + " " + i);
                assertTrue(index.decode(i, squares));
                Position back = new Position(m, squares, p.sideToMove());
                assertTrue(back.equals(p) || back.equals(p.transform(1)), () -> p + " decodes to " + back);
                assertEquals(i, index.index(p.transform(1)));
            }
        }
    }
}
