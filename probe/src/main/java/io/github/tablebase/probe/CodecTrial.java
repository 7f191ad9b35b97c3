package io.github.tablebase.probe;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A table's stored blocks compressed again under other codecs, block sizes and settings, on one thread: what each would
 * make of the same bytes (the writer's order, fill and marks kept) and how fast it compresses them. The writer's own
 * setting gives back the file's bytes; the others weigh a change of the format on real tables before a set is made.
 */
public final class CodecTrial {
    private CodecTrial() {}

    /** A codec, the entries of its blocks and its one setting (LZMA's nice length, Zstandard's level). */
    public record Setting(BlockCodec codec, int blockEntries, int setting) {
        /** {@code lzma:ENTRIES[:NICE]} or {@code zstd:ENTRIES[:LEVEL]}; the writer's nice length and level by default. */
        public static Setting parse(String text) {
            String[] parts = text.split(":");
            if (parts.length < 2 || parts.length > 3) throw new IllegalArgumentException("a setting is codec:entries[:setting], not " + text);
            BlockCodec codec = switch (parts[0].toLowerCase(Locale.ROOT)) {
                case "lzma" -> BlockCodec.LZMA;
                case "zstd" -> BlockCodec.ZSTD;
                default -> throw new IllegalArgumentException("unknown codec " + parts[0] + " (lzma or zstd)");
            };
            int entries = positive(parts[1], text), setting = parts.length == 3 ? positive(parts[2], text) : codec == BlockCodec.LZMA ? BlockCodec.NICE_LENGTH : BlockCodec.ZSTD_LEVEL;
            if (codec == BlockCodec.LZMA && (setting < 8 || setting > 273)) throw new IllegalArgumentException("LZMA's nice length is 8 to 273, not " + setting);
            if (codec == BlockCodec.ZSTD && setting > 22) throw new IllegalArgumentException("Zstandard's level is 1 to 22, not " + setting);
            return new Setting(codec, entries, setting);
        }

        private static int positive(String number, String text) {
            try {
                int n = Integer.parseInt(number);
                if (n > 0) return n;
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException("not a positive number: " + number + " in " + text);
        }

        @Override public String toString() { return codec.name().toLowerCase(Locale.ROOT) + ":" + blockEntries + ":" + setting; }
    }

    /** What a setting made of the stretches: their entries, its compressed bytes, the seconds it took. */
    public record Outcome(Setting setting, long entries, long bytes, double seconds) {
        public double bitsAnEntry() { return 8.0 * bytes / entries; }

        public double megabytesASecond() { return entries / seconds / 1e6; }
    }

    /**
     * The stored bytes of {@code stretches} runs of whole blocks spread evenly over the table's parts, each {@code span}
     * entries long (a part's end cuts one short); each part whole where they would cover every block.
     */
    static List<byte[]> stretches(CompressedTable table, int stretches, long span) {
        int block = table.blockEntries(), perStretch = (int) Math.max(1, (span + block - 1) / block);
        long[] entries = table.partEntries();
        int[] blocks = new int[entries.length];
        long total = 0;
        for (int p = 0; p < entries.length; p++) total += blocks[p] = (int) ((entries[p] + block - 1) / block);
        List<byte[]> out = new ArrayList<>();
        if ((long) stretches * perStretch >= total) {
            for (int p = 0; p < blocks.length; p++) out.add(stored(table, p, 0, blocks[p]));
            return out;
        }
        for (int s = 0; s < stretches; s++) {
            long at = s * total / stretches;
            int p = 0;
            for (; at >= blocks[p]; p++) at -= blocks[p];
            out.add(stored(table, p, (int) at, Math.min(perStretch, blocks[p] - (int) at)));
        }
        return out;
    }

    /** The stored bytes of part {@code part}'s blocks {@code first .. first + n - 1}, one after another. */
    private static byte[] stored(CompressedTable table, int part, int first, int n) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int j = first; j < first + n; j++) bytes.writeBytes(table.storedBlock(part, j));
        return bytes.toByteArray();
    }

    /**
     * Each setting's figures over the same {@code stretches} runs of the table's stored bytes (each as long as the
     * largest setting's block, cut into that setting's blocks), every setting run once first to warm the compiler.
     */
    public static List<Outcome> run(CompressedTable table, int stretches, List<Setting> settings) {
        long span = settings.stream().mapToLong(Setting::blockEntries).max().orElse(table.blockEntries());
        List<byte[]> bytes = stretches(table, stretches, span);
        List<Outcome> outcomes = new ArrayList<>();
        for (Setting s : settings) compress(s, List.of(bytes.get(0)));
        for (Setting s : settings) {
            long start = System.nanoTime();
            long[] sums = compress(s, bytes);
            outcomes.add(new Outcome(s, sums[0], sums[1], (System.nanoTime() - start) / 1e9));
        }
        return outcomes;
    }

    /** The entries and compressed bytes of {@code stretches} in blocks of the setting's. */
    private static long[] compress(Setting s, List<byte[]> stretches) {
        long entries = 0, compressed = 0;
        for (byte[] stretch : stretches)
            for (int at = 0; at < stretch.length; at += s.blockEntries()) {
                int n = Math.min(s.blockEntries(), stretch.length - at);
                byte[] block = java.util.Arrays.copyOfRange(stretch, at, at + n);
                compressed += s.codec().compressed(block, s.blockEntries(), s.setting()).length;
                entries += n;
            }
        return new long[] {entries, compressed};
    }
}
