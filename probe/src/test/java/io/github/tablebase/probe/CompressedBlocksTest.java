package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.LZMAOutputStream;

/**
 * A compressed part's blocks read by hand, as docs/formats.md describes them: each block's bytes are the results in
 * the blocks' order, wins first and then losses where flag bit 1 is set; a file without that bit (as written before
 * it) is read as its bytes are; blocks of 32K entries (six pieces) and the former LZMA contexts read alike; a lookup
 * decodes its block as far as its chunk, checked by the chunks' CRC-32s; Zstandard frames (six pieces) hold the same
 * bytes as LZMA streams, and a damaged one is refused.
 */
class CompressedBlocksTest {
    private static final PositionIndex KPK = new PositionIndex(Material.parse("KPK"));

    /** The documented stored byte of a result byte (0 draw, 2k a win in k moves, 2k + 1 a loss after k, 255 a mark). */
    private static int stored(int result) {
        return result == 0 || result == 255 ? result : result % 2 == 0 ? result / 2 : 128 + result / 2;
    }

    /** Its inverse. */
    private static int result(int stored) {
        return stored == 0 || stored == 255 ? stored : stored < 128 ? 2 * stored : 2 * (stored - 128) + 1;
    }

    /** Every result byte, and don't-care entries (255 in the packed plane), for the stored side; the other side zero. */
    private static byte[] results(int side) {
        Random random = new Random(6);
        byte[] results = new byte[(int) (2 * KPK.size())];
        for (int at = 0; at < KPK.size(); at++) results[2 * at + side] = (byte) (random.nextInt(8) == 0 ? 255 : random.nextInt(255));
        return results;
    }

    private static byte[] written(byte[] results, int side, int block) throws Exception { return written(results, side, block, BlockCodec.LZMA, 1); }

    private static byte[] written(byte[] results, int side, int block, BlockCodec codec) throws Exception { return written(results, side, block, codec, 1); }

    /** The stored side of KPK in the index's order, its don't-care entries copying the byte {@code fill} before them. */
    private static byte[] written(byte[] results, int side, int block, BlockCodec codec, int fill) throws Exception {
        byte[] ordered = new byte[(int) KPK.size()];
        BlockOrder order = BlockOrder.of(KPK, KPK.size(), 0).filling(fill);
        order.arrange(results, side, ordered);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedTable.write(KPK, 0, KPK.size(), CompressedTable.strongerSide(KPK.material()).ordinal(), block, codec, order, ordered, null, null, LatePlies.NONE, out);
        return out.toByteArray();
    }

    /** The blocks of a part file, decompressed by hand (xz-java, or zstd's own library), each checked against its CRC-32. */
    private static byte[][] blocks(byte[] file) throws Exception {
        ByteBuffer head = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        long entries = head.getLong(40) - head.getLong(32);
        int dictionary = head.getInt(52), perBlock = head.getInt(56), blocks = (int) ((entries + perBlock - 1) / perBlock);
        int stride = CompressedTable.BLOCK_ENTRY + ((file[51] & CompressedTable.CHUNK_CRCS) != 0 ? 4 * CompressedTable.CHUNKS : 0);
        byte[][] bytes = new byte[blocks][];
        for (int j = 0; j < blocks; j++) {
            int at = 64 + stride * j, offset = (int) head.getLong(at), length = head.getInt(at + 8), n = (int) Math.min(perBlock, entries - (long) j * perBlock);
            bytes[j] = new byte[n];
            if ((file[51] & CompressedTable.ZSTD_FRAMES) != 0) bytes[j] = com.github.luben.zstd.Zstd.decompress(Arrays.copyOfRange(file, offset, offset + length), n);
            else try (InputStream in = new LZMAInputStream(new ByteArrayInputStream(file, offset, length), n, file[49], dictionary)) {
                for (int k = 0; k < n; ) {
                    int read = in.read(bytes[j], k, n - k);
                    assertTrue(read > 0, "block " + j + " ends after " + k + " of " + n + " bytes");
                    k += read;
                }
            }
            CRC32 crc = new CRC32();
            crc.update(bytes[j]);
            assertEquals(head.getInt(at + 12), (int) crc.getValue(), "block " + j + "'s CRC-32");
            int chunk = CompressedTable.chunkEntries(perBlock);
            for (int c = 0; stride > CompressedTable.BLOCK_ENTRY && c < CompressedTable.CHUNKS; c++) {
                crc.reset();
                crc.update(bytes[j], Math.min(n, c * chunk), Math.min(n, (c + 1) * chunk) - Math.min(n, c * chunk));
                assertEquals(head.getInt(at + 16 + 4 * c), (int) crc.getValue(), "block " + j + ", chunk " + c + "'s CRC-32");
            }
        }
        return bytes;
    }

    /** Each block holds the results wins first, then losses; a don't-care entry the byte before it, or a row above (48, KPK's pawn). */
    @Test
    void eachBlockHoldsTheResultsWinsFirstThenLosses() throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal();
        for (int fill : new int[] {1, 48}) {
            byte[] results = results(side), file = written(results, side, CompressedTable.BLOCK, BlockCodec.LZMA, fill);
            assertEquals(2, file[51] & 2, "flag bit 1");
            byte[][] blocks = blocks(file);
            int at = 0;
            for (byte[] block : blocks)
                for (int k = 0; k < block.length; k++, at++) {
                    int r = results[2 * at + side] & 0xFF, expected = r != 255 ? stored(r) : k >= fill ? block[k - fill] & 0xFF : 0;
                    assertEquals(expected, block[k] & 0xFF, "entry " + at + ", result byte " + r + ", filled from " + fill + " before");
                }
            assertEquals(KPK.size(), at);
        }
    }

    /**
     * The writer fills a part's don't-care entries from a row above where its sample compresses smaller so: KRKN's
     * results a sum of the rook's and the knight's squares' terms, a quarter of them don't-care (with a piece's square in
     * front, the row above, a king pair before, holds the same value); and from the byte before where each row of knight squares is one value.
     */
    @Test
    void theWriterFillsDontCareEntriesFromARowAboveWhereThatCompressesSmaller() throws Exception {
        PositionIndex index = new PositionIndex(Material.parse("KRKN"));
        int size = (int) index.size(), side = CompressedTable.strongerSide(index.material()).ordinal();
        for (boolean byPieces : new boolean[] {true, false}) {
            Random random = new Random(7);
            byte[] results = new byte[2 * size];
            for (int at = 0; at < size; at++)
                results[2 * at + side] = (byte) (random.nextInt(4) == 0 ? 255 : byPieces ? 1 + (at % 64 * 7 + at / 64 % 64 * 11) % 60 : 1 + at / 64 % 50);
            CompressedTable.Choice choice = CompressedTable.leastOrder(index, results, side, null, size, CompressedTable.BLOCK, BlockCodec.LZMA);
            assertEquals(byPieces ? 64 : 1, choice.order().fill, (byPieces ? "by the rook's and knight's squares" : "one value a row") + ", lead " + choice.order().lead);
            long[] bytes = new long[2];
            for (int f = 0; f < 2; f++) {
                BlockOrder order = BlockOrder.of(index, size, choice.order().lead).filling(f == 0 ? 1 : 64);
                byte[] ordered = new byte[size];
                order.arrange(results, side, ordered);
                bytes[f] = CompressedTable.write(index, 0, size, side, CompressedTable.BLOCK, BlockCodec.LZMA, order, ordered, null, null, LatePlies.NONE,
                        OutputStream.nullOutputStream());
            }
            assertTrue(byPieces ? bytes[1] < bytes[0] : bytes[0] < bytes[1], (byPieces ? "by the rook's and knight's squares: " : "one value a row: ") + bytes[0]
                    + " bytes filled from the byte before, " + bytes[1] + " from a row above");
        }
    }

    @Test
    void aFileWithoutFlagBitOneIsReadAsItsBytesAre(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal();
        byte[] results = results(side), file = written(results, side, CompressedTable.BLOCK);
        // the same part as the format was before the flag: the result bytes themselves, compressed again
        int properties = file[49] & 0xFF;
        assertReads(results, side, recompressed(file, true, properties % 9, properties / 45), dir.resolve("kpk.cdtm"));
    }

    @Test
    void blocksOfAnySizeAndLzmaContextsReadTheSameResults(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal();
        byte[] results = results(side), sixPieceBlocks = written(results, side, 1 << 15);
        assertEquals((KPK.size() + (1 << 15) - 1) >> 15, blocks(sixPieceBlocks).length);
        assertReads(results, side, sixPieceBlocks, dir.resolve("32k.cdtm"));
        // as the generator wrote its files before lc 0 and pb 0: 64K blocks, lc 3, pb 3
        assertReads(results, side, recompressed(written(results, side, CompressedTable.BLOCK), false, 3, 3), dir.resolve("lc3pb3.cdtm"));
    }

    @Test
    void zstandardFramesHoldTheSameBytesAsLzmaStreamsAndReadTheSameResults(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal(), block = 1 << 15;
        byte[] results = results(side), zstd = written(results, side, block, BlockCodec.ZSTD);
        assertEquals(CompressedTable.ZSTD_FRAMES, zstd[51] & (CompressedTable.ZSTD_FRAMES | CompressedTable.CHUNK_CRCS), "flag bits 3 and 2");
        assertEquals(0, zstd[49], "no LZMA properties");
        byte[][] frames = blocks(zstd), streams = blocks(written(results, side, block));
        assertEquals(streams.length, frames.length);
        for (int j = 0; j < frames.length; j++) assertArrayEquals(streams[j], frames[j], "block " + j);
        assertReads(results, side, zstd, dir.resolve("zstd.cdtm"));
    }

    @Test
    void aDamagedZstandardFrameIsRefusedByTheLookupThatReadsIt(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal(), block = 1 << 15;
        byte[] results = results(side), file = written(results, side, block, BlockCodec.ZSTD);
        ByteBuffer head = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int entry = CompressedTable.HEADER + CompressedTable.BLOCK_ENTRY; // block 1's
        int offset = (int) head.getLong(entry), length = head.getInt(entry + 8);
        file[offset + length / 2] ^= 0x5A;
        Path path = dir.resolve("kpk.cdtm");
        Files.write(path, file);
        CompressedTable table = CompressedTable.open(List.of(path), new BlockCache(1 << 24));
        long inBlock0 = firstStored(results, side, 0), inBlock1 = firstStored(results, side, block);
        assertEquals(results[(int) (2 * inBlock0 + side)] & 0xFF, table.result(inBlock0));
        CorruptTableException e = org.junit.jupiter.api.Assertions.assertThrows(CorruptTableException.class, () -> table.result(inBlock1));
        assertTrue(e.getMessage().contains("block 1 does not"), e.getMessage());
        table.close();
    }

    @Test
    void aLookupDecodesItsBlockToTheEndOfItsChunkAndChecksThatFar(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal(), chunk = CompressedTable.chunkEntries(CompressedTable.BLOCK);
        byte[] results = results(side), file = written(results, side, CompressedTable.BLOCK);
        // block 0's chunk 5 given another CRC-32, the header's own CRC-32 made again: only that chunk reads as damaged
        ByteBuffer head = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int at = CompressedTable.HEADER + CompressedTable.BLOCK_ENTRY + 4 * 5;
        head.putInt(at, ~head.getInt(at));
        head.putInt(60, CompressedTable.headerCrc(Arrays.copyOf(file, CompressedTable.HEADER + (CompressedTable.BLOCK_ENTRY + 4 * CompressedTable.CHUNKS)
                * (int) ((KPK.size() + CompressedTable.BLOCK - 1) / CompressedTable.BLOCK))));
        Path path = dir.resolve("kpk.cdtm");
        Files.write(path, file);
        long first = firstStored(results, side, 0), inChunk5 = firstStored(results, side, 5L * chunk); // the index's own order: offset = index
        BlockCache cache = new BlockCache(1 << 24);
        CompressedTable table = CompressedTable.open(List.of(path), cache);
        assertEquals(results[(int) (2 * first + side)] & 0xFF, table.result(first));
        assertEquals(chunk, cache.used(), "one chunk decoded");
        long inChunk2 = firstStored(results, side, 2L * chunk);
        assertEquals(results[(int) (2 * inChunk2 + side)] & 0xFF, table.result(inChunk2));
        assertEquals(3 * chunk, cache.used(), "two more chunks decoded, the first one's copy replaced");
        table.close();
        CompressedTable again = CompressedTable.open(List.of(path), cache);
        CorruptTableException e = org.junit.jupiter.api.Assertions.assertThrows(CorruptTableException.class, () -> again.result(inChunk5));
        assertTrue(e.getMessage().endsWith("block 0 does not match its CRC-32"), e.getMessage());
        again.close();
    }

    /**
     * Tables sharing a cache share its room for blocks decoded in part, an eighth of its budget in all (a set's lookups
     * reach a hundred tables): three copies of a KPK part in blocks of 4096 entries, a lookup in each block's first
     * chunk of each, keep no more; closed, they keep none.
     */
    @Test
    void tablesSharingACacheKeepTheirBlocksDecodedInPartWithinAnEighthOfItInAll(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal(), block = 4096;
        byte[] results = results(side);
        Path path = dir.resolve("kpk.cdtm");
        Files.write(path, written(results, side, block));
        long budget = 1 << 20;
        BlockCache cache = new BlockCache(budget);
        List<CompressedTable> tables = List.of(CompressedTable.open(List.of(path), cache), CompressedTable.open(List.of(path), cache),
                CompressedTable.open(List.of(path), cache));
        int blocks = (int) ((KPK.size() + block - 1) / block);
        for (int j = 0; j < blocks; j++)
            for (CompressedTable table : tables) {
                long i = firstStored(results, side, (long) j * block);
                assertEquals(results[(int) (2 * i + side)] & 0xFF, table.result(i));
            }
        assertTrue(3L * blocks * 2 * block > 2 * budget / 8, "the lookups decode more than the room in part");
        assertTrue(cache.partialBytes() <= budget / 8 && cache.partialBytes() > budget / 16, cache.partialBytes() + " bytes decoded in part");
        for (CompressedTable table : tables) table.close();
        assertEquals(0, cache.partialBytes());
    }

    @Test
    void theOldestBlocksDecodedInPartAreFinishedWhereTheCacheHoldsTheTableElseLetGo(@TempDir Path dir) throws Exception {
        int side = CompressedTable.strongerSide(KPK.material()).ordinal(), block = 4096, chunk = CompressedTable.chunkEntries(block);
        byte[] results = results(side);
        Path path = dir.resolve("kpk.cdtm");
        Files.write(path, written(results, side, block));
        int blocks = (int) ((KPK.size() + block - 1) / block);
        for (long budget : new long[] {1 << 20, KPK.size() - 1}) { // holds the table, or not
            int kept = (int) Math.max(BlockCache.LEAST_PARTIAL_BLOCKS, budget / 8 / (2 * block)); // an eighth of the budget, a block twice each
            assertTrue(kept < blocks, kept + " decoders kept, " + blocks + " blocks");
            BlockCache cache = new BlockCache(budget);
            CompressedTable table = CompressedTable.open(List.of(path), cache);
            long expected = 0;
            for (int j = 0; j < blocks; j++) { // a lookup in each block's first chunk, the index's own order
                long i = firstStored(results, side, (long) j * block);
                assertTrue(i < (long) j * block + chunk, "an entry to read in block " + j + "'s first chunk");
                assertEquals(results[(int) (2 * i + side)] & 0xFF, table.result(i));
                int size = (int) Math.min(block, KPK.size() - (long) j * block);
                expected += budget >= KPK.size() && j < blocks - kept ? size : Math.min(chunk, size);
            }
            assertEquals(expected, cache.used(), budget + " bytes of cache");
            for (long i = 0; i < KPK.size(); i++) // every entry, the blocks decoded on from where they stopped
                if ((results[(int) (2 * i + side)] & 0xFF) != 255) assertEquals(results[(int) (2 * i + side)] & 0xFF, table.result(i), "index " + i);
            table.close();
        }
    }

    /** The first index from {@code from} whose stored side's result is not a don't-care. */
    private static long firstStored(byte[] results, int side, long from) {
        for (long i = from; ; i++) if ((results[(int) (2 * i + side)] & 0xFF) != 255) return i;
    }

    /** Every entry of a part file, opened from {@code path}, as {@code results} holds it. */
    private static void assertReads(byte[] results, int side, byte[] file, Path path) throws Exception {
        Files.write(path, file);
        CompressedTable table = CompressedTable.open(List.of(path), new BlockCache(1 << 24));
        for (long i = 0; i < KPK.size(); i++) {
            int r = results[(int) (2 * i + side)] & 0xFF;
            if (r != 255) assertEquals(r, table.result(i), path.getFileName() + ": index " + i);
        }
        table.close();
    }

    /**
     * A part file's blocks compressed again by hand with LZMA contexts {@code lc} and {@code pb}, and with {@code
     * resultBytes} as the result bytes themselves (flag bit 1 cleared); without chunk CRC-32s (flag bit 2 cleared), as
     * files were before them.
     */
    private static byte[] recompressed(byte[] file, boolean resultBytes, int lc, int pb) throws Exception {
        byte[][] blocks = blocks(file);
        int m = blocks.length, tableEnd = CompressedTable.HEADER + CompressedTable.BLOCK_ENTRY * m;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ByteBuffer head = ByteBuffer.wrap(Arrays.copyOf(file, tableEnd)).order(ByteOrder.LITTLE_ENDIAN);
        head.put(51, (byte) (file[51] & ~CompressedTable.CHUNK_CRCS & (resultBytes ? ~2 : ~0)));
        head.put(49, (byte) (pb * 45 + lc));
        LZMA2Options options = new LZMA2Options();
        options.setDictSize(head.getInt(52));
        options.setLcLp(lc, 0);
        options.setPb(pb);
        for (int j = 0; j < m; j++) {
            byte[] raw = new byte[blocks[j].length];
            for (int k = 0; k < raw.length; k++) raw[k] = (byte) (resultBytes ? result(blocks[j][k] & 0xFF) : blocks[j][k]);
            ByteArrayOutputStream data = new ByteArrayOutputStream();
            try (OutputStream lzma = new LZMAOutputStream(data, options, false)) {
                lzma.write(raw);
            }
            CRC32 crc = new CRC32();
            crc.update(raw);
            head.putLong(64 + 16 * j, tableEnd + body.size()).putInt(64 + 16 * j + 8, data.size()).putInt(64 + 16 * j + 12, (int) crc.getValue());
            body.write(data.toByteArray());
        }
        head.putInt(60, CompressedTable.headerCrc(head.array()));
        byte[] out = Arrays.copyOf(head.array(), tableEnd + body.size());
        System.arraycopy(body.toByteArray(), 0, out, tableEnd, body.size());
        return out;
    }
}
