package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The test a best line's search puts to each candidate move, whether the position after it is won or lost at a given
 * ply, answered from the compressed KPKP (White stored; Black's positions, and White's that may take en passant,
 * searched and ruled out by their first reply that shows another result) as the packed file's ply says, for every
 * ply up to two past its own: wins and losses of both sides, draws, checkmates.
 */
class BestLineSearchTest {
    @Test
    void aPositionIsAtAPlyExactlyWhenThePackedFileGivesItThatPly() throws Exception {
        Path root = GeneratedTables.folder("KPKP").getParent();
        Material material = Material.parse("KPKP");
        try (Tablebase packed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED);
             Tablebase compressed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, 64L << 20, Tablebase.Source.COMPRESSED_FIRST)) {
            Random random = new Random(29);
            int[] seen = new int[4]; // Black wins, Black loses, draws, positions after a double push with a capture en passant
            for (int k = 0; k < 3000; k++) {
                Position p = k % 3 == 1 ? withEnPassant(material, random) : Position.randomLegal(material, k % 3 == 0 ? Color.WHITE : Color.BLACK, random);
                int ply = packed.ply(p);
                if (p.sideToMove() == Color.BLACK) seen[ply < 0 ? 2 : ply % 2 == 1 ? 0 : 1]++;
                if (p.enPassant() >= 0) seen[3]++;
                for (int target = 0; target <= Math.max(ply, 0) + 2; target++) { // below, at and above its ply
                    Position at = p;
                    int t = target;
                    assertEquals(ply == target, compressed.isAtPly(p, target), () -> at + " at ply " + t + "; the packed file: " + ply);
                }
            }
            assertTrue(seen[0] > 50 && seen[1] > 50 && seen[2] > 50 && seen[3] > 50,
                    seen[0] + " Black wins, " + seen[1] + " losses, " + seen[2] + " draws, " + seen[3] + " en-passant rights");
        }
    }

    /** A random position after a Black double push that White may take en passant. */
    private static Position withEnPassant(Material material, Random random) {
        while (true) {
            Position p = Position.randomLegal(material, Color.BLACK, random);
            for (Move m : p.legalMoves())
                if (Math.abs(m.to() - m.from()) == 16 && material.piece(m.piece()).type() == PieceType.PAWN && p.play(m).enPassant() >= 0) return p.play(m);
        }
    }
}
