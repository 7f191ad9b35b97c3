package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.tablebase.KbnkTable;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.probe.IllegalPositionException;
import io.github.tablebase.probe.MissingTableException;
import io.github.tablebase.probe.Tablebase;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 100,000 random and mutated FENs thrown at the parser and the probe: each must end in an answer or an
 * IllegalPositionException or MissingTableException with a one-line message, never another exception, and all of them in bounded time.
 */
class ProbeFuzzTest {
    private static final int CASES = 100_000;
    private static final String BOARD_CHARS = "KBNkbnQRqrPp12345678/ -x9";
    private static final String[] SEEDS = {
            "8/8/8/8/8/2k5/8/KBN5 w - - 0 1", "8/8/8/3k4/8/8/8/KBN5 b - - 0 1", "7k/8/5K2/8/8/8/8/1BN5 b - - 0 1",
            "k7/8/NK6/8/8/8/6B1/8 b - - 0 1", "8/8/8/8/8/8/4B3/K1kN4 b - - 0 1", "4k3/8/8/8/8/8/8/1N2KB2 w - - 12 40"};

    @Test
    void everyFenEndsInAnAnswerOrAOneLineError() throws Exception {
        Tablebase table = Tablebase.open(KbnkTable.folder());
        Random random = new Random(2026);
        int[] outcomes = new int[2]; // answers, errors
        assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
            for (int i = 0; i < CASES; i++) {
                String fen = switch (i % 4) {
                    case 0 -> randomText(random);
                    case 1 -> randomPlacement(random);
                    default -> mutate(random, SEEDS[random.nextInt(SEEDS.length)], 1 + random.nextInt(3));
                };
                try {
                    table.probe(fen);
                    outcomes[0]++;
                } catch (IllegalPositionException | MissingTableException e) {
                    String m = e.getMessage();
                    if (m == null || m.isBlank() || m.contains("\n")) fail("not a one-line message for '" + fen + "': " + m);
                    outcomes[1]++;
                } catch (RuntimeException | Error e) {
                    throw new AssertionError("'" + fen + "' raised " + e, e);
                }
            }
        });
        // both paths must really be exercised, not only the parser's refusals
        assertTrue(outcomes[0] > 10_000 && outcomes[1] > 10_000, outcomes[0] + " answers, " + outcomes[1] + " errors");
    }

    /** Characters that FENs are made of, in random order and length. */
    private static String randomText(Random random) {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(60);
        for (int i = 0; i < n; i++) s.append(BOARD_CHARS.charAt(random.nextInt(BOARD_CHARS.length())));
        return s.toString();
    }

    /** Two to five random pieces (mostly K, B, N vs k) on random squares: well-formed, often illegal or other material. */
    private static String randomPlacement(Random random) {
        char[] board = new char[64];
        String pieces = random.nextInt(4) == 0 ? "KBNkqrbnQR".substring(0, 2 + random.nextInt(8)) : "KBNk";
        for (char c : pieces.toCharArray()) board[random.nextInt(64)] = c;
        StringBuilder fen = new StringBuilder();
        for (int rank = 7; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < 8; file++) {
                char c = board[8 * rank + file];
                if (c == 0) { empty++; continue; }
                if (empty > 0) fen.append(empty);
                empty = 0;
                fen.append(c);
            }
            if (empty > 0) fen.append(empty);
            if (rank > 0) fen.append('/');
        }
        return fen.append(random.nextBoolean() ? " w" : " b").append(random.nextBoolean() ? " - - 0 1" : "").toString();
    }

    /** A valid FEN with a few characters replaced, inserted, deleted or moved, or its fields shuffled. */
    private static String mutate(Random random, String fen, int edits) {
        StringBuilder s = new StringBuilder(fen);
        for (int e = 0; e < edits; e++) {
            int at = s.length() == 0 ? 0 : random.nextInt(s.length());
            char c = BOARD_CHARS.charAt(random.nextInt(BOARD_CHARS.length()));
            switch (random.nextInt(5)) {
                case 0 -> { if (s.length() > 0) s.setCharAt(at, c); }
                case 1 -> s.insert(at, c);
                case 2 -> { if (s.length() > 0) s.deleteCharAt(at); }
                case 3 -> { // move one piece letter to another spot of the board
                    int from = s.indexOf("N"), to = random.nextInt(Math.max(1, s.indexOf(" ")));
                    if (from >= 0) { s.deleteCharAt(from); s.insert(Math.min(to, s.length()), 'N'); }
                }
                default -> {
                    String[] fields = s.toString().split(" ");
                    if (fields.length > 1) {
                        int a = random.nextInt(fields.length), b = random.nextInt(fields.length);
                        String t = fields[a];
                        fields[a] = fields[b];
                        fields[b] = t;
                    }
                    s = new StringBuilder(String.join(" ", fields));
                }
            }
        }
        return s.toString();
    }

    @Test
    void theParserAloneRefusesCleanlyToo() {
        Random random = new Random(99);
        for (int i = 0; i < 20_000; i++) {
            String text = randomText(random);
            try {
                Fen.parse(text);
            } catch (Fen.FenException e) {
                assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), e.getMessage());
            }
        }
    }
}
