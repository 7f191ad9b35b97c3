package tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.GeneratedTables;
import tablebase.chess.Color;
import tablebase.chess.Material;
import tablebase.chess.Position;
import tablebase.probe.BlockCache;
import tablebase.probe.ProbeResult;
import tablebase.probe.Tablebase;

/**
 * A set holding one table a material answers the other colouring from it: every position of a material whose table
 * was left out, and of KPKP, whose captures and promotions lead into such materials, reads as with both tables.
 */
class ColoursSwappedTest {
    @Test
    void aSetOfOneTableAMaterialAnswersAsTheSetOfBoth(@TempDir Path dir) throws Exception {
        Path root = GeneratedTables.folder("KPKP").getParent(), both = dir.resolve("both"), one = dir.resolve("one");
        List<Material> left = new ArrayList<>();
        try (Stream<Path> folders = Files.list(root)) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                Material m = Material.parse(folder.getFileName().toString().toUpperCase(Locale.ROOT));
                Material swapped = m.coloursSwapped();
                boolean leftOut = !swapped.equals(m) && Files.isDirectory(root.resolve(swapped.name().toLowerCase(Locale.ROOT)))
                        && m.name().compareTo(swapped.name()) > 0;
                SampleCheckTest.copyTables(folder, both.resolve(folder.getFileName().toString()));
                if (leftOut) left.add(m);
                else SampleCheckTest.copyTables(folder, one.resolve(folder.getFileName().toString()));
            }
        }
        assertTrue(left.contains(Material.parse("KQKP")) && left.contains(Material.parse("KPK")) && left.size() > 10, "left out: " + left);
        Random random = new Random(20261125);
        try (Tablebase all = Tablebase.open(List.of(both), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.COMPRESSED_FIRST);
             Tablebase half = Tablebase.open(List.of(one), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.COMPRESSED_FIRST)) {
            for (Material m : left) assertTrue(half.answered().contains(m) && !half.materials().contains(m), m + " answered, its table not opened");
            List<Material> checked = new ArrayList<>(left);
            checked.add(Material.parse("KPKP"));
            for (Material m : checked)
                for (Color side : Color.values())
                    for (int k = 0; k < (m.size() == 4 ? 3000 : 1000); k++) {
                        Position p = Position.randomLegal(m, side, random);
                        assertEquals(all.probeDtm(p), half.probeDtm(p), p.toString());
                        if (k % 20 == 0) {
                            ProbeResult a = all.probe(p), b = half.probe(p);
                            assertEquals(a.bestMove(), b.bestMove(), p.toString());
                            assertEquals(a.mainline(), b.mainline(), p.toString());
                        }
                    }
        }
        assertFalse(Files.exists(one.resolve("kqkp")));
    }
}
