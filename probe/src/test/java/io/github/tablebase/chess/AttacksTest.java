package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AttacksTest {
    @Test
    void kingNeighboursIsTheUnionOfKingSteps() {
        long[] sets = {0L, 1L, 1L << 7, 1L << 56, 1L << 63, 0x8100000000000081L, 0x0000001818000000L, -1L, 0x5555aaaa5555aaaaL};
        for (long set : sets) {
            long expected = 0;
            for (long s = set; s != 0; s &= s - 1) expected |= Attacks.king(Long.numberOfTrailingZeros(s));
            assertEquals(expected, Attacks.kingNeighbours(set), () -> Long.toHexString(set));
        }
    }

    @Test
    void betweenHoldsExactlyTheSquaresOnTheSegment() {
        for (int a = 0; a < 64; a++) {
            for (int b = 0; b < 64; b++) {
                int df = Square.file(b) - Square.file(a), dr = Square.rank(b) - Square.rank(a);
                boolean line = a != b && (df == 0 || dr == 0 || Math.abs(df) == Math.abs(dr));
                long expected = 0;
                if (line) {
                    int steps = Math.max(Math.abs(df), Math.abs(dr));
                    for (int k = 1; k < steps; k++)
                        expected |= Attacks.bit(Square.of(Square.file(a) + k * Integer.signum(df), Square.rank(a) + k * Integer.signum(dr)));
                }
                assertEquals(expected, Attacks.between(a, b), Square.name(a) + "-" + Square.name(b));
            }
        }
    }

    @Test
    void slidersStopAtTheFirstPieceAndIncludeIt() {
        int d1 = Square.parse("d1");
        long blockers = Attacks.bit(Square.parse("d4")) | Attacks.bit(Square.parse("f3"));
        long rook = Attacks.of(PieceType.ROOK, d1, blockers);
        assertEquals(true, (rook & Attacks.bit(Square.parse("d4"))) != 0);
        assertEquals(0, rook & Attacks.bit(Square.parse("d5")));
        long bishop = Attacks.of(PieceType.BISHOP, d1, blockers);
        assertEquals(true, (bishop & Attacks.bit(Square.parse("f3"))) != 0);
        assertEquals(0, bishop & Attacks.bit(Square.parse("g4")));
        assertEquals(Long.bitCount(rook) + Long.bitCount(bishop), Long.bitCount(Attacks.of(PieceType.QUEEN, d1, blockers)));
    }
}
