package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link Tablebase#positionOfPly} in KQKR's compressed files (White stored) against a pass over every position in its
 * packed files (both sides stored): a ply that some position has gives one, of that ply, and one that none has gives
 * none; the first White position of each ply in index order (of those whose entry holds its ply, if any: the marked
 * ones are searched last); and the pass over Black's positions for those whose
 * best move leaves the table (Black's wins often start by taking the queen) gives the first such of each ply.
 */
class PositionOfPlyTablesTest {
    @Test
    void kqkrPositionsOfEachPlyFoundInTheCompressedFilesAreThoseAPassOverThePackedOnesFinds() throws Exception {
        Path root = GeneratedTables.folder("KQKR").getParent();
        Material material = Material.parse("KQKR");
        PositionIndex index = new PositionIndex(material);
        try (Tablebase packed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED);
             Tablebase compressed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.COMPRESSED_FIRST)) {
            DtmTable table = compressed.table(material);
            assertTrue(table instanceof CompressedTable && table.stores(Color.WHITE) && !table.stores(Color.BLACK));
            for (Color side : Color.values()) {
                // the first of each ply, the first whose entry holds its ply (not marked as its captures'), the first leaving the table
                TreeMap<Integer, Long> first = new TreeMap<>(), firstHeld = new TreeMap<>(), firstLeaving = new TreeMap<>();
                for (long i = 0; i < index.size(); i++) {
                    Position p = index.legalPosition(i, side);
                    if (p == null) continue;
                    int ply = packed.ply(p);
                    first.putIfAbsent(ply, i);
                    if (side == Color.WHITE && ((CompressedTable) table).result(i) != CompressedTable.BY_EXITS) firstHeld.putIfAbsent(ply, i);
                    if (ply >= 0 && !firstLeaving.containsKey(ply) && (ply == 0 || leaves(packed, p, ply))) firstLeaving.put(ply, i);
                }
                TreeSet<Integer> asked = new TreeSet<>(); // the shortest, the longest, and every seventh between
                for (int ply = 0; ply <= first.lastKey() + 1; ply++) if (ply < 4 || ply > first.lastKey() - 3 || ply % 7 == 0) asked.add(ply);
                for (int ply : asked) {
                    String what = side + " to move, ply " + ply;
                    Optional<Position> found = compressed.positionOfPly(material, side, ply);
                    assertEquals(first.containsKey(ply), found.isPresent(), what);
                    found.ifPresent(p -> assertEquals(ply, packed.ply(p), what + ": " + p));
                    if (side == Color.WHITE)
                        found.ifPresent(p -> assertEquals(firstHeld.getOrDefault(ply, first.get(ply)), index.index(p), what + ": the first in index order"));
                    else assertEquals(Optional.ofNullable(firstLeaving.get(ply)), PositionOfPly.leavingTable(compressed, table, side, ply).map(index::index),
                            what + ": the first whose best move leaves the table");
                }
                if (side == Color.BLACK) assertTrue(firstLeaving.headMap(first.lastKey(), true).keySet().stream().anyMatch(p -> p > 0), "Black's captures lead somewhere");
            }
        }
    }

    /** Whether a capture or promotion of {@code p} reaches the ply before its own. */
    private static boolean leaves(Tablebase tables, Position p, int ply) {
        for (Move m : p.legalMoves()) if ((m.isCapture() || m.promotion() != null) && tables.ply(p.play(m)) == ply - 1) return true;
        return false;
    }
}
