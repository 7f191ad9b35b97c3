package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.cli.Generate;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.table.RunSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written as several part files (each a range of king pairs) is one table to the probe and to the bigger
 * tables whose executors map it: the same answers as the table in one file, the same bigger table.
 */
class PartFilesTest {
    @Test
    void aTableInPartsProbesAsInOneFileAndItsBiggerTableIsTheSame(@TempDir Path dir) throws Exception {
        Path whole = GeneratedTables.folder("KQKR"); // its KQK beside it, in one file
        SparkTestSession.session().conf().set(RunSettings.ENTRIES_PER_FILE, "10000");
        try {
            assertEquals(0, Generate.generate(new String[] {"--endgame", "KQK", "--out", dir.resolve("kqk").toString(), "--keep-packed"}));
        } finally {
            SparkTestSession.session().conf().unset(RunSettings.ENTRIES_PER_FILE);
        }
        List<Manifest.FileEntry> parts = Manifest.read(dir.resolve("kqk").resolve(Manifest.FILE)).packedFiles();
        assertTrue(parts.size() >= 5, parts.size() + " parts of at most 10,000 entries");
        long next = 0;
        for (Manifest.FileEntry part : parts) { // contiguous ranges of the index, each file as the manifest says
            assertEquals(next, part.firstIndex());
            next = part.endIndex();
            assertEquals(part.bytes(), Files.size(dir.resolve("kqk").resolve(part.name())));
        }

        Material kqk = Material.parse("KQK");
        try (Tablebase inParts = Tablebase.open(dir.resolve("kqk"), Tablebase.Check.SHA256); Tablebase inOne = Tablebase.open(whole.getParent().resolve("kqk"))) {
            long checked = 0;
            for (long key = 0; key < 1L << 19; key++) {
                Position p = Position.fromKey(kqk, key);
                if (p.key() != key || !p.isLegal()) continue;
                assertEquals(inOne.probeDtm(p), inParts.probeDtm(p), p::toString);
                if (key % 97 == 0) {
                    ProbeResult a = inOne.probe(p), b = inParts.probe(p);
                    assertEquals(a.bestMove(), b.bestMove(), p::toString);
                    assertEquals(a.mainline(), b.mainline(), p::toString);
                }
                checked++;
            }
            assertTrue(checked > 100_000, checked + " positions");
        }

        // KQKR beside it: its executors map the KQK parts for the captures of the rook
        assertEquals(0, Generate.generate(new String[] {"--endgame", "KQKR", "--out", dir.resolve("kqkr").toString(), "--partitions", "2", "--keep-packed"}));
        assertArrayEquals(Files.readAllBytes(whole.resolve("kqkr.tbl")), Files.readAllBytes(dir.resolve("kqkr").resolve("kqkr.tbl")));
    }
}
