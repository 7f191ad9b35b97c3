package io.github.tablebase.cli;

import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.CodecTrial;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The compressed files' codec weighed on a table's own bytes: its stored blocks, as the writer laid them out, compressed
 * again under each setting given, on one thread, with the bits an entry and the speed of each (the writer's own
 * setting gives back the file's bytes). On the generator's classpath: Zstandard's writer is native code Spark ships.
 */
public final class CodecBench {
    static final String USAGE = "usage: CodecBench --table DIR [--stretches N] SETTING... (SETTING: lzma:ENTRIES[:NICE] or zstd:ENTRIES[:LEVEL])";

    private CodecBench() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("bench-codec", USAGE, () -> bench(argv)));
    }

    private static int bench(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--table", "--stretches"), Set.of());
        Path dir = Path.of(args.required("--table"));
        int stretches = args.positiveInt("--stretches", 16);
        List<CodecTrial.Setting> settings;
        try {
            settings = args.positional().stream().map(CodecTrial.Setting::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        if (settings.isEmpty()) throw new Args.UsageException("give one setting at least, the writer's first (lzma:65536:96 up to five pieces)");
        Path manifestFile = dir.resolve(Manifest.FILE);
        if (!Files.isRegularFile(manifestFile)) throw new Args.UsageException(dir + " holds no table (no " + Manifest.FILE + ")");
        Manifest manifest = Manifest.read(manifestFile);
        if (manifest.compressedFiles() == null) throw new Args.UsageException(dir + " holds no compressed files");
        List<Path> files = manifest.compressedFiles().stream().map(f -> dir.resolve(f.name())).toList();
        CompressedTable table = CompressedTable.open(files, new BlockCache(64L << 20));
        try {
            System.out.printf("%s: %d stretches of its stored blocks, each setting on one thread%n", manifest.endgame(), stretches);
            for (CodecTrial.Outcome o : CodecTrial.run(table, stretches, settings))
                System.out.printf("  %-18s %,14d entries  %,12d bytes  %.4f bits an entry  %6.2f MB a second%n", o.setting(), o.entries(), o.bytes(),
                        o.bitsAnEntry(), o.megabytesASecond());
        } finally {
            table.close();
        }
        return 0;
    }
}
