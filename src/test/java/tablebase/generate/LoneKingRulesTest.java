package tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;

/** The job's 64-squares-at-once rules agree with the chess core, position by position. */
class LoneKingRulesTest {
    @Test
    void agreesWithTheCoreOnEveryKqkPlacement() {
        LoneKingRules rules = new LoneKingRules(Material.parse("KQK"));
        LongStream.range(0, rules.placementSpace()).filter(rules::isValid).forEach(p -> checkPlacement(rules, p, new Random(p)));
    }

    @Test
    void agreesWithTheCoreOnSampledKbnkAndKbbkPlacements() {
        for (String endgame : new String[] {"KBNK", "KBBK"}) {
            LoneKingRules rules = new LoneKingRules(Material.parse(endgame));
            Random random = new Random(11);
            int checked = 0;
            while (checked < 3000) {
                long p = random.nextLong(rules.placementSpace());
                if (!rules.isValid(p)) continue;
                checkPlacement(rules, p, random);
                checked++;
            }
        }
    }

    @Test
    void refusesMaterialItCannotSolveYetNamingWhatItCan() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LoneKingRules(Material.parse("KQKR")));
        assertTrue(e.getMessage().contains("KBNK"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LoneKingRules(Material.parse("KQBK")));
        for (String ok : LoneKingRules.SUPPORTED) assertNull(LoneKingRules.unsupportedReason(Material.parse(ok)));
    }

    private static void checkPlacement(LoneKingRules rules, long placement, Random random) {
        Material m = rules.material();
        long won = random.nextLong() & rules.whiteToMoveLegal(placement);
        long mates = 0, stalemates = 0, loses = 0, wtmLegal = 0, btmLegal = 0;
        Set<Long> coreUnmoves = new HashSet<>();
        for (int bk = 0; bk < 64; bk++) {
            long bit = 1L << bk;
            Position white = Position.fromKey(m, rules.positionKey(placement, bk, Color.WHITE));
            Position black = Position.fromKey(m, rules.positionKey(placement, bk, Color.BLACK));
            if (white.isLegal()) wtmLegal |= bit;
            if (!black.isLegal()) continue;
            btmLegal |= bit;
            if (black.isCheckmate()) mates |= bit;
            if (black.isStalemate()) stalemates |= bit;
            boolean allEnterWon = !black.legalMoves().isEmpty();
            for (Move move : black.legalMoves())
                allEnterWon &= !move.isCapture() && (won & (1L << move.to())) != 0;
            if (allEnterWon) loses |= bit;
            for (Position before : black.unmoves()) coreUnmoves.add(before.key());
        }
        String where = m + " placement " + placement;
        assertEquals(wtmLegal, rules.whiteToMoveLegal(placement), where);
        assertEquals(btmLegal, rules.blackToMoveLegal(placement), where);
        assertEquals(mates, rules.checkmates(placement), where);
        assertEquals(stalemates, rules.stalemates(placement), where);
        assertEquals(loses, rules.everyMoveLoses(placement, won), where);

        Set<Long> jobUnmoves = new HashSet<>();
        rules.whiteUnmoves(placement, btmLegal, (before, code, kings) -> {
            assertEquals(placement, rules.play(before, code), "the move code leads back");
            for (long k = kings; k != 0; k &= k - 1)
                assertTrue(jobUnmoves.add(rules.positionKey(before, Long.numberOfTrailingZeros(k), Color.WHITE)), "repeated un-move");
        });
        assertEquals(coreUnmoves, jobUnmoves, where);
    }
}
