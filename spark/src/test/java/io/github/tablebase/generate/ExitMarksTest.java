package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SearchedMarks;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.EntryPlane;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.ResultPlane;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.Successors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The entries a solve marks as decided by their captures and promotions (from init's look at the exits, never
 * searched again) are those a prober's search of every exit finds: solved on this thread, with every ply in a byte
 * and with the plies past 15 listed (never marked); and in the compressed files a run over parts wrote from its
 * result planes, each part marking them all or none.
 */
class ExitMarksTest {
    @Test
    void theSolvesMarksAreTheEntriesWhoseBestExitGivesTheirResult() throws Exception {
        for (String endgame : List.of("KPKP", "KQKR")) { // pawns, promotions and en passant; a 69-ply mate
            Material material = Material.parse(endgame);
            PositionIndex index = new PositionIndex(material);
            Path root = GeneratedTables.folder(endgame).getParent();
            var smaller = GeneratedTables.smallerPackedTables(root, material);
            for (int filePlies : new int[] {Result.MAX_PLY, 15}) {
                SolvedPartition solved = TableSolver.solveHere(material, new Successors(material, null, smaller), filePlies).results();
                ResultPlane own = new ResultPlane(EntryPlane.of(solved.results()), solved.late());
                BitSet searched = SearchedMarks.byEntry(new Successors(material, own, smaller), index, own, 0, index.size());
                assertEquals(searched, solved.byExits(), endgame + ", " + filePlies + " plies a byte");
                assertTrue(searched.cardinality() > index.size() / 20, endgame + ": " + searched.cardinality() + " entries marked");
                assertEquals(filePlies < Result.MAX_PLY, !solved.late().isEmpty(), endgame + ": plies listed past the byte");
            }
        }
    }

    @Test
    void eachCompressedPartOfARunOverPartsMarksEveryEntryItsExitsDecideOrNone() throws Exception {
        // KQKR over 3 partitions in parts of a million entries, plies past 31 listed; and in 2 million, with its DTZ
        for (Path root : List.of(GeneratedTables.latePliesKqkr(), GeneratedTables.dtzKqkr())) {
            Material material = Material.parse("KQKR");
            PositionIndex index = new PositionIndex(material);
            Path folder = root.resolve("kqkr");
            List<Path> packedParts, compressedParts;
            try (Stream<Path> files = Files.list(folder)) {
                List<Path> all = files.sorted().toList();
                packedParts = all.stream().filter(f -> f.getFileName().toString().matches("kqkr(\\.\\d{5})?\\.tbl")).toList();
                compressedParts = all.stream().filter(f -> f.getFileName().toString().matches("kqkr(\\.\\d{5})?\\" + CompressedTable.SUFFIX)).toList();
            }
            assertTrue(compressedParts.size() > 1, compressedParts + " in " + folder);
            ResultPlane own = IndexedTable.open(packedParts).resultPlane();
            Successors successors = new Successors(material, own, GeneratedTables.smallerPackedTables(root, material));
            BitSet searched = SearchedMarks.byEntry(successors, index, own, 0, index.size());
            int marking = 0;
            CompressedTable table = CompressedTable.open(compressedParts, new BlockCache(1 << 26));
            try {
                for (Path part : compressedParts) {
                    byte[] header = Files.readAllBytes(part);
                    java.nio.ByteBuffer head = java.nio.ByteBuffer.wrap(header).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    long lo = head.getLong(32), hi = head.getLong(40);
                    int stored = header[48];
                    BitSet marked = new BitSet(), expected = new BitSet();
                    for (long i = lo; i < hi; i++) {
                        if (own.result(2 * i + stored) == Result.NONE) continue; // no position: a don't-care byte, any value
                        if (table.result(i) == CompressedTable.BY_EXITS) marked.set((int) (i - lo));
                        if (searched.get((int) (2 * i + stored))) expected.set((int) (i - lo));
                    }
                    if ((header[51] & 1) == 0) {
                        assertTrue(marked.isEmpty(), part + " marks none");
                        continue;
                    }
                    marking++;
                    assertFalse(expected.isEmpty(), part.toString());
                    BitSet onlyExpected = (BitSet) expected.clone(), onlyMarked = (BitSet) marked.clone();
                    onlyExpected.andNot(marked);
                    onlyMarked.andNot(expected);
                    assertEquals(expected, marked, () -> part + ", " + Color.values()[stored] + " to move: " + onlyExpected.cardinality() + " not marked (the first "
                            + (lo + onlyExpected.nextSetBit(0)) + "), " + onlyMarked.cardinality() + " marked and not found (the first " + (lo + onlyMarked.nextSetBit(0)) + ") of " + expected.cardinality());
                }
            } finally {
                table.close();
            }
            assertTrue(marking > 0, "a part of " + folder + " marks its entries");
        }
    }
}
