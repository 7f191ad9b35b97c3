package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MaterialChange;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.MoveGenerator;
import io.github.tablebase.chess.Piece;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.zip.CRC32;

/**
 * The compressed table of an endgame, the format a prober ships: the result bytes of one side to move only, in
 * blocks of {@link #blockEntries} entries, each compressed on its own ({@link BlockCodec}: raw LZMA, or at six pieces a Zstandard frame), so
 * that a lookup decompresses one block. No best moves: the probe finds them by one ply of search, as it finds the value of
 * a position with the other side to move. Like the packed table, one or more part files, each a range of whole king
 * pairs ({@code kqkr.cdtm}, or {@code kqkr.00000.cdtm}, ... as the manifest lists them). Little-endian:
 * <pre>
 *   0      8 bytes  magic "TBDTMZ01"
 *   8     16 bytes  material, ASCII, NUL-padded
 *  24      int64    index size N of the whole table
 *  32      int64    lo, first index of this part
 *  40      int64    hi, end of this part's indexes (exclusive)
 *  48      byte     side to move stored: 0 White, 1 Black, the same in every part ({@link #lesserSide})
 *  49      byte     LZMA properties, (pb * 5 + lp) * 9 + lc; 0 with bit 3
 *  50      byte     the lead of the blocks' order ({@link BlockOrder}): 0 the index's order, r run r - 1 in front
 *  51      byte     flags: bit 0 set, byte 255 marks an entry that its captures and promotions decide ({@link #BY_EXITS});
 *                     bit 1 set, the blocks hold the result bytes wins first, then losses ({@link #STORED_BYTE});
 *                     bit 2 set, each block table entry holds its chunks' CRC-32s ({@link #CHUNKS});
 *                     bit 3 set, each block is a Zstandard frame (never with bit 2)
 *  52      int32    LZMA dictionary size; B with bit 3
 *  56      int32    entries per block B
 *  60      int32    CRC-32 of bytes 0 .. 59 and the block table
 *  64     E bytes   a block table entry per block, M = ceil((hi - lo) / B) of them: int64 offset of the block's
 *                     compressed bytes from the file's start, int32 their length, int32 CRC-32 of the B bytes (fewer
 *                     in the last block) it decompresses to; where flag bit 2 is set, 8 int32 more, the CRC-32 of each
 *                     chunk of ceil(B / 8) of those bytes in turn (fewer or none in the last block: an empty chunk's
 *                     is 0); E is 16, or 48 with bit 2
 *  64+E*M           the blocks, raw LZMA streams with no end marker, or with bit 3 Zstandard frames (RFC 8878)
 *                   only in a table with plies past 253: the part's {@link LatePlies} of the stored side, the
 *                     entries whose byte 254 stands for a later ply, with their plies
 * </pre>
 * Byte k of block j is the result byte (as in the packed table: 0 draw, else ply + 1), with the stored side to move,
 * of the index at offset j * B + k of the part in its blocks' order; where flag bit 1 is set (the generator sets it),
 * as {@link #STORED_BYTE} maps it: a win in k moves as k, a loss after k moves as 128 + k. An index with no
 * canonical legal position holds the byte before it in its block (0 at a block's start), which compresses to almost
 * nothing: a lookup checks the position's legality before it reads. Where flag bit 0 is set, byte 255 marks an
 * entry whose value is that of its best capture or promotion: a lookup finds it from those moves in the smaller
 * tables, and the writer marks such entries in a part only where that compresses it smaller.
 *
 * <p>Lookups are thread-safe: blocks are decompressed into a shared {@link BlockCache}, and the files are read with
 * positional reads. {@link #close()} closes the files.
 */
public final class CompressedTable implements DtmTable {
    static final byte[] MAGIC = "TBDTMZ01".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER = 64, BLOCK_ENTRY = 16;
    /**
     * The chunks a block's CRC-32s cover where flag {@link #CHUNK_CRCS} is set, each {@link #chunkEntries} of it: a lookup
     * decodes its block up to the end of its own chunk and checks that far (KRRRKQ: 148 us a 32K block at the median
     * against 238 us whole), a block-table entry 32 bytes more.
     */
    static final int CHUNKS = 8;
    /** The most entries a block holds, {@link #blockEntries} of a table of up to five pieces. */
    public static final int BLOCK = 1 << 16;

    /**
     * Entries per block of a table: {@link #BLOCK} (a lookup in a block not held decompresses 64 KB, 0.7 ms), or 32K
     * at six pieces and more, whose tables no default cache holds and whose whole probes (the side not stored searched
     * after each move of the other) touch a few hundred blocks: a 32K block decodes in about half the time (KRRRKQ:
     * 102.2 MB against 98.3 MB in 64K blocks; 16K blocks: 24 % more than 64K on its first part).
     */
    public static int blockEntries(Material material) { return material.size() >= 6 ? 1 << 15 : BLOCK; }
    public static final String SUFFIX = ".cdtm";

    /**
     * One part file: its index range, block table (with {@code chunkCrcs}, {@link #CHUNKS} a block, where flag {@link
     * #CHUNK_CRCS} is set, else null), its flags (bit 0 {@code marksExits}, bit 1 {@code winsThenLosses}) and the slots of
     * its decompressed blocks, their bytes mapped back to result bytes: a block whole, or its first chunks.
     */
    private record Part(Path file, FileChannel channel, long lo, long hi, BlockOrder order, boolean marksExits, boolean winsThenLosses,
                        BlockCodec codec, long[] offsets, int[] lengths, int[] crcs, int[] chunkCrcs, AtomicReferenceArray<byte[]> blocks,
                        AtomicReferenceArray<Decoding> decodings, LatePlies late) {}

    /** Header byte 51's bit: byte {@link #MARK} stands for {@link #BY_EXITS}. */
    static final int MARKS_EXITS = 1;
    /** Header byte 51's bit: the blocks hold each result byte as {@link #STORED_BYTE} maps it. */
    static final int WINS_THEN_LOSSES = 2;
    /** Header byte 51's bit: each block-table entry is followed by the CRC-32s of its block's {@link #CHUNKS} chunks. */
    static final int CHUNK_CRCS = 4;
    /** Header byte 51's bit: each block is a Zstandard frame ({@link BlockCodec#ZSTD}), else a raw LZMA stream. */
    static final int ZSTD_FRAMES = 8;
    /**
     * A result byte as the blocks store it where flag {@link #WINS_THEN_LOSSES} is set: a win (byte 2k, ply 2k - 1) as
     * k, a loss (byte 2k + 1, ply 2k) as 128 + k, 0 (draw) and 255 as they are. LZMA codes each literal in the context
     * of the top bits of the byte before, which then tell a win from a loss (in the raw bytes they alternate): KPKP
     * 1.7 %, a KNPKN part 2.2 %, a KBNKN part 3.1 % smaller. {@link #RESULT_BYTE} maps them back.
     */
    private static final byte[] STORED_BYTE = new byte[256], RESULT_BYTE = new byte[256];

    static {
        for (int b = 0; b < 256; b++) {
            int stored = b == 0 || b == 255 ? b : b % 2 == 0 ? b / 2 : 128 + b / 2;
            STORED_BYTE[b] = (byte) stored;
            RESULT_BYTE[stored] = (byte) b;
        }
    }

    /** The byte of an entry decided by its captures and promotions, in a part that marks them. */
    static final int MARK = 0xFF;
    /** {@link #result}: the entry's value is that of its best capture or promotion, looked up in the smaller tables. */
    public static final int BY_EXITS = -2;

    /**
     * Blocks of each lead's order that the writer compresses, in its codec's fast mode (LZMA's, or Zstandard's level
     * 3), to choose one (all of them in a part of no more): a 5-piece part of 512 blocks compresses 64 more, each in a
     * third of a block's time.
     */
    static final int SAMPLE_BLOCKS = 16;

    /** The blocks of {@code block} entries each a part of {@code size} samples: as many entries as {@link #SAMPLE_BLOCKS} of 64K. */
    static int sampleBlocks(long size, int block) {
        return (int) Math.min((size + block - 1) / block, (long) SAMPLE_BLOCKS * BLOCK / block);
    }

    private final PositionIndex index;
    private final Material material;
    private final Color stored;
    private final int storedSide;
    private final Part[] parts;
    private final LatePlies late;
    /** The part of each king pair (a part holds whole king pairs): a lookup's part without a search. */
    private final int[] partOfPair;
    private final BlockOrder.Divisor byPair;
    private final int blockEntries;
    private final BlockOrder.Divisor byBlock;
    private final byte properties;
    private final BlockCache cache;
    /**
     * Whether a block decoded in part ({@link Decoding}), when the cache lets it go ({@link BlockCache#keepPartial}), is
     * decoded to its end: where the cache holds a table this size (its blocks stay, and lookups further into them would
     * come); else a lookup further in decodes that block from its start again.
     */
    private final boolean finishLetGo;
    private final MoveGenerator generator;
    /** The material after each capture or promotion, by {@link #exitCode}. */
    private final MaterialChange[] exits;
    /** The lookup of any position (the {@link Tablebase}'s), for the double pushes; set once, before any lookup. */
    private ToIntFunction<Position> general;
    /** The {@link Tablebase}'s table of a material, for the tables the exits lead to; set with {@link #general}. */
    private Function<Material, DtmTable> tables;
    /** The tables the exits lead to, by {@link #exitCode}, found on first use (a race finds the same table twice). */
    private final DtmTable[] exitTables;

    private CompressedTable(PositionIndex index, Color stored, Part[] parts, int blockEntries, byte properties, BlockCache cache) {
        this.index = index;
        this.material = index.material();
        this.stored = stored;
        this.storedSide = stored.ordinal();
        this.parts = parts;
        this.late = LatePlies.union(Arrays.stream(parts).map(Part::late).toList());
        this.byPair = new BlockOrder.Divisor(index.restSize(), index.size());
        this.partOfPair = new int[Math.toIntExact(index.size() / index.restSize())];
        for (int k = 0; k < parts.length; k++)
            Arrays.fill(partOfPair, (int) (parts[k].lo() / index.restSize()), (int) (parts[k].hi() / index.restSize()), k);
        this.blockEntries = blockEntries;
        this.byBlock = new BlockOrder.Divisor(blockEntries, Arrays.stream(parts).mapToLong(p -> p.hi() - p.lo()).max().orElse(0));
        this.properties = properties;
        this.cache = cache;
        this.finishLetGo = cache.budget() >= index.size();
        this.generator = new MoveGenerator(material);
        int pieces = material.size();
        this.exits = new MaterialChange[(pieces + 1) * (pieces + 1) * (PieceType.PROMOTIONS.length + 1)];
        this.exitTables = new DtmTable[exits.length];
        for (MaterialChange.Exit e : MaterialChange.exits(material))
            exits[exitCode(e.captured(), e.promoted(), PieceType.promotionCode(e.promotion()))] = e.change();
    }

    /**
     * The side with more material (queen 9, rook 5, bishop and knight 3, pawn 1), White when even: the side a table
     * stores where the two compress alike ({@link #lesserSide}), as its other side, rebuilt by one ply of search, has
     * fewer moves to try.
     */
    public static Color strongerSide(Material material) {
        int balance = 0;
        for (Piece p : material.pieces()) balance += (p.color() == Color.WHITE ? 1 : -1) * value(p);
        return balance >= 0 ? Color.WHITE : Color.BLACK;
    }

    private static int value(Piece p) {
        return switch (p.type()) {
            case QUEEN -> 9;
            case ROOK -> 5;
            case BISHOP, KNIGHT -> 3;
            case PAWN -> 1;
            case KING -> 0;
        };
    }

    /**
     * How much smaller the other side's sample must compress for a table to store it, not its {@link #strongerSide}:
     * the stronger side's positions, searched instead, have more moves, and a sample's call within this is noise.
     */
    static final double OTHER_SIDE_SMALLER = 0.97;

    /**
     * The side to move a table's compressed files store, of its two sides' {@link Ranking#sampleBytes} on the same
     * part: the other side than the {@link #strongerSide} where its bytes are at most {@link #OTHER_SIDE_SMALLER} of
     * that side's.
     */
    public static Color lesserSide(Material material, long whiteBytes, long blackBytes) {
        Color stronger = strongerSide(material);
        long strong = stronger == Color.WHITE ? whiteBytes : blackBytes, other = stronger == Color.WHITE ? blackBytes : whiteBytes;
        return other <= OTHER_SIDE_SMALLER * strong ? stronger.opponent() : stronger;
    }

    /** The file name of part {@code part} of {@code parts}, as the packed table's with {@link #SUFFIX}. */
    public static String partName(Material material, int part, int parts) {
        String packed = IndexedTable.partName(material, part, parts);
        return packed.substring(0, packed.length() - ".tbl".length()) + SUFFIX;
    }

    /**
     * Writes the part holding indexes {@code lo .. hi - 1} of side to move {@code stored} (a DTM table's {@link
     * #lesserSide}; a DTZ table keeps both sides, each in a file of its own, {@link #openSide}) from its result bytes
     * {@code results} (the packed part's plane: entry {@code 2 * (index - lo) + side}) and the table's {@code late}
     * plies, and returns the bytes written. {@code byExits} (offsets {@code index - lo}, may be null) are the stored
     * side's entries that their captures and promotions decide. Of every lead's order, with those entries marked and
     * without, it writes the one whose sample of blocks compresses smallest.
     */
    public static long write(PositionIndex index, long lo, long hi, byte[] results, Color stored, BitSet byExits, LatePlies late, OutputStream out)
            throws IOException {
        return write(index, lo, hi, results, stored, byExits, null, late, out);
    }

    /**
     * {@link #write(PositionIndex, long, long, byte[], Color, BitSet, LatePlies, OutputStream)} with the part's {@link
     * #ranking} for that side and those marks already made (null: not).
     */
    public static long write(PositionIndex index, long lo, long hi, byte[] results, Color stored, BitSet byExits, Ranking ranking, LatePlies late,
                             OutputStream out) throws IOException {
        if (results.length != 2 * (hi - lo)) throw new IllegalArgumentException(results.length + " results for " + 2 * (hi - lo) + " entries");
        int side = stored.ordinal();
        byte[] ordered = new byte[Math.toIntExact(hi - lo)];
        int block = blockEntries(index.material());
        BlockCodec codec = BlockCodec.of(index.material());
        BitSet marked = markedOrNull(byExits);
        Choice choice = leastOrder(results, side, marked, ordered.length, block, codec,
                ranking != null ? ranking : ranking(index, results, side, marked, ordered.length, block, codec));
        choice.order().arrange(results, side, ordered);
        BitSet marks = null;
        if (choice.marked()) {
            marks = new BitSet(ordered.length);
            for (int at = byExits.nextSetBit(0); at >= 0; at = byExits.nextSetBit(at + 1)) marks.set((int) choice.order().stored(at));
        }
        return write(index, lo, hi, side, block, codec, choice.order(), ordered, marks, choice.compressed(), late, out);
    }

    /**
     * Writes the part holding indexes {@code lo .. hi - 1} in blocks of {@code block} entries coded by {@code codec}, the stored side's results
     * already arranged in {@code order},
     * the entries at {@code marks} (offsets in that order; null for none) marked as decided by their captures and promotions;
     * {@code done} (null for none) holds blocks already compressed so, by their number, null where not.
     */
    static long write(PositionIndex index, long lo, long hi, int side, int block, BlockCodec codec, BlockOrder order, byte[] ordered, BitSet marks,
                      Compressed[] done, LatePlies late, OutputStream out) throws IOException {
        int blocks = (ordered.length + block - 1) / block;
        boolean chunked = codec.decodedInChunks();
        ByteBuffer head = ByteBuffer.allocate(HEADER + (BLOCK_ENTRY + (chunked ? 4 * CHUNKS : 0)) * blocks).order(ByteOrder.LITTLE_ENDIAN);
        IndexedTable.putRange(head, MAGIC, index, lo, hi);
        head.put((byte) side).put((byte) codec.properties()).put((byte) order.lead)
                .put((byte) ((marks == null ? 0 : MARKS_EXITS) | WINS_THEN_LOSSES | (chunked ? CHUNK_CRCS : ZSTD_FRAMES)));
        head.putInt(codec.dictionary(block)).putInt(block).putInt(0); // the CRC-32, once the block table is known
        // blocks compressed on every core (a small table's one part would leave all but one idle), laid out in order
        List<Compressed> compressed = java.util.stream.IntStream.range(0, blocks).parallel()
                .mapToObj(j -> done != null && done[j] != null ? done[j]
                        : compressed(ordered, marks, order.fill, j * block, Math.min(block, ordered.length - j * block), block, codec, false))
                .toList();
        long offset = head.capacity();
        for (Compressed c : compressed) {
            head.putLong(offset).putInt(c.bytes().length).putInt(c.crc());
            for (int chunk : c.chunkCrcs()) head.putInt(chunk);
            offset += c.bytes().length;
        }
        head.putInt(60, headerCrc(head.array()));
        out.write(head.array());
        for (Compressed c : compressed) out.write(c.bytes());
        LatePlies stored = late.within(2 * lo, 2 * hi).side(side);
        stored.writeTo(out);
        return offset + stored.bytes();
    }

    /**
     * A block's compressed bytes, and the CRC-32s of the bytes it decompresses to: all of them, and each chunk's (none
     * where its codec decodes it whole).
     */
    private record Compressed(byte[] bytes, int crc, int[] chunkCrcs) {}

    /**
     * Compresses the {@code n} entries from {@code first} of {@code ordered} as {@link #blockBytes} lays them out (the
     * don't-care ones copying the byte {@code fill} before), a block of a part in blocks of {@code blockEntries}, by
     * {@code codec} ({@code fast}: to rank orders on a sample).
     */
    private static Compressed compressed(byte[] ordered, BitSet marks, int fill, int first, int n, int blockEntries, BlockCodec codec, boolean fast) {
        byte[] block = new byte[n];
        blockBytes(ordered, marks, fill, first, n, block);
        byte[] data = codec.compress(block, blockEntries, fast);
        int[] chunks = new int[codec.decodedInChunks() ? CHUNKS : 0];
        int size = chunkEntries(blockEntries);
        for (int c = 0; c < chunks.length; c++) chunks[c] = crc(block, Math.min(n, c * size), Math.min(n, (c + 1) * size));
        return new Compressed(data, crc(block, 0, n), chunks);
    }

    /** The CRC-32 of a header and block table, bytes 60 .. 63 (where it is stored) left out. */
    static int headerCrc(byte[] head) {
        CRC32 crc = new CRC32();
        crc.update(head, 0, 60);
        crc.update(head, HEADER, head.length - HEADER);
        return (int) crc.getValue();
    }

    /**
     * A part's blocks' order, whether its entries decided by their captures and promotions are marked, and its sampled
     * blocks as compressed in the writer's own mode (by block number, null where not; null when none were), which the
     * writer then need not compress again: a 4-piece part of 30 to 90 blocks has 16 sampled, a 3-piece part all.
     */
    record Choice(BlockOrder order, boolean marked, Compressed[] compressed) {}

    /** The share of the unmarked sample's fast-mode bytes under which the marked sample's stand without a second look. */
    static final double CLEARLY_SMALLER = 0.85;

    /**
     * The order of a part of {@code size} indexes in blocks of {@code block} entries (its lead, then the best lead's
     * don't-care entries' fill, {@link BlockOrder#fills}), with {@code byExits} marked or not
     * (null: not), whose sample of blocks ({@link #sampleBlocks}, spread evenly, each gathered from {@code results} alone) compresses smallest; on a
     * tie the index's own order, filled from the byte before, unmarked. Fast mode ranks the orders, marked and unmarked
     * apart (it ranked the fills of six 5-piece parts as the writer's mode does, but for one within 0.5 %). Where it calls the
     * marks clearly (unmarked no larger, or marked at most {@link #CLEARLY_SMALLER} of it), its call stands; otherwise
     * the best of each meet in the writer's own mode, as fast mode favours the marks (a KQQKQ part: marked 1.8 % smaller
     * in fast mode, 7.9 % larger in the writer's; in 3- and 4-piece tables, a marked part at most 12.4 % smaller in
     * fast mode was up to 3.7 points less so in the writer's, or larger).
     */
    static Choice leastOrder(PositionIndex index, byte[] results, int side, BitSet byExits, int size, int block, BlockCodec codec) {
        return leastOrder(results, side, byExits, size, block, codec, ranking(index, results, side, byExits, size, block, codec));
    }

    /**
     * How a part's orders rank in fast mode on its sample ({@link #leastOrder}'s first step, which {@link #lesserSide}'s
     * caller weighs and may hand on to {@link #write}): the best order unmarked and marked, and their sample's bytes.
     * Of the part, side and marks it was ranked for.
     */
    public static final class Ranking {
        private final Choice[] best;
        private final long[] bestBytes;

        private Ranking(Choice[] best, long[] bestBytes) {
            this.best = best;
            this.bestBytes = bestBytes;
        }

        /** The fast-mode bytes of the sample in the better of the two. */
        public long sampleBytes() { return Math.min(bestBytes[0], bestBytes[1]); }
    }

    /**
     * The fast-mode ranking of the part of {@code results} (as {@link #write} takes them) stored as {@code side}, with
     * {@code byExits} marked (null or empty: none) and not: what {@link #lesserSide} weighs, and {@link #write} uses.
     */
    public static Ranking ranking(PositionIndex index, long lo, long hi, byte[] results, Color side, BitSet byExits) {
        if (results.length != 2 * (hi - lo)) throw new IllegalArgumentException(results.length + " results for " + 2 * (hi - lo) + " entries");
        return ranking(index, results, side.ordinal(), markedOrNull(byExits), Math.toIntExact(hi - lo), blockEntries(index.material()),
                BlockCodec.of(index.material()));
    }

    /** The entries to mark, null where there are none (the orders are then ranked unmarked alone). */
    private static BitSet markedOrNull(BitSet byExits) { return byExits == null || byExits.isEmpty() ? null : byExits; }

    private static Ranking ranking(PositionIndex index, byte[] results, int side, BitSet byExits, int size, int block, BlockCodec codec) {
        int samples = sampleBlocks(size, block);
        Choice[] best = new Choice[2];
        long[] bestBytes = {Long.MAX_VALUE, Long.MAX_VALUE};
        for (int lead = 0; lead < BlockOrder.leads(index); lead++) {
            BlockOrder order = BlockOrder.of(index, size, lead);
            Sampled sample = sampled(results, side, true, byExits, order, block, samples, size, codec, true);
            for (int marked = 0; marked < 2; marked++)
                if (sample.bytes(marked) < bestBytes[marked]) {
                    bestBytes[marked] = sample.bytes(marked);
                    best[marked] = new Choice(order, marked == 1, null);
                }
        }
        // the best lead's don't-care entries filled from a row above instead, where its sample is smaller so
        for (int marked = 0; marked < (byExits == null ? 1 : 2); marked++)
            for (int fill : best[marked].order().fills(block)) {
                if (fill == 1) continue;
                BlockOrder order = best[marked].order().filling(fill);
                Sampled sample = sampled(results, side, marked == 0, marked == 1 ? byExits : null, order, block, samples, size, codec, true);
                if (sample.bytes(marked) < bestBytes[marked]) {
                    bestBytes[marked] = sample.bytes(marked);
                    best[marked] = new Choice(order, marked == 1, null);
                }
            }
        return new Ranking(best, bestBytes);
    }

    /** {@link #leastOrder}'s choice from its {@code ranking}. */
    private static Choice leastOrder(byte[] results, int side, BitSet byExits, int size, int block, BlockCodec codec, Ranking ranking) {
        Choice[] best = ranking.best;
        long[] bestBytes = ranking.bestBytes;
        if (byExits == null) return best[0];
        // the writer's mode agreed with a clear call of fast mode on all 37 marked 3- and 4-piece tables and KQQKQ's parts
        if (bestBytes[1] >= bestBytes[0]) return best[0];
        if (bestBytes[1] <= CLEARLY_SMALLER * bestBytes[0]) return best[1];
        int samples = sampleBlocks(size, block);
        Sampled plain = sampled(results, side, true, null, best[0].order(), block, samples, size, codec, false);
        Sampled marked = sampled(results, side, false, byExits, best[1].order(), block, samples, size, codec, false);
        return marked.bytes(1) < plain.bytes(0) ? new Choice(best[1].order(), true, marked.blocks()[1])
                : new Choice(best[0].order(), false, plain.blocks()[0]);
    }

    /** A sample's blocks compressed unmarked and marked ({@code blocks[0]} and {@code [1]}, by block number, null where not sampled). */
    private record Sampled(Compressed[][] blocks) {
        /** The bytes of the blocks unmarked ({@code marked} 0) or marked (1), summed; Long.MAX_VALUE / 2 where not tried. */
        long bytes(int marked) {
            return Arrays.stream(blocks[marked]).filter(java.util.Objects::nonNull).mapToLong(c -> c.bytes().length)
                    .reduce(Long::sum).orElse(Long.MAX_VALUE / 2);
        }
    }

    /**
     * The {@code samples} sampled blocks of {@code entries} entries of {@code order} compressed, on every core:
     * unmarked ({@code plain}), marked ({@code byExits}, null: not).
     */
    private static Sampled sampled(byte[] results, int side, boolean plain, BitSet byExits, BlockOrder order, int entries, int samples, int size,
                                   BlockCodec codec, boolean fast) {
        int blocks = (size + entries - 1) / entries;
        Compressed[][] compressed = new Compressed[2][blocks];
        java.util.stream.IntStream.range(0, samples).parallel().forEach(t -> {
            int block = (int) ((2L * t + 1) * blocks / (2L * samples)), first = block * entries, n = Math.min(entries, size - first);
            byte[] sampled = new byte[n];
            BitSet marks = new BitSet(n);
            for (int k = 0; k < n; k++) {
                long at = order.canonical(first + k);
                sampled[k] = results[(int) (2 * at) + side];
                if (byExits != null && byExits.get((int) at)) marks.set(k);
            }
            if (plain) compressed[0][block] = compressed(sampled, null, order.fill, 0, n, entries, codec, fast);
            if (byExits != null) compressed[1][block] = compressed(sampled, marks, order.fill, 0, n, entries, codec, fast);
        });
        return new Sampled(compressed);
    }

    /**
     * Copies {@code n} stored results from {@code first} of {@code ordered} into {@code block} as {@link #STORED_BYTE}
     * maps them, those at {@code marks} (null: none) as {@link #MARK}, the don't-care ones as the byte {@code fill}
     * before them in the block (0 where it starts later); returns n.
     */
    private static int blockBytes(byte[] ordered, BitSet marks, int fill, int first, int n, byte[] block) {
        for (int k = 0; k < n; k++) {
            byte result = ordered[first + k];
            if (marks != null && marks.get(first + k)) result = STORED_BYTE[MARK];
            else if (result == (byte) Result.NONE) result = k >= fill ? block[k - fill] : 0;
            else result = STORED_BYTE[result & 0xFF];
            block[k] = result;
        }
        return n;
    }

    /** The CRC-32 of {@code bytes[from .. to - 1]}. */
    private static int crc(byte[] bytes, int from, int to) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, to - from);
        return (int) crc.getValue();
    }

    /** The entries of each chunk of a block of {@code blockEntries}: an eighth, rounded up (the last chunks of a short block hold fewer or none). */
    static int chunkEntries(int blockEntries) { return (blockEntries + CHUNKS - 1) / CHUNKS; }

    /** Opens a table's part files (in any order), checking headers, block tables and sizes; blocks are read as lookups need them. */
    public static CompressedTable open(List<Path> files, BlockCache cache) throws IOException { return open(files, cache, null); }

    /** Opens the part files of a table that stores side to move {@code side} (a DTZ table's file of that side). */
    public static CompressedTable openSide(List<Path> files, BlockCache cache, Color side) throws IOException { return open(files, cache, side); }

    /** {@link #open}, the files storing {@code expected}, or with null the side their headers name (the same in each part). */
    private static CompressedTable open(List<Path> files, BlockCache cache, Color expected) throws IOException {
        if (files.isEmpty()) throw new IllegalArgumentException("a table has at least one part file");
        List<Part> parts = new ArrayList<>();
        Material material = null;
        int side = -1, blockEntries = 0, dictionary = 0;
        byte properties = 0;
        PositionIndex index = null;
        try {
            for (Path file : files) {
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ByteBuffer head = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
                try {
                    readFully(channel, head, 0, file);
                    IndexedTable.Part range = IndexedTable.readRange(head, file, MAGIC, "compressed table (no TBDTMZ01 header)");
                    Material m = range.material();
                    if (material != null && !material.equals(m)) throw new CorruptTableException(file + " holds " + m + ", not " + material + " as the other parts");
                    material = m;
                    long lo = range.lo(), hi = range.hi();
                    int s = head.get(), props = head.get() & 0xFF, lead = head.get(), flags = head.get();
                    int dict = head.getInt(), entries = head.getInt(), crc = head.getInt();
                    if (index == null) index = new PositionIndex(m);
                    if (s < 0 || s > 1 || expected != null && s != expected.ordinal() || props >= 9 * 5 * 5 || entries <= 0 || dict <= 0
                            || (flags & ~(MARKS_EXITS | WINS_THEN_LOSSES | CHUNK_CRCS | ZSTD_FRAMES)) != 0
                            || (flags & (CHUNK_CRCS | ZSTD_FRAMES)) == (CHUNK_CRCS | ZSTD_FRAMES) || lead < 0 || lead >= BlockOrder.leads(index)
                            || (hi - lo) % index.restSize() != 0 || side >= 0 && (s != side || entries != blockEntries || dict != dictionary || props != (properties & 0xFF)))
                        throw new CorruptTableException(file + " has a header this reader does not know (side " + s + ", " + entries + " entries a block)");
                    side = s;
                    blockEntries = entries;
                    dictionary = dict;
                    properties = (byte) props;
                    int blocks = Math.toIntExact((hi - lo + entries - 1) / entries);
                    boolean chunked = (flags & CHUNK_CRCS) != 0;
                    ByteBuffer table = ByteBuffer.allocate(HEADER + (BLOCK_ENTRY + (chunked ? 4 * CHUNKS : 0)) * blocks).order(ByteOrder.LITTLE_ENDIAN);
                    table.put(head.array());
                    readFully(channel, table, HEADER, file);
                    if (headerCrc(table.array()) != crc) throw new CorruptTableException(file + ": its header or block table does not match its CRC-32");
                    long[] offsets = new long[blocks];
                    int[] lengths = new int[blocks], crcs = new int[blocks], chunkCrcs = chunked ? new int[CHUNKS * blocks] : null;
                    long end = table.capacity();
                    table.position(HEADER);
                    for (int j = 0; j < blocks; j++) {
                        offsets[j] = table.getLong();
                        lengths[j] = table.getInt();
                        crcs[j] = table.getInt();
                        for (int c = 0; chunked && c < CHUNKS; c++) chunkCrcs[CHUNKS * j + c] = table.getInt();
                        if (offsets[j] != end || lengths[j] <= 0) throw new CorruptTableException(file + ": block " + j + " is not where the one before it ends");
                        end += lengths[j];
                    }
                    if (channel.size() < end) throw new CorruptTableException(file + " has " + channel.size() + " bytes; its block table says " + end);
                    LatePlies late = LatePlies.read(channel, end, file, 2 * lo, 2 * hi);
                    for (int k = 0; k < late.size(); k++)
                        if ((late.entry(k) & 1) != s) throw new CorruptTableException(file + " lists a late ply of the side it does not store");
                    parts.add(new Part(file, channel, lo, hi, BlockOrder.of(index, hi - lo, lead), (flags & MARKS_EXITS) != 0,
                            (flags & WINS_THEN_LOSSES) != 0, (flags & ZSTD_FRAMES) != 0 ? BlockCodec.ZSTD : BlockCodec.LZMA, offsets, lengths, crcs, chunkCrcs, new AtomicReferenceArray<>(blocks),
                            new AtomicReferenceArray<>(blocks), late));
                } catch (IOException | RuntimeException e) {
                    channel.close();
                    throw e;
                }
            }
            parts.sort(Comparator.comparingLong(Part::lo));
            long next = 0;
            for (Part part : parts) {
                if (part.lo() != next) throw new CorruptTableException(part.file() + " holds indexes from " + part.lo() + ", not from " + next + " as the parts before it end");
                next = part.hi();
            }
            if (next != index.size()) throw new CorruptTableException("the parts of the " + material + " table hold indexes up to " + next + " of " + index.size());
            return new CompressedTable(index, Color.values()[side], parts.toArray(Part[]::new), blockEntries, properties, cache);
        } catch (IOException | RuntimeException e) {
            for (Part part : parts) part.channel().close();
            throw e;
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer, long position, Path file) throws IOException {
        FileReads.readFully(channel, buffer, position, file + " is too short to be a compressed table");
    }

    @Override public Material material() { return material; }

    @Override public PositionIndex index() { return index; }

    @Override public boolean stores(Color side) { return side == stored; }

    @Override public long entry(Position p) {
        String illegal = p.illegalReason();
        if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
        if (p.sideToMove() != stored) throw new IllegalArgumentException(material + " stores " + stored + " to move, not " + p.sideToMove());
        return index.index(p);
    }

    @Override public int plyAt(long entry, Position p) {
        int r = result(entry);
        return r == BY_EXITS ? plyOfMarked(entry, p.squares(), p.sideToMove()) : r - 1; // DRAW is 0
    }

    /**
     * Sets the lookup of any position and the table of any material (a {@link Tablebase}'s), for the moves out of
     * this table; before any lookup.
     */
    void lookUpWith(ToIntFunction<Position> general, Function<Material, DtmTable> tables) {
        this.general = general;
        this.tables = tables;
    }

    /** Reads the stored side's entry straight from the squares, searches the other side's moves. */
    @Override public int plyOfLegal(int[] squares, Color side) {
        if (side != stored) return plyBySearch(squares, side);
        long i = index.index(squares);
        int r = result(i);
        return r == BY_EXITS ? plyOfMarked(i, squares, side) : r - 1;
    }

    /**
     * The ply of a legal position whose side to move this table does not store, from its moves: those that keep the
     * material read the stored side's byte straight from the squares (no position made, no legality to check: a
     * legal move leads to a legal position); a capture or a promotion reads the smaller table the same way ({@link
     * #exitPly}); a double push, after which an en-passant right may stand, goes to the general lookup; their plies
     * fold as {@link Result.Fold} says, checkmate or stalemate without moves.
     */
    int plyBySearch(Position p) { return plyBySearch(p.squares(), p.sideToMove()); }

    /** {@link #plyBySearch(Position)} of the legal position of {@code squares} (changed and restored), {@code side} to move. */
    private int plyBySearch(int[] squares, Color side) {
        int[] moves = new int[generator.mostMoves(side.ordinal())];
        int n = generator.legalMoves(squares, side.ordinal(), moves);
        if (n == 0) return generator.inCheck(squares, side.ordinal()) ? 0 : -1;
        long occupied = MoveGenerator.occupied(squares);
        Result.Fold fold = new Result.Fold();
        long[] quiet = new long[n];
        int quiets = 0; // moves[0 .. quiets - 1] become the quiet moves, quiet[] their indexes
        for (int k = 0; k < n; k++) {
            int move = moves[k], mover = MoveGenerator.piece(move), from = squares[mover];
            if (!MoveGenerator.staysInTable(occupied, move)) {
                fold.addPly(exitPly(squares, move, side));
            } else if (generator.isDoublePush(move)) { // the position after it may hold an en-passant right
                Position p = new Position(material, squares, side);
                fold.addPly(general().applyAsInt(p.play(new Move(p.pieceAt(from), from, MoveGenerator.to(move), -1))));
            } else {
                squares[mover] = MoveGenerator.to(move);
                quiet[quiets] = index.index(squares);
                moves[quiets++] = move;
                squares[mover] = from;
            }
        }
        int[] results = new int[quiets];
        results(quiet, quiets, results);
        for (int k = 0; k < quiets; k++) {
            int r = results[k];
            if (r == BY_EXITS) {
                int mover = MoveGenerator.piece(moves[k]), from = squares[mover];
                squares[mover] = MoveGenerator.to(moves[k]);
                fold.addPly(plyOfMarked(quiet[k], squares, side.opponent()));
                squares[mover] = from;
            } else {
                fold.add(r);
            }
        }
        return fold.ply();
    }

    /**
     * The ply of stored entry {@code i}, marked as decided by its captures and promotions, whose position {@code
     * squares} holds: theirs folded, then written into its block where it is held and a result byte reads back as
     * that ply, so that the next lookup of the entry reads its byte (KQQKQ's captures reach a marked KQKQ). A byte so
     * changes once, from the mark to the ply that every lookup of it finds, so a lookup reading it meanwhile, on any
     * thread, gets the same ply either way.
     */
    private int plyOfMarked(long i, int[] squares, Color side) {
        int ply = plyByExits(squares, side), b = ply + 1;
        if (b < MARK && late.result(2 * i + storedSide, b) == b) {
            Part part = parts[parts.length == 1 ? 0 : part(i)];
            long at = part.order().stored(i - part.lo());
            int block = (int) byBlock.quotient(at);
            byte[] bytes = part.blocks().get(block);
            int offset = (int) (at - (long) block * blockEntries);
            if (bytes != null && offset < bytes.length) bytes[offset] = (byte) b;
            Decoding decoding = part.decodings().get(block); // the bytes its next, longer copy is made from
            if (decoding != null) decoding.remember(offset, (byte) b);
        }
        return ply;
    }

    /** The ply of a stored position that its captures and promotions decide: theirs folded. */
    private int plyByExits(int[] squares, Color side) {
        int[] moves = new int[generator.mostMoves(side.ordinal())];
        int n = generator.legalExits(squares, side.ordinal(), moves);
        Result.Fold fold = new Result.Fold();
        for (int k = 0; k < n; k++) fold.addPly(exitPly(squares, moves[k], side));
        return fold.ply();
    }

    /**
     * The ply after {@code move}, a capture or a promotion of {@code side}, in the smaller table it leads to: a legal
     * position without an en-passant right, looked up with no check (bare kings: a draw).
     */
    private int exitPly(int[] squares, int move, Color side) {
        int mover = MoveGenerator.piece(move), from = squares[mover];
        int captured = MoveGenerator.captured(squares, move), promotion = MoveGenerator.promotionCode(move);
        int code = exitCode(captured, promotion == 0 ? -1 : mover, promotion);
        MaterialChange change = exits[code];
        if (change.after().size() == 2) return -1;
        int[] next = new int[change.after().size()];
        squares[mover] = MoveGenerator.to(move);
        change.squares(squares, next);
        squares[mover] = from;
        DtmTable table = exitTables[code];
        if (table == null) {
            general(); // opened alone: says so
            exitTables[code] = table = tables.apply(change.after());
        }
        return table.plyOfLegal(next, side.opponent());
    }

    private ToIntFunction<Position> general() {
        if (general == null) throw new IllegalStateException("the " + material + " table was opened alone: open it with Tablebase to reach the smaller tables");
        return general;
    }

    /** Where {@link #exits} keeps the change of a capture of piece {@code captured} and a promotion of pawn {@code promoted} (-1: none). */
    private int exitCode(int captured, int promoted, int promotion) {
        return ((captured + 1) * (material.size() + 1) + promoted + 1) * (PieceType.PROMOTIONS.length + 1) + promotion;
    }

    /**
     * The stored side's result of an index, as {@link ResultPlane#result} (don't-care where the index has no canonical
     * legal position), or {@link #BY_EXITS}.
     */
    public int result(long i) {
        Part part = parts[parts.length == 1 ? 0 : part(i)];
        long at = part.order().stored(i - part.lo());
        int block = (int) byBlock.quotient(at), offset = (int) (at - (long) block * blockEntries);
        return result(part, i, held(part, block, offset)[offset]);
    }

    /** Block {@code block} of {@code part}, held as far as entry {@code offset} at least: from the cache, else decoded. */
    private byte[] held(Part part, int block, int offset) {
        byte[] bytes = part.blocks().get(block);
        return bytes == null || offset >= bytes.length ? load(part, block, offset) : bytes;
    }

    /** The result of entry {@code i} of {@code part} whose byte in its block is {@code stored}. */
    private int result(Part part, long i, byte stored) {
        int b = stored & 0xFF;
        return b == MARK && part.marksExits() ? BY_EXITS : late.result(2 * i + storedSide, b);
    }

    /**
     * {@link #result} of each of the first {@code n} {@code indexes}, into {@code out}: their blocks found first, then
     * their bytes read in a loop of nothing else, so that the reads (each a miss in memory, in a large table) overlap.
     */
    private void results(long[] indexes, int n, int[] out) {
        Part[] partOf = new Part[n];
        byte[][] held = new byte[n][];
        int[] offsets = new int[n];
        for (int k = 0; k < n; k++) {
            long i = indexes[k];
            Part part = partOf[k] = parts[parts.length == 1 ? 0 : part(i)];
            long at = part.order().stored(i - part.lo());
            int block = (int) byBlock.quotient(at), offset = offsets[k] = (int) (at - (long) block * blockEntries);
            held[k] = held(part, block, offset);
        }
        for (int k = 0; k < n; k++) out[k] = held[k][offsets[k]];
        for (int k = 0; k < n; k++) out[k] = result(partOf[k], indexes[k], (byte) out[k]);
    }

    @Override public Move move(Position p, List<Move> legal) { return null; }

    private int part(long i) { return partOfPair[(int) byPair.quotient(i)]; }

    /** Each part's entries of the stored side. */
    long[] partEntries() { return Arrays.stream(parts).mapToLong(p -> p.hi() - p.lo()).toArray(); }

    /**
     * Block {@code block} of part {@code part} as the writer compressed it (the bytes as stored, don't-care entries
     * filled, marks and the wins-first mapping in place), decoded and checked, the cache left alone: what
     * {@link CodecTrial} compresses again under other settings.
     */
    byte[] storedBlock(int part, int block) {
        Part p = parts[part];
        int whole = (int) Math.min(blockEntries, p.hi() - p.lo() - (long) block * blockEntries);
        byte[] bytes = new Decoding(p, block, whole).upTo(whole);
        if (p.winsThenLosses()) for (int k = 0; k < whole; k++) bytes[k] = STORED_BYTE[bytes[k] & 0xFF];
        return bytes;
    }

    /** The most entries a block of this table holds. */
    int blockEntries() { return blockEntries; }

    /**
     * Decodes a block as far as the chunk that holds entry {@code offset} (whole where the part has no chunk CRC-32s),
     * going on from where an earlier lookup stopped, and admits what is decoded to the cache.
     */
    private byte[] load(Part part, int block, int offset) {
        int whole = (int) Math.min(blockEntries, part.hi() - part.lo() - (long) block * blockEntries), chunk = chunkEntries(blockEntries);
        int n = part.chunkCrcs() == null ? whole : Math.min(whole, (offset / chunk + 1) * chunk);
        Decoding d = part.decodings().get(block);
        if (d == null) {
            d = new Decoding(part, block, whole);
            if (n < whole) {
                Decoding other = part.decodings().compareAndExchange(block, null, d);
                if (other == null) for (BlockCache.PartialBlock gone : cache.keepPartial(d)) gone.letGo();
                else d = other;
            }
        }
        byte[] bytes;
        try {
            bytes = d.upTo(n);
        } catch (RuntimeException e) {
            part.decodings().compareAndSet(block, d, null);
            throw e;
        }
        if (bytes.length == whole) part.decodings().compareAndSet(block, d, null);
        return cache.admit(part.blocks(), block, bytes);
    }

    /**
     * Lets a decoding go; with {@link #finishLetGo}, decodes it to its block's end and admits the block whole if the
     * cache still holds the part decoded, so that a block is decoded once in all.
     */
    private void finish(Decoding d) {
        if (!d.part.decodings().compareAndSet(d.block, d, null) || !finishLetGo || d.part.blocks().get(d.block) == null) return;
        try {
            cache.admit(d.part.blocks(), d.block, d.upTo(d.bytes.length));
        } catch (RuntimeException e) {
            // damaged further in, or closed: the lookup that needs those bytes decodes them again and says so
        }
    }

    /**
     * A block decoded chunk by chunk: its decoder, stopped where the last lookup needed, and the bytes so far, checked
     * and mapped back to result bytes (the decoder's own bytes, its window, stay as stored). A lookup further into the
     * block goes on from there, so that a block is decoded once in all. Its methods hold its lock; the arrays it hands
     * out are written again only where a marked entry's ply is found ({@link #plyOfMarked}). A decoding that fails
     * starts again from the block's start next time.
     */
    private final class Decoding implements BlockCache.PartialBlock {
        private final Part part;
        private final int block;
        private final byte[] bytes;
        private BlockCodec.BlockDecoder decoder;
        /** The bytes as stored, the decoder's window, while the block is decoded in part. */
        private byte[] stored;
        private int decoded;

        Decoding(Part part, int block, int whole) {
            this.part = part;
            this.block = block;
            this.bytes = new byte[whole];
        }

        @Override public int bytes() { return 2 * bytes.length; }

        @Override public void letGo() { finish(this); }

        CompressedTable table() { return CompressedTable.this; }

        /** The block's first {@code n} bytes at least (whole chunks, or the whole block), decoded and checked. */
        private byte[] decode(int n) {
            if (n > decoded) {
                try {
                    if (decoder == null) {
                        byte[] compressed = new byte[part.lengths()[block]];
                        readFully(part.channel(), ByteBuffer.wrap(compressed), part.offsets()[block], part.file());
                        stored = new byte[bytes.length]; // never the bytes handed out: a marked entry's ply is written there
                        decoder = part.codec().decoder(compressed, properties, stored);
                    }
                    decoder.decodeTo(n);
                } catch (java.nio.channels.ClosedChannelException e) {
                    throw new IllegalStateException("this tablebase is closed");
                } catch (IOException e) {
                    throw new CorruptTableException(part.file() + ": block " + block + " cannot be read (" + e + ")");
                } catch (CorruptTableException e) {
                    throw new CorruptTableException(part.file() + ": block " + block + " does not decompress (" + e.getMessage() + ")");
                }
                if (!matches(stored, decoded, n)) throw new CorruptTableException(part.file() + ": block " + block + " does not match its CRC-32");
                if (part.winsThenLosses()) for (int k = decoded; k < n; k++) bytes[k] = RESULT_BYTE[stored[k] & 0xFF];
                else System.arraycopy(stored, decoded, bytes, decoded, n - decoded);
                decoded = n;
                if (n == bytes.length) {
                    decoder = null;
                    stored = null;
                }
            }
            return decoded == bytes.length ? bytes : Arrays.copyOf(bytes, decoded);
        }

        /** {@link #decode}, or, where it fails, a decoder that starts from the block's start: its stream is past what it checked. */
        synchronized byte[] upTo(int n) {
            try {
                return decode(n);
            } catch (RuntimeException e) {
                decoder = null;
                stored = null;
                decoded = 0;
                throw e;
            }
        }

        /** A marked entry's result byte, once found (see {@link #plyOfMarked}), where the block is decoded that far. */
        synchronized void remember(int offset, byte b) {
            if (offset < decoded) bytes[offset] = b;
        }

        /** Whether bytes {@code from .. to - 1} of {@code raw}, just decoded, match their chunks' CRC-32s (the block's own where it has none). */
        private boolean matches(byte[] raw, int from, int to) {
            if (part.chunkCrcs() == null) return crc(raw, 0, raw.length) == part.crcs()[block]; // decoded whole at once
            int chunk = chunkEntries(blockEntries);
            for (int c = from / chunk; c * chunk < to; c++)
                if (crc(raw, c * chunk, Math.min(raw.length, (c + 1) * chunk)) != part.chunkCrcs()[CHUNKS * block + c]) return false;
            return true;
        }
    }

    @Override public void close() {
        cache.forgetPartial(p -> p instanceof Decoding d && d.table() == this);
        for (Part part : parts) {
            cache.drop(part.blocks());
            for (int j = 0; j < part.decodings().length(); j++) part.decodings().set(j, null);
            try {
                part.channel().close();
            } catch (IOException e) {
                // closing a read-only file: nothing was written that could be lost
            }
        }
    }
}
