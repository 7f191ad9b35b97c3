package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The generator's fast moves and un-moves against the readable rules of {@link Position}, position by position. */
class MoveGeneratorTest {
    private static final int[] BUFFER = new int[256];

    private static int side(Position p) { return p.sideToMove() == Color.WHITE ? 0 : 1; }

    @Test
    void movesExitsAndUnmovesAreThoseOfThePositionRules() {
        Random random = new Random(5);
        int pins = 0, withExits = 0;
        for (String name : new String[] {"KQKR", "KBNKN", "KRBKR", "KQQKQ", "KNNK", "KPK", "KPKP", "KRPKR", "KQKP", "KPPKP", "KRRRKQ"}) {
            Material material = Material.parse(name);
            MoveGenerator gen = new MoveGenerator(material);
            for (int t = 0; t < 20_000; t++) {
                Position p = Position.randomLegal(material, random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
                int[] squares = p.squares();
                Set<String> fast = new TreeSet<>(), rules = new TreeSet<>();
                int n = gen.legalMoves(squares, side(p), BUFFER);
                assertTrue(n <= gen.mostMoves(side(p)), p::toString);
                for (int k = 0; k < n; k++) fast.add(uci(BUFFER[k]));
                for (Move m : p.legalMoves()) rules.add(m.uci());
                assertEquals(rules, fast, p::toString);
                Set<String> exits = new TreeSet<>(), leaving = new TreeSet<>();
                n = gen.legalExits(squares, side(p), BUFFER);
                for (int k = 0; k < n; k++) exits.add(uci(BUFFER[k]));
                for (Move m : p.legalMoves()) if (m.isCapture() || m.promotion() != null) leaving.add(m.uci());
                assertEquals(leaving, exits, p::toString);
                if (!exits.isEmpty()) withExits++;
                int counted = gen.countedMoves(squares, side(p), BUFFER);
                Set<String> countedExits = new TreeSet<>();
                for (int k = 0; k < (counted & 0xFFFF); k++) countedExits.add(uci(BUFFER[k]));
                assertEquals(leaving, countedExits, p::toString);
                assertEquals(rules.size() - leaving.size(), counted >>> 16, () -> "moves that stay in the table: " + p);
                if (!p.inCheck()) {
                    long pinned = gen.pinned(squares, side(p), MoveGenerator.occupied(squares), gen.occupiedBy(squares, side(p)));
                    assertEquals(exposing(gen, squares, side(p)), pinned, p::toString);
                    if (pinned != 0) pins++;
                }

                n = gen.sortedLegalMoves(squares, side(p), BUFFER);
                List<Integer> order = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    PieceType promotion = MoveGenerator.promotion(BUFFER[k]);
                    int place = PieceType.promotionCode(promotion);
                    order.add((MoveGenerator.from(BUFFER[k]) * 64 + MoveGenerator.to(BUFFER[k])) * 8 + place);
                }
                assertEquals(order.stream().sorted().toList(), order, "sorted by from, then to, then promotion Q R B N");
                assertEquals(rules.size(), n);

                Set<String> earlier = new TreeSet<>(), undone = new TreeSet<>();
                n = gen.unmoves(squares, side(p), true, true, BUFFER);
                for (int k = 0; k < n; k++) {
                    int[] before = squares.clone();
                    before[MoveGenerator.piece(BUFFER[k])] = MoveGenerator.from(BUFFER[k]);
                    earlier.add(new Position(material, before, p.sideToMove().opponent()).toString());
                }
                for (Position q : p.unmoves()) undone.add(q.toString());
                assertEquals(undone, earlier, p::toString);
                assertEquals(p.inCheck(), gen.inCheck(squares, side(p)), p::toString);
            }
        }
        assertTrue(pins > 1_000, pins + " positions with a pinned piece");
        assertTrue(withExits > 50_000, withExits + " positions with a capture or a promotion");
    }

    @Test
    void theMostMovesASideCanHaveAreReached() {
        // a queen in the centre on its 27 squares, its king clear of her lines on 8
        Position p = Fen.parse("8/1K6/8/8/3Q4/8/6k1/8 w - - 0 1");
        MoveGenerator gen = new MoveGenerator(p.material());
        assertEquals(27 + 8, p.legalMoves().size());
        assertEquals(p.legalMoves().size(), gen.mostMoves(0));
    }

    /** The pieces of {@code side} but the king whose removal would leave their king attacked. */
    private static long exposing(MoveGenerator gen, int[] squares, int side) {
        long exposing = 0;
        for (int i = 0; i < squares.length; i++) {
            if (gen.side(i) != side || gen.isKing(i)) continue;
            long without = MoveGenerator.occupied(squares) & ~(1L << squares[i]);
            if (gen.attacked(squares, without, squares[gen.king(side)], 1 - side, i)) exposing |= 1L << squares[i];
        }
        return exposing;
    }

    private static String uci(int move) {
        PieceType promotion = MoveGenerator.promotion(move);
        return Square.name(MoveGenerator.from(move)) + Square.name(MoveGenerator.to(move))
                + (promotion == null ? "" : String.valueOf(Character.toLowerCase(promotion.letter())));
    }

    @Test
    void enPassantCapturesAreThoseOfThePositionWithItsSquare() {
        Random random = new Random(9);
        int seen = 0;
        for (String name : new String[] {"KPKP", "KPKPP", "KRPKP"}) {
            Material material = Material.parse(name);
            MoveGenerator gen = new MoveGenerator(material);
            for (int t = 0; t < 200_000; t++) {
                Color side = random.nextBoolean() ? Color.WHITE : Color.BLACK;
                Position p = Position.randomLegal(material, side, random);
                int[] squares = p.squares();
                for (int pawn = 0; pawn < squares.length; pawn++) {
                    if (material.piece(pawn).type() != PieceType.PAWN || material.piece(pawn).color() == side
                            || Square.rank(squares[pawn]) != (side == Color.WHITE ? 4 : 3)) continue;
                    int behind = squares[pawn] + (side == Color.WHITE ? 8 : -8);
                    Position withSquare = new Position(material, squares, side, behind);
                    if (!withSquare.isLegal()) continue;
                    Set<String> fast = new TreeSet<>(), rules = new TreeSet<>();
                    int n = gen.enPassantCaptures(squares, side(p), pawn, BUFFER);
                    for (int k = 0; k < n; k++) {
                        assertTrue(MoveGenerator.isEnPassant(BUFFER[k]));
                        assertEquals(pawn, MoveGenerator.captured(squares, BUFFER[k]));
                        fast.add(uci(BUFFER[k]));
                    }
                    for (Move m : withSquare.legalMoves()) if (m.to() == behind && material.piece(m.piece()).type() == PieceType.PAWN) rules.add(m.uci());
                    assertEquals(rules, fast, withSquare::toString);
                    seen += n;
                }
            }
        }
        assertTrue(seen > 1000, seen + " en-passant captures");
    }

    @Test
    void kingsAndOtherPiecesSplitTheUnmoves() {
        Material kqkr = Material.parse("KQKR");
        MoveGenerator gen = new MoveGenerator(kqkr);
        Random random = new Random(8);
        for (int t = 0; t < 5_000; t++) {
            Position p = Position.randomLegal(kqkr, Color.BLACK, random);
            int all = gen.unmoves(p.squares(), 1, true, true, BUFFER);
            int kings = gen.unmoves(p.squares(), 1, true, false, BUFFER);
            for (int k = 0; k < kings; k++) assertEquals(0, MoveGenerator.piece(BUFFER[k]), "White's king is piece 0");
            int others = gen.unmoves(p.squares(), 1, false, true, BUFFER);
            assertEquals(all, kings + others, p::toString);
        }
    }
}
