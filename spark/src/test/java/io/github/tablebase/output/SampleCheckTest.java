package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SearchedMarks;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.SampleCheck;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.table.Successors;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jobs/verify --sample}: random positions of KPKP and its smaller tables (pawns, promotions, en passant)
 * against their moves find nothing wrong; one result byte changed in a copy of the packed file is found. With
 * KPKP's compressed file written again marking the entries its captures and promotions decide, every position of
 * its side reads as the packed file says.
 */
class SampleCheckTest {
    @Test
    void sampledPositionsAgreeWithTheirMovesAndOneChangedByteIsFound(@TempDir Path dir) throws Exception {
        Path kpkp = GeneratedTables.folder("KPKP");
        Path root = kpkp.getParent();
        try (Tablebase packed = open(root, Tablebase.Source.PACKED); Tablebase compressed = open(root, Tablebase.Source.COMPRESSED_FIRST)) {
            for (Material m : List.of(Material.parse("KPKP"), Material.parse("KQKP"), Material.parse("KPK"))) {
                SampleCheck.Report r = SampleCheck.run(packed, compressed, m, 20_000, 7);
                assertEquals(20_000, r.checked(), m.name());
                assertEquals(0, r.mismatches(), m.name() + ": " + r.firstMismatch());
            }
        }

        // a copy of the tables, with one won KPKP position's result byte made a ply longer in the packed file
        Path copy = dir.resolve("tables");
        copyTables(root, copy);
        Material material = Material.parse("KPKP");
        PositionIndex index = new PositionIndex(material);
        Path part = copy.resolve("kpkp").resolve("kpkp.tbl");
        byte[] bytes = Files.readAllBytes(part);
        Position won = null;
        long entry = -1;
        for (long i = 0; won == null; i++) {
            Position p = index.position(i, Color.WHITE);
            int result = bytes[(int) (64 + 2 * i)] & 0xFF;
            if (p != null && index.index(p) == i && p.isLegal() && result % 2 == 0 && result > 2 && result < 250) {
                won = p;
                entry = 2 * i;
            }
        }
        try (Tablebase packed = open(copy, Tablebase.Source.PACKED); Tablebase compressed = open(copy, Tablebase.Source.COMPRESSED_FIRST)) {
            assertNull(SampleCheck.check(packed, compressed, won));
        }
        bytes[(int) (64 + entry)] += 2;
        Files.write(part, bytes);
        try (Tablebase packed = open(copy, Tablebase.Source.PACKED); Tablebase compressed = open(copy, Tablebase.Source.COMPRESSED_FIRST)) {
            String wrong = SampleCheck.check(packed, compressed, won);
            assertNotNull(wrong);
            assertTrue(wrong.contains("its moves imply"), wrong);
        }

        // every White KPK win made a ply longer: the sample, checked on every core in chunks, finds them, and a seed
        // reports the same count and first disagreement each time
        Path kpk = copy.resolve("kpk").resolve("kpk.tbl");
        byte[] kpkBytes = Files.readAllBytes(kpk);
        long changed = 0;
        for (long i = 0; i < new PositionIndex(Material.parse("KPK")).size(); i++) {
            int at = (int) (64 + 2 * i), result = kpkBytes[at] & 0xFF; // White to move's result byte
            if (result % 2 == 0 && result > 2 && result < 250) {
                kpkBytes[at] += 2;
                changed++;
            }
        }
        assertTrue(changed > 1_000, changed + " wins changed");
        Files.write(kpk, kpkBytes);
        try (Tablebase packed = open(copy, Tablebase.Source.PACKED); Tablebase compressed = open(copy, Tablebase.Source.COMPRESSED_FIRST)) {
            Material kpkMaterial = Material.parse("KPK");
            SampleCheck.Report first = SampleCheck.run(packed, compressed, kpkMaterial, 10_000, 5);
            assertEquals(10_000, first.checked());
            assertTrue(first.mismatches() > 1_000 && first.mismatches() < 10_000, first.mismatches() + " of 10,000 disagree");
            for (int again = 0; again < 3; again++) assertEquals(first, SampleCheck.run(packed, compressed, kpkMaterial, 10_000, 5));
        }
    }

    @Test
    void everyPositionReadsAsPackedWhereTheCompressedFileOfEitherSideMarksThoseItsCapturesDecide(@TempDir Path dir) throws Exception {
        Path root = GeneratedTables.folder("KPKP").getParent(), copy = dir.resolve("tables");
        copyTables(root, copy);
        Material material = Material.parse("KPKP");
        PositionIndex index = new PositionIndex(material);
        // KPKP's compressed file written again with its marks, as the export writes it by default
        Map<Material, IndexedTable> smaller = GeneratedTables.smallerPackedTables(copy, material);
        IndexedTable packedKpkp = IndexedTable.open(copy.resolve("kpkp").resolve("kpkp.tbl"));
        Color white = Color.WHITE;
        Successors successors = new Successors(material, packedKpkp.resultPlane(), smaller);
        BitSet byEntry = SearchedMarks.byEntry(successors, index, packedKpkp.resultPlane(), 0, index.size());
        TableExport.BestMoves b = TableExport.bestMoves(successors, index, 0, index.size(), white, TableExport.sideMarks(byEntry, 0, 0, index.size(), white));
        // on every core, in chunks with successors of their own: the same planes and moves
        TableExport.BestMoves chunked = TableExport.bestMoves(new Successors(material, packedKpkp.resultPlane(), smaller), index, 0, index.size(), white,
                TableExport.sideMarks(byEntry, 0, 0, index.size(), white), true, true);
        assertArrayEquals(b.ranks(), chunked.ranks());
        assertArrayEquals(b.moves(), chunked.moves());
        assertArrayEquals(b.results(), chunked.results());
        // with no best moves wanted: the results alone, and no moves
        TableExport.BestMoves marksOnly = TableExport.bestMoves(new Successors(material, packedKpkp.resultPlane(), smaller), index, 0, index.size(),
                white, TableExport.sideMarks(byEntry, 0, 0, index.size(), white), true, false);
        assertArrayEquals(b.results(), marksOnly.results());
        for (int e = 0; e < marksOnly.ranks().length; e++) {
            assertEquals(IndexedTable.NO_MOVE, marksOnly.ranks()[e] & 0xFF);
            assertEquals(PositionRows.NO_MOVE, marksOnly.moves()[e]);
        }
        // the file storing either side to move, marked as the export marks it: each stored position as packed, the
        // other side searched over it
        for (Color stored : Color.values()) {
            TableExport.BestMoves side = stored == white ? b : TableExport.bestMoves(new Successors(material, packedKpkp.resultPlane(), smaller), index, 0,
                    index.size(), stored, TableExport.sideMarks(byEntry, 0, 0, index.size(), stored), true, false);
            Path cdtm = copy.resolve("kpkp").resolve("kpkp.cdtm");
            try (OutputStream out = Files.newOutputStream(cdtm)) {
                CompressedTable.write(index, 0, index.size(), side.results(), stored, side.byExits(), side.late(), out);
            }
            assertEquals(1, Files.readAllBytes(cdtm)[51] & 1, "the writer marks KPKP, a quarter of whose positions of each side its captures decide");
            long marked = 0, checked = 0;
            try (Tablebase packed = open(copy, Tablebase.Source.PACKED); Tablebase compressed = open(copy, Tablebase.Source.COMPRESSED_FIRST)) {
                assertTrue(compressed.stores(material, stored) && !compressed.stores(material, stored.opponent()));
                CompressedTable alone = CompressedTable.open(List.of(cdtm), new BlockCache(1 << 26));
                for (long i = 0; i < index.size(); i++) {
                    Position p = index.legalPosition(i, stored);
                    if (p == null) continue;
                    if (alone.result(i) == CompressedTable.BY_EXITS) marked++;
                    assertEquals(packed.probeDtm(p), compressed.probeDtm(p), p::toString);
                    checked++;
                }
                alone.close();
                // the other side to move searches the stored side's positions, marked ones among them; best moves too
                SampleCheck.Report r = SampleCheck.run(packed, compressed, material, 20_000, 11);
                assertEquals(0, r.mismatches(), r.firstMismatch());
            }
            assertEquals(side.byExits().cardinality(), marked);
            assertTrue(marked > checked / 10, marked + " of " + checked + " positions marked");
        }
    }

    /** Copies the tables under {@code root} into {@code copy}, their Parquet files left out. */
    static void copyTables(Path root, Path copy) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> !f.toString().contains("parquet")).toList()) {
                Path to = copy.resolve(root.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(to); else Files.copy(f, to);
            }
        }
    }

    private static Tablebase open(Path folder, Tablebase.Source source) throws Exception {
        return Tablebase.open(List.of(folder), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), source);
    }
}
