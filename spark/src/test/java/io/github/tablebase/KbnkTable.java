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
    public static Path damagedCopy(Path dir) throws Exception { return damagedCopy(dir, block -> true); }

    /** {@link #damagedCopy(Path)} with only the blocks {@code damaged} accepts damaged (by their number). */
    public static Path damagedCopy(Path dir, java.util.function.IntPredicate damaged) throws Exception {
        Path copy = dir.resolve("kbnk");
        Files.createDirectories(copy);
        Files.copy(folder().resolve("manifest.json"), copy.resolve("manifest.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        byte[] bytes = Files.readAllBytes(folder().resolve("kbnk.cdtm"));
        java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long indexes = header.getLong(40) - header.getLong(32);
        int perBlock = header.getInt(56), blocks = (int) ((indexes + perBlock - 1) / perBlock);
        // after the 64-byte header, a block table entry a block (its offset and length first; 48 bytes with its chunks'
        // CRC-32s, flag bit 2), then the blocks
        int entry = (bytes[51] & 4) != 0 ? 48 : 16;
        for (int j = 0; j < blocks; j++) {
            if (!damaged.test(j)) continue;
            long offset = header.getLong(64 + entry * j);
            int length = header.getInt(64 + entry * j + 8);
            for (long at = offset; at < offset + length; at++) bytes[(int) at] ^= 0x55;
        }
        Files.write(copy.resolve("kbnk.cdtm"), bytes);
        return copy;
    }

    /** The number of blocks of the table's compressed file. */
    public static int blocks() throws Exception {
        byte[] head = new byte[64];
        try (java.io.InputStream in = Files.newInputStream(folder().resolve("kbnk.cdtm"))) {
            if (in.readNBytes(head, 0, 64) != 64) throw new java.io.EOFException("a short kbnk.cdtm");
        }
        java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(head).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long indexes = header.getLong(40) - header.getLong(32);
        int perBlock = header.getInt(56);
        return (int) ((indexes + perBlock - 1) / perBlock);
    }
}
