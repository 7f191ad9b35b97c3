package io.github.tablebase.probe;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The tables the probe module carries for its own tests: the compressed files and manifests of KPK and of the four
 * tables its promotions reach (KQK, KRK, KBK, KNK), about 30 KB, as {@code jobs/generate --endgame KPK --no-parquet}
 * writes them. The library, the commands and the server are tested on them with no Spark.
 */
public final class CarriedTables {
    private CarriedTables() {}

    /** The folder of the carried tables (a folder of table folders). */
    public static Path folder() throws Exception {
        return Path.of(CarriedTables.class.getResource("/tables/kpk/" + Manifest.FILE).toURI()).getParent().getParent();
    }

    /** A copy of the carried tables in {@code dir} whose KPK blocks are damaged (their LZMA bytes flipped), the headers whole. */
    public static Path withDamagedKpk(Path dir) throws Exception {
        try (Stream<Path> tables = Files.list(folder())) {
            for (Path table : tables.toList()) {
                Path copy = Files.createDirectories(dir.resolve(table.getFileName().toString()));
                try (Stream<Path> files = Files.list(table)) {
                    for (Path f : files.toList()) Files.copy(f, copy.resolve(f.getFileName().toString()));
                }
            }
        }
        Path kpk = dir.resolve("kpk").resolve("kpk.cdtm");
        byte[] bytes = Files.readAllBytes(kpk);
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long indexes = header.getLong(40) - header.getLong(32);
        int perBlock = header.getInt(56), blocks = (int) ((indexes + perBlock - 1) / perBlock);
        int entry = (bytes[51] & CompressedTable.CHUNK_CRCS) != 0 ? CompressedTable.BLOCK_ENTRY + 4 * CompressedTable.CHUNKS : CompressedTable.BLOCK_ENTRY;
        for (int at = 64 + entry * blocks; at < bytes.length; at++) bytes[at] ^= 0x55; // after the header and the block table
        Files.write(kpk, bytes);
        return dir;
    }
}
