package io.github.tablebase.chess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table a material is read from: one of each colour-swapped pair, named the way DTM and WDL sets name theirs. */
class MaterialTest {
    /** Every material of up to {@code pieces} pieces, kings included, as White's letters then Black's. */
    private static List<Material> upTo(int pieces) {
        String letters = "QRBNP";
        List<String> sides = new ArrayList<>(List.of(""));
        for (int n = 1; n <= pieces - 2; n++) {
            List<String> longer = new ArrayList<>();
            for (String s : sides) {
                if (s.length() != n - 1) continue;
                int from = s.isEmpty() ? 0 : letters.indexOf(s.charAt(s.length() - 1)); // letters in order: each multiset once
                for (int c = from; c < letters.length(); c++) longer.add(s + letters.charAt(c));
            }
            sides.addAll(longer);
        }
        List<Material> all = new ArrayList<>();
        for (String w : sides)
            for (String b : sides)
                if (w.length() + b.length() <= pieces - 2 && w.length() + b.length() > 0) all.add(Material.parse("K" + w + "K" + b)); // bare kings: no table
        return all;
    }

    @Test
    void eachPairOfColourSwappedMaterialsHasOneTableTheSideWithMoreOrStrongerPiecesWhite() {
        int pairs = 0, ownTwins = 0;
        for (Material m : upTo(6)) {
            Material table = m.tableMaterial(), twin = m.coloursSwapped();
            assertSame(table, twin.tableMaterial(), m.name());
            assertTrue(table == m || table == twin, m.name());
            assertEquals(table == m, m.isTableMaterial(), m.name());
            int white = table.count(Color.WHITE), black = table.count(Color.BLACK);
            assertTrue(white >= black, table.name());
            if (twin == m) ownTwins++;
            else if (m.isTableMaterial()) pairs++;
            if (white == black && twin != m) { // the first piece that differs, strongest first, is White's stronger one
                for (int k = 1; k < white; k++) {
                    PieceType w = table.piece(k).type(), b = table.piece(white + k).type();
                    if (w == b) continue;
                    assertTrue(w.compareTo(b) < 0, table.name());
                    break;
                }
            }
        }
        // up to 4 pieces: 35 tables for 65 materials, as Syzygy's set of 35 (each material once, KQvK ... KPvKP)
        List<Material> small = upTo(4);
        assertEquals(65, small.size());
        assertEquals(35, small.stream().filter(Material::isTableMaterial).count());
        assertTrue(pairs > 0 && ownTwins > 0, pairs + " pairs, " + ownTwins + " own twins");
        // the names the sets ship, as Nalimov's list (Scid's tablebase window) gives them
        for (String[] pair : new String[][] {{"KRKQ", "KQKR"}, {"KKR", "KRK"}, {"KPKN", "KNKP"}, {"KRKBN", "KBNKR"}, {"KQKPP", "KPPKQ"}, {"KRKR", "KRKR"}})
            assertEquals(pair[1], Material.parse(pair[0]).tableMaterial().name(), pair[0]);
    }
}
