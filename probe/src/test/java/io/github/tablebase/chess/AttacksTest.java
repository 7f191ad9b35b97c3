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

    /** Rooks', bishops' and queens' attacks are those of a walk square by square to the first piece, on every square. */
    @Test
    void slidersAttackAsAWalkToTheFirstPiece() {
        java.util.Random random = new java.util.Random(11);
        int[][] rook = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}, bishop = {{1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
        for (int sq = 0; sq < 64; sq++)
            for (int t = 0; t < 3_000; t++) {
                long occupied = t == 0 ? 0 : t == 1 ? -1L : random.nextLong() & random.nextLong() & (t % 3 == 0 ? -1L : random.nextLong());
                long r = walk(sq, occupied, rook), b = walk(sq, occupied, bishop);
                assertEquals(r, Attacks.of(PieceType.ROOK, sq, occupied), "rook on " + sq);
                assertEquals(b, Attacks.of(PieceType.BISHOP, sq, occupied), "bishop on " + sq);
                assertEquals(r | b, Attacks.of(PieceType.QUEEN, sq, occupied), "queen on " + sq);
            }
    }

    private static long walk(int sq, long occupied, int[][] steps) {
        long attacks = 0;
        for (int[] step : steps) {
            int f = Square.file(sq) + step[0], r = Square.rank(sq) + step[1];
            while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                long bit = 1L << Square.of(f, r);
                attacks |= bit;
                if ((occupied & bit) != 0) break;
                f += step[0];
                r += step[1];
            }
        }
        return attacks;
    }
}
