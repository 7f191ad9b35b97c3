package io.github.tablebase;

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
     * A copy of the table into {@code dir} whose compressed blocks are all damaged, its header and block table intact
     * (the manifest unchanged): it opens, and fails with a CorruptTableException as soon as a probe reads a value.
     */
    public static Path damagedCopy(Path dir) throws Exception {
        Path copy = dir.resolve("kbnk");
        Files.createDirectories(copy);
        Files.copy(folder().resolve("manifest.json"), copy.resolve("manifest.json"));
        byte[] bytes = Files.readAllBytes(folder().resolve("kbnk.cdtm"));
        java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long indexes = header.getLong(40) - header.getLong(32);
        int perBlock = header.getInt(56), blocks = (int) ((indexes + perBlock - 1) / perBlock);
        // after the 64-byte header and a block table entry a block (48 bytes with its chunks' CRC-32s, flag bit 2), the blocks
        for (int at = 64 + ((bytes[51] & 4) != 0 ? 48 : 16) * blocks; at < bytes.length; at++) bytes[at] ^= 0x55;
        Files.write(copy.resolve("kbnk.cdtm"), bytes);
        return copy;
    }
}
