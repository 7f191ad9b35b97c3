package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMAInputStream;

/**
 * The codec trial reads a part's blocks as the file stores them (checked against blocks decoded by hand with xz-java),
 * and the writer's own setting over every block gives back the file's block bytes, entry for entry.
 */
class CodecTrialTest {
    private static final PositionIndex KPK = new PositionIndex(Material.parse("KPK"));
    private static final int BLOCK = 4096;

    /** KPK's stored side written in blocks of {@link #BLOCK}, results runs of random lengths (compressible, not trivial). */
    private static byte[] file() throws Exception {
        Random random = new Random(17);
        byte[] results = new byte[(int) (2 * KPK.size())];
        int side = CompressedTable.strongerSide(KPK.material()).ordinal();
        for (int at = 0; at < KPK.size(); ) {
            byte b = (byte) (random.nextInt(6) == 0 ? 255 : random.nextInt(40));
            for (int run = 1 + random.nextInt(30); run > 0 && at < KPK.size(); run--, at++) results[2 * at + side] = b;
        }
        byte[] ordered = new byte[(int) KPK.size()];
        BlockOrder order = BlockOrder.of(KPK, KPK.size(), 0);
        order.arrange(results, side, ordered);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedTable.write(KPK, 0, KPK.size(), side, BLOCK, BlockCodec.LZMA, order, ordered, null, null, LatePlies.NONE, out);
        return out.toByteArray();
    }

    /** The file's blocks decoded by hand, as docs/formats.md lays them out: the bytes as stored, and their compressed lengths. */
    private static byte[][] handDecoded(byte[] file, long[] compressedBytes) throws Exception {
        ByteBuffer head = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int entries = (int) (head.getLong(40) - head.getLong(32)), perBlock = head.getInt(56), blocks = (entries + perBlock - 1) / perBlock;
        int stride = CompressedTable.BLOCK_ENTRY + ((file[51] & CompressedTable.CHUNK_CRCS) != 0 ? 4 * CompressedTable.CHUNKS : 0);
        byte[][] out = new byte[blocks][];
        for (int j = 0; j < blocks; j++) {
            int at = 64 + stride * j, offset = (int) head.getLong(at), length = head.getInt(at + 8);
            compressedBytes[0] += length;
            out[j] = new byte[Math.min(perBlock, entries - j * perBlock)];
            new DataInputStream(new LZMAInputStream(new ByteArrayInputStream(file, offset, length), out[j].length, file[49], head.getInt(52)))
                    .readFully(out[j]);
        }
        return out;
    }

    @Test
    void theWritersSettingGivesBackTheFilesBlocksAndASampleIsTheFilesOwnStretches(@TempDir Path dir) throws Exception {
        byte[] file = file();
        Path path = dir.resolve("kpk.cdtm");
        Files.write(path, file);
        long[] compressed = {0};
        byte[][] blocks = handDecoded(file, compressed);
        assertTrue(blocks.length > 10, blocks.length + " blocks");
        CompressedTable table = CompressedTable.open(List.of(path), new BlockCache(1 << 24));
        try {
            for (int j = 0; j < blocks.length; j++) assertArrayEquals(blocks[j], table.storedBlock(0, j), "block " + j);

            CodecTrial.Setting writers = CodecTrial.Setting.parse("lzma:" + BLOCK);
            CodecTrial.Outcome whole = CodecTrial.run(table, 1000, List.of(writers)).get(0);
            assertEquals(KPK.size(), whole.entries());
            assertEquals(compressed[0], whole.bytes(), "the writer's setting over every block: the file's block bytes");

            // two stretches of two blocks each (a setting of twice the block), spread over the part: blocks 0-1 and m/2 on
            List<byte[]> stretches = CodecTrial.stretches(table, 2, 2 * BLOCK);
            assertEquals(2, stretches.size());
            int half = blocks.length / 2;
            assertArrayEquals(concat(blocks[0], blocks[1]), stretches.get(0));
            assertArrayEquals(concat(blocks[half], blocks[half + 1]), stretches.get(1));

            CodecTrial.Outcome larger = CodecTrial.run(table, 1000, List.of(CodecTrial.Setting.parse("lzma:" + 4 * BLOCK + ":273"))).get(0);
            assertEquals(KPK.size(), larger.entries());
            assertTrue(larger.bytes() < whole.bytes(), larger.bytes() + " bytes in blocks four times as large against " + whole.bytes());
        } finally {
            table.close();
        }
    }

    @Test
    void settingsAreParsedOrRefusedInOneLine() {
        assertEquals(new CodecTrial.Setting(BlockCodec.LZMA, 65536, BlockCodec.NICE_LENGTH), CodecTrial.Setting.parse("lzma:65536"));
        assertEquals(new CodecTrial.Setting(BlockCodec.ZSTD, 32768, 22), CodecTrial.Setting.parse("ZSTD:32768:22"));
        for (String bad : List.of("lzma", "gzip:65536", "lzma:0", "lzma:65536:300", "zstd:65536:23", "lzma:x:96", "lzma:1:2:3"))
            assertThrows(IllegalArgumentException.class, () -> CodecTrial.Setting.parse(bad), bad);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
