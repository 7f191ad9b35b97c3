package io.github.tablebase.probe;

import io.github.tablebase.chess.Material;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAOutputStream;

/**
 * How a compressed table's blocks are coded. LZMA: a raw stream a block, decoded by the probe's own decoder as far as a
 * lookup needs ({@link LzmaBlockDecoder}). Zstandard: a frame a block, decoded whole (aircompressor, pure Java): on
 * KRRRKQ's 32K blocks 0.04 ms a block against about 0.24 ms for LZMA, for about 3 % more bytes, where on 64K blocks of
 * five pieces it takes 7 to 12 % more. A whole probe of a six-piece table decodes a hundred blocks and more, so the
 * writer takes Zstandard there ({@link #of}) and LZMA below.
 */
enum BlockCodec {
    LZMA {
        @Override int properties() { return (PB * 5 + LP) * 9 + LC; }

        @Override int dictionary(int blockEntries) { return Math.max(LZMA2Options.DICT_SIZE_MIN, blockEntries); }

        @Override byte[] compress(byte[] block, int blockEntries, boolean fast) {
            return fast ? lzma(block, options(0, 0, blockEntries)) : compressed(block, blockEntries, NICE_LENGTH);
        }

        /** In the writer's normal mode, with match lengths up to {@code niceLength} sought out (the writer's: {@link #NICE_LENGTH}). */
        @Override byte[] compressed(byte[] block, int blockEntries, int niceLength) { return lzma(block, options(6, niceLength, blockEntries)); }

        @Override BlockDecoder decoder(byte[] compressed, byte properties, byte[] out) { return new LzmaBlockDecoder(compressed, properties, out); }

        @Override boolean decodedInChunks() { return true; }
    },
    ZSTD {
        @Override int properties() { return 0; }

        @Override int dictionary(int blockEntries) { return blockEntries; }

        /** Level 19 (level 22, its most: 0.5 % smaller, half the speed, 2.6 MB/s on KRRRKQ); level 3 to rank orders. */
        @Override byte[] compress(byte[] block, int blockEntries, boolean fast) { return compressed(block, blockEntries, fast ? 3 : ZSTD_LEVEL); }

        /** At {@code level}. */
        @Override byte[] compressed(byte[] block, int blockEntries, int level) { return com.github.luben.zstd.Zstd.compress(block, level); }

        @Override BlockDecoder decoder(byte[] compressed, byte properties, byte[] out) { return new ZstdBlockDecoder(compressed, out); }

        @Override boolean decodedInChunks() { return false; }
    };

    /** LZMA's literal context, literal position and position bits: none (see {@link #options}). */
    private static final int LC = 0, LP = 0, PB = 0;

    /**
     * The writer's LZMA nice length: 273 (LZMA's most) makes KRNKR's blocks 8 % smaller and KRPKR's 0.6 %, at up to half
     * the speed (jobs/bench-codec).
     */
    static final int NICE_LENGTH = 96;

    /** The writer's Zstandard level (see {@link #ZSTD}). */
    static final int ZSTD_LEVEL = 19;

    /** The codec of a table's blocks as the generator writes them: Zstandard at six pieces and more. */
    static BlockCodec of(Material material) { return material.size() >= 6 ? ZSTD : LZMA; }

    /** Header byte 49: LZMA's properties byte, {@code (pb * 5 + lp) * 9 + lc}; 0 for Zstandard. */
    abstract int properties();

    /** Header bytes 52 to 55: LZMA's dictionary, a block; for Zstandard the block's entries (its frames say their window). */
    abstract int dictionary(int blockEntries);

    /**
     * A block's bytes compressed as the writer stores them, or, {@code fast}, as quickly as ranking the blocks' orders
     * on a sample needs (LZMA's fast mode: a third of the time).
     */
    abstract byte[] compress(byte[] block, int blockEntries, boolean fast);

    /**
     * A block's bytes as {@link #compress} codes them but with the codec's one setting chosen: LZMA's nice length in
     * its normal mode, Zstandard's level (for jobs/bench-codec, which weighs settings on a table's own blocks).
     */
    abstract byte[] compressed(byte[] block, int blockEntries, int setting);

    /** A decoder of one block's {@code compressed} bytes into {@code out}, whose length is the block's. */
    abstract BlockDecoder decoder(byte[] compressed, byte properties, byte[] out);

    /** Whether a lookup decodes a block only as far as it needs, each chunk checked by its CRC-32 (else whole, by the block's). */
    abstract boolean decodedInChunks();

    /**
     * LZMA's {@code preset} with a block's dictionary and no contexts, and with a {@code niceLength} (0: the preset's)
     * the writer's normal mode: the binary-tree match finder (hash chains: 6.5 % more on KRPKR's blocks at about its
     * speed), that nice length. No literal or position context bits: 1.0 %
     * smaller than lc 3, pb 3 on 296 KRRRKQ blocks, 0.7 to 1.0 % on 4- and 5-piece ones (a byte's context is better told
     * by the match finder).
     */
    private static LZMA2Options options(int preset, int niceLength, int blockEntries) {
        try {
            LZMA2Options options = new LZMA2Options(preset);
            if (niceLength > 0) {
                options.setMode(LZMA2Options.MODE_NORMAL);
                options.setMatchFinder(LZMA2Options.MF_BT4);
                options.setNiceLen(niceLength);
            }
            options.setDictSize(Math.max(LZMA2Options.DICT_SIZE_MIN, blockEntries));
            options.setLcLp(LC, LP);
            options.setPb(PB);
            return options;
        } catch (org.tukaani.xz.UnsupportedOptionsException e) {
            throw new IllegalStateException(e); // fixed, valid options
        }
    }

    private static byte[] lzma(byte[] block, LZMA2Options options) {
        ByteArrayOutputStream data = new ByteArrayOutputStream(block.length / 8);
        try (LZMAOutputStream lzma = new LZMAOutputStream(data, options, false)) {
            lzma.write(block, 0, block.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // into memory: not expected
        }
        return data.toByteArray();
    }

    /** A block's decoder: {@code out} decoded up to byte {@code n} (exclusive) at least; damaged input is a {@link CorruptTableException}. */
    interface BlockDecoder {
        void decodeTo(int n);
    }

    /** A Zstandard frame decoded whole at the first call. */
    private static final class ZstdBlockDecoder implements BlockDecoder {
        /** A decompressor a thread, reused: each holds buffers of 128 KB and more, which a new one allocates and clears. */
        private static final ThreadLocal<io.airlift.compress.zstd.ZstdDecompressor> DECOMPRESSORS =
                ThreadLocal.withInitial(io.airlift.compress.zstd.ZstdDecompressor::new);
        private final byte[] compressed, out;
        private boolean done;

        ZstdBlockDecoder(byte[] compressed, byte[] out) {
            this.compressed = compressed;
            this.out = out;
        }

        @Override public void decodeTo(int n) {
            if (done) return;
            int length;
            try {
                length = DECOMPRESSORS.get().decompress(compressed, 0, compressed.length, out, 0, out.length);
            } catch (RuntimeException e) { // aircompressor's MalformedInputException, or an index out of its bounds
                throw new CorruptTableException("a Zstandard frame that does not decode (" + e.getMessage() + ")");
            }
            if (length != out.length) throw new CorruptTableException("a Zstandard frame of " + length + " bytes, not " + out.length);
            done = true;
        }
    }
}
