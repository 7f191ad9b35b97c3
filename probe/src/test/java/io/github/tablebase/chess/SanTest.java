package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SanTest {
    private static String san(String fen, String uci) {
        Position p = Fen.parse(fen);
        Move move = p.legalMoves().stream().filter(m -> m.uci().equals(uci)).findFirst()
                .orElseThrow(() -> new AssertionError(uci + " is not legal in " + fen));
        return San.of(p, move);
    }

    @Test
    void namesThePieceCaptureCheckAndMate() {
        assertEquals("Ka2", san("8/8/8/8/8/2k5/8/KBN5 w - - 0 1", "a1a2"));
        assertEquals("Nb3", san("8/8/8/8/8/2k5/8/KBN5 w - - 0 1", "c1b3"));
        assertEquals("Kxc1", san("8/8/8/8/8/8/8/KBNk4 b - - 0 1", "d1c1"));
        assertEquals("Nc7+", san("kB6/8/1K6/1N6/8/8/8/8 w - - 0 1", "b5c7"));      // not mate: Kxb8
        assertEquals("Bc6#", san("k7/8/NK6/3B4/8/8/8/8 w - - 0 1", "d5c6"));
        assertEquals("Qh8#", san("k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "h2h8"));
    }

    @Test
    void disambiguatesByFileThenRankThenBoth() {
        assertEquals("Nbd2", san("8/8/8/8/8/k7/8/1N3N1K w - - 0 1", "b1d2"));     // knights b1, f1 → file
        assertEquals("N1d2", san("7k/8/8/8/8/1N6/8/1N5K w - - 0 1", "b1d2"));     // knights b1, b3 → rank
        assertEquals("Nc3", san("7k/8/8/8/8/1N6/8/1N5K w - - 0 1", "b1c3"));      // b3 cannot reach c3
        assertEquals("Qa1b2", san("6k1/8/8/8/4K3/Q7/8/Q1Q5 w - - 0 1", "a1b2"));    // queens a1, a3, c1 → both
        assertEquals("Qcb2", san("6k1/8/8/8/4K3/Q7/8/Q1Q5 w - - 0 1", "c1b2"));
    }

    @Test
    void writesLinesWithMoveNumbersFromEitherSide() {
        Position white = Fen.parse("k7/8/1K6/8/8/8/7Q/8 w - - 0 1");
        Move qh8 = white.legalMoves().stream().filter(m -> m.uci().equals("h2h8")).findFirst().orElseThrow();
        assertEquals("1. Qh8#", San.line(white, List.of(qh8)));
        Position black = Fen.parse("1k6/8/1K6/8/8/8/7Q/8 b - - 0 1");
        Move ka8 = black.legalMoves().stream().filter(m -> m.uci().equals("b8a8")).findFirst().orElseThrow();
        Position after = black.play(ka8);
        Move mate = after.legalMoves().stream().filter(m -> m.uci().equals("h2h8")).findFirst().orElseThrow();
        assertEquals("1... Ka8 2. Qh8#", San.line(black, List.of(ka8, mate)));
    }
}
