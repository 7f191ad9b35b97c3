package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SquareTest {
    @Test
    void conventionsOfTheSpec() {
        assertEquals(0, Square.parse("a1"));
        assertEquals(7, Square.parse("h1"));
        assertEquals(56, Square.parse("a8"));
        assertEquals(63, Square.parse("h8"));
        assertFalse(Square.isLight(Square.parse("a1")));
        assertTrue(Square.isLight(Square.parse("h1")));
        assertEquals(Square.parse("h3"), Square.mirrorFile(Square.parse("a3")));
        for (int sq = 0; sq < 64; sq++) assertEquals(sq, Square.parse(Square.name(sq)));
        assertThrows(IllegalArgumentException.class, () -> Square.parse("i1"));
        assertThrows(IllegalArgumentException.class, () -> Square.parse("a9"));
    }

    @Test
    void theEightSymmetriesAreDistinctPermutationsThatKeepDistances() {
        Set<String> images = new HashSet<>();
        for (int s = 0; s < 8; s++) {
            Set<Integer> seen = new HashSet<>();
            StringBuilder image = new StringBuilder();
            for (int sq = 0; sq < 64; sq++) {
                seen.add(Square.transform(sq, s));
                image.append(Square.transform(sq, s)).append(',');
                for (int other = 0; other < 64; other += 9)
                    assertEquals(Square.distance(sq, other), Square.distance(Square.transform(sq, s), Square.transform(other, s)));
            }
            assertEquals(64, seen.size());
            images.add(image.toString());
        }
        assertEquals(8, images.size());
        assertEquals(Square.parse("c5"), Square.transform(Square.parse("c5"), 0));
    }

    @Test
    void eachSymmetryIsUndoneByItsInverse() {
        for (int s = 0; s < 8; s++)
            for (int sq = 0; sq < 64; sq++) {
                assertEquals(sq, Square.transform(Square.transform(sq, s), Square.inverse(s)), "symmetry " + s);
                assertEquals(sq, Square.transform(Square.transform(sq, Square.inverse(s)), s), "symmetry " + s);
            }
    }
}
