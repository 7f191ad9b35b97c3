package tablebase;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The full KBNK table, generated once per test JVM ({@link GeneratedTables}), for every test that reads it.
 * For quick local iterations {@code -Dtablebase.test.kbnk=DIR} names a table generated earlier instead.
 */
public final class KbnkTable {
    private static Path folder;

    private KbnkTable() {}

    public static synchronized Path folder() throws Exception {
        if (folder == null && System.getProperty("tablebase.test.kbnk") != null) folder = Path.of(System.getProperty("tablebase.test.kbnk"));
        if (folder == null) folder = GeneratedTables.folder("KBNK");
        return folder;
    }

    /**
     * A copy of the table into {@code dir} whose every stored move is out of range (the manifest unchanged): it opens,
     * answers DTM lookups, and fails with a CorruptTableException as soon as a probe reads a move.
     */
    public static Path damagedCopy(Path dir) throws Exception {
        Path copy = dir.resolve("kbnk");
        Files.createDirectories(copy);
        Files.copy(folder().resolve("manifest.json"), copy.resolve("manifest.json"));
        byte[] bytes = Files.readAllBytes(folder().resolve("kbnk.tbl"));
        // after the 64-byte header, the result plane and then the move plane, of equal size
        for (int at = 64 + (bytes.length - 64) / 2; at < bytes.length; at++) bytes[at] = (byte) 254;
        Files.write(copy.resolve("kbnk.tbl"), bytes);
        return copy;
    }
}
