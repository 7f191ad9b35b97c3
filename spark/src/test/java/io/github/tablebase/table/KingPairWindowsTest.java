package io.github.tablebase.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.cli.Generate;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A smaller table read a king pair at a time ({@link KingPairWindows}) instead of mapped whole: every entry as the
 * mapped files give it, through a file system that is not the local disk, with one window held; and a table made
 * so, its smaller tables too, byte for byte the table made with them mapped.
 */
class KingPairWindowsTest {
    @Test
    void everyEntryReadsAsTheMappedFilesWithOneWindowHeldThroughAFileSystemThatIsNotTheDisk() throws Exception {
        Path folder = GeneratedTables.folder("KPKP").getParent().resolve("kqkp"); // made for KPKP's promotions
        Manifest manifest = Manifest.read(folder.resolve(Manifest.FILE));
        List<String> names = manifest.packedFiles().stream().map(Manifest.FileEntry::name).toList();
        Configuration hadoop = new Configuration();
        hadoop.set("fs.tbremote.impl", TableFilesTest.Remote.class.getName());
        hadoop.setBoolean("fs.tbremote.impl.disable.cache", true);
        Material kqkp = Material.parse("KQKP");
        PositionIndex index = new PositionIndex(kqkp);
        TableFiles remote = new TableFiles(kqkp, "tbremote://" + folder.toAbsolutePath(), names);
        List<Path> local = new ArrayList<>();
        for (String name : names) local.add(folder.resolve(name));
        IndexedTable mapped = IndexedTable.open(local);
        for (long budget : new long[] {1, 5 * KingPairWindows.windowBytes(index)}) {
            KingPairWindows windows = KingPairWindows.open(remote, hadoop, budget, null);
            for (long entry = 0; entry < 2 * index.size(); entry++) same(mapped, windows, entry);
            for (long entry = 2 * index.size() - 1; entry >= 0; entry -= 4099) same(mapped, windows, entry); // pairs dropped long before
            long read = windows.loads();
            assertTrue(read > index.kingPairs(), read + " windows read for " + index.kingPairs() + " king pairs: the ones dropped are read again");
        }
    }

    @Test
    void aTableMadeWithItsSmallerTablesReadAKingPairAtATimeIsByteForByteTheMappedOnes(@TempDir Path dir) throws Exception {
        Path mapped = GeneratedTables.folder("KPKP");
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
            exit = Generate.generate(new String[] {"--endgame", "KPKP", "--out", dir.resolve("kpkp").toString(), "--partitions", "2", "--keep-packed",
                    "--conf", RunSettings.SMALLER_TABLE_BYTES + "=150k"}); // some 20 windows of KQKP, the largest
        } finally {
            System.setOut(out);
        }
        String lines = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, exit, lines);
        assertTrue(lines.matches("(?s).*\nKPKP: read its smaller tables larger than " + RunSettings.SMALLER_TABLE_BYTES
                + " a king pair at a time, [0-9.,]+ MB in all\n.*"), lines);
        Map<String, String> made = files(dir), expected = files(mapped.getParent());
        assertTrue(made.size() >= 10, made.keySet()::toString); // KPKP and the tables its captures and promotions reach
        made.forEach((name, sha256) -> assertEquals(expected.get(name), sha256, name));
    }

    private static void same(IndexedTable mapped, KingPairWindows windows, long entry) {
        int expected = mapped.result(entry), read = windows.result(entry);
        if (expected != read) assertEquals(expected, read, "entry " + entry);
    }

    /** The packed and compressed files of every table folder under {@code root}, by folder and name, with their SHA-256. */
    private static Map<String, String> files(Path root) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> folders = Files.list(root)) {
            for (Path folder : folders.filter(f -> Files.isRegularFile(f.resolve(Manifest.FILE))).toList()) {
                Manifest m = Manifest.read(folder.resolve(Manifest.FILE));
                for (List<Manifest.FileEntry> listed : List.of(m.packedFiles(), m.compressedFiles()))
                    for (Manifest.FileEntry f : listed) files.put(folder.getFileName() + "/" + f.name(), f.sha256());
            }
        }
        return files;
    }
}
