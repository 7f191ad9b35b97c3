package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.chess.Square;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python module ({@code python/tablebase.py}, standard library only, and the {@code zstandard} package for tables
 * of six pieces), run by the machine's {@code python3} on the
 * compressed files the generator wrote: random positions of several tables, both sides to move, materials read with
 * their colours swapped, entries marked as decided by their captures, en-passant rights, part files and plies past
 * what a byte holds, each answered as the packed files (both sides and every entry stored) say; the README's Python
 * example run as printed.
 */
class PythonProbeTest {
    private static final Path MODULE = Path.of("python", "tablebase.py").toAbsolutePath();

    @Test
    void randomPositionsOfSeveralTablesProbeAsThePackedFilesSay(@TempDir Path dir) throws Exception {
        Path root = tables();
        Random random = new Random(41);
        List<Position> positions = new ArrayList<>();
        // KPKP marks a quarter of its stored entries; KRKQ, KKBN and KKP are read from KQKR, KBNK and KPK swapped
        for (String material : List.of("KQKR", "KRKQ", "KBNK", "KKBN", "KPKP", "KPK", "KKP", "KQKP", "KPKN"))
            for (Color side : Color.values())
                for (int k = 0; k < 60; k++) positions.add(Position.randomLegal(Material.parse(material), side, random));
        int withEnPassant = 0;
        while (withEnPassant < 40) { // a Black pawn just pushed two squares beside a White one, or the mirror of that
            Position p = enPassantPosition(random);
            if (p != null) { positions.add(p); withEnPassant++; }
        }
        List<String> fens = positions.stream().map(Fen::of).toList();
        List<String> lines = python(dir, root, fens);
        assertEquals(fens.size(), lines.size(), () -> String.join("\n", lines));
        try (Tablebase packed = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED)) {
            for (int k = 0; k < fens.size(); k++) {
                Position p = positions.get(k);
                assertEquals(fens.get(k) + "\t" + packed.probeWdl(p) + "\t" + packed.probeDtm(p), lines.get(k));
            }
        }
    }

    @Test
    void partFilesAndLatePliesReadAsTheWholeBytesOfAnotherRun(@TempDir Path dir) throws Exception {
        Path root = tables(), late = GeneratedTables.latePliesKqkr(); // a byte holds plies up to 31: later ones are listed beside the blocks
        assertTrue(Manifest.read(late.resolve("kqkr").resolve(Manifest.FILE)).compressedFiles().size() > 1, "KQKR in several parts");
        Random random = new Random(17);
        List<Position> past = new ArrayList<>(), other = new ArrayList<>(); // 100 past ply 31, 200 others
        try (Tablebase whole = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED)) {
            for (int k = 0; past.size() < 100 || other.size() < 200; k++) {
                Position p = Position.randomLegal(Material.parse(k % 3 == 0 ? "KRKQ" : "KQKR"), Color.values()[k % 2], random);
                List<Position> into = Math.abs(whole.probeDtmPlies(p).orElse(0)) > GeneratedTables.LATE_BYTE_PLIES ? past : other;
                if (into.size() < (into == past ? 100 : 200)) into.add(p);
            }
            List<Position> positions = new ArrayList<>(past);
            positions.addAll(other);
            List<String> fens = positions.stream().map(Fen::of).toList();
            List<String> lines = python(dir, late, fens);
            for (int k = 0; k < fens.size(); k++)
                assertEquals(fens.get(k) + "\t" + whole.probeWdl(positions.get(k)) + "\t" + whole.probeDtm(positions.get(k)), lines.get(k));
        }
    }

    /**
     * {@code --dtz} reads the compressed DTZ of tables made with it: random positions of KQKR, KQK, KRK and their colours
     * swapped, both sides to move, answered as the Java probe answers them; a table made without DTZ is a line that says so.
     */
    @Test
    void theFiftyMoveRuleIsReadFromTheCompressedDtz(@TempDir Path dir) throws Exception {
        Path root = GeneratedTables.dtzKqkr();
        Random random = new Random(23);
        List<Position> positions = new ArrayList<>();
        for (String material : List.of("KQKR", "KRKQ", "KQK", "KKQ", "KRK", "KKR"))
            for (Color side : Color.values())
                for (int k = 0; k < 40; k++) positions.add(Position.randomLegal(Material.parse(material), side, random));
        List<String> fens = new ArrayList<>(positions.stream().map(Fen::of).toList());
        Files.write(dir.resolve("fens.txt"), fens);
        Process run = new ProcessBuilder("python3", MODULE.toString(), "--tables", root.toString(), "--dtz", "--fens", dir.resolve("fens.txt").toString())
                .redirectErrorStream(true).start();
        List<String> lines = output(run);
        assertEquals(0, run.exitValue(), String.join("\n", lines));
        try (Tablebase tb = Tablebase.open(root)) {
            for (int k = 0; k < fens.size(); k++)
                assertEquals(fens.get(k) + "\t" + tb.probeWdl50(positions.get(k)) + "\t" + tb.probeDtz(positions.get(k)), lines.get(k));
        }
        Process plain = new ProcessBuilder("python3", MODULE.toString(), "--tables", tables().toString(), "--dtz", "8/8/8/8/8/2k5/1r6/KQ6_w_-_-_0_1")
                .redirectErrorStream(true).start();
        List<String> refused = output(plain);
        assertEquals(1, plain.exitValue());
        assertTrue(refused.get(0).endsWith("\terror: the KQKR table was made without DTZ (generate it again with --dtz)"), refused.get(0));
    }

    /**
     * Zstandard blocks (six pieces and more) read as LZMA ones: KQKR's compressed file written again with Zstandard
     * frames from its packed results, probed by the Python module (with the {@code zstandard} package) and the Java
     * probe, random positions of both sides and KRKQ, each as the packed files say.
     */
    @Test
    void zstandardBlocksReadAsTheLzmaOnes(@TempDir Path dir) throws Exception {
        Path root = tables(), copy = dir.resolve("tables");
        copyWithoutPackedFiles(root, copy);
        Manifest manifest = Manifest.read(root.resolve("kqkr").resolve(Manifest.FILE));
        assertEquals(1, manifest.packedFiles().size(), "KQKR in one part");
        PositionIndex index = new PositionIndex(Material.parse("KQKR"));
        byte[] packed = Files.readAllBytes(root.resolve("kqkr").resolve(manifest.packedFiles().get(0).name()));
        byte[] results = java.util.Arrays.copyOfRange(packed, 64, 64 + (int) (2 * index.size()));
        int side = CompressedTable.strongerSide(index.material()).ordinal();
        BlockOrder order = BlockOrder.of(index, index.size(), 0);
        byte[] ordered = new byte[(int) index.size()];
        order.arrange(results, side, ordered);
        try (java.io.OutputStream out = Files.newOutputStream(copy.resolve("kqkr").resolve(manifest.compressedFiles().get(0).name()))) {
            CompressedTable.write(index, 0, index.size(), side, CompressedTable.BLOCK, BlockCodec.ZSTD, order, ordered, null, null, LatePlies.NONE, out);
        }
        Random random = new Random(29);
        List<Position> positions = new ArrayList<>();
        for (String material : List.of("KQKR", "KRKQ"))
            for (Color s : Color.values())
                for (int k = 0; k < 100; k++) positions.add(Position.randomLegal(Material.parse(material), s, random));
        List<String> fens = positions.stream().map(Fen::of).toList();
        Path file = dir.resolve("fens.txt");
        Files.write(file, fens);
        Process run = new ProcessBuilder(zstandardPython(), MODULE.toString(), "--tables", copy.toString(), "--fens", file.toString()).redirectErrorStream(true).start();
        List<String> lines = output(run);
        assertEquals(0, run.exitValue(), String.join("\n", lines));
        try (Tablebase whole = Tablebase.open(List.of(root), Tablebase.Check.HEADERS, BlockCache.defaultBytes(), Tablebase.Source.PACKED);
             Tablebase zstd = Tablebase.open(copy)) {
            for (int k = 0; k < fens.size(); k++) {
                Position p = positions.get(k);
                String expected = fens.get(k) + "\t" + whole.probeWdl(p) + "\t" + whole.probeDtm(p);
                assertEquals(expected, lines.get(k));
                assertEquals(expected, fens.get(k) + "\t" + zstd.probeWdl(p) + "\t" + zstd.probeDtm(p), "the Java probe");
            }
        }
    }

    /** A python3 that has the zstandard package: the one on the path, else Debian's (python3-zstandard installs there). */
    private static String zstandardPython() throws IOException, InterruptedException {
        for (String python : List.of("python3", "/usr/bin/python3")) {
            try {
                if (new ProcessBuilder(python, "-c", "import zstandard").start().waitFor() == 0) return python;
            } catch (IOException notThere) {
                // the next one
            }
        }
        throw new AssertionError("no python3 here has the zstandard package: apt install python3-zstandard (.ci/run does)");
    }

    /** KQKR, KQK and KRK of {@code root} copied into {@code copy}, their packed files left out. */
    private static void copyWithoutPackedFiles(Path root, Path copy) throws IOException {
        for (String table : List.of("kqkr", "kqk", "krk")) {
            Files.createDirectories(copy.resolve(table));
            try (var files = Files.list(root.resolve(table))) {
                for (Path f : files.filter(f -> !f.toString().endsWith(".tbl") && Files.isRegularFile(f)).toList())
                    Files.copy(f, copy.resolve(table).resolve(f.getFileName()));
            }
        }
    }

    @Test
    void badPositionsAndMissingTablesAreALineEachAndTheExitStatusSaysSo(@TempDir Path dir) throws Exception {
        Path root = tables();
        List<String> fens = List.of("8/8/8/4k3/8/8/8/KQQ4r_w_-_-_0_1", "8/8/8/8/8/2k5/8/KQ5r b KQ - 0 1", "8/8/8 w", "8/8/8/8/8/1k6/8/KQ6 w - - 0 1",
                "8/8/8/8/8/2k5/1r6/KQ6_w_-_-_0_1");
        Process run = start(dir, root, fens);
        List<String> lines = output(run);
        assertEquals(1, run.exitValue(), String.join("\n", lines));
        assertTrue(lines.get(0).matches(".*\terror: no KQQKR table among .*KQKR.*"), lines.get(0));
        assertTrue(lines.get(1).endsWith("\terror: castling rights 'KQ' are out of scope: endgame tables hold no castling"), lines.get(1));
        assertTrue(lines.get(2).endsWith("\terror: the board needs 8 ranks separated by '/', not 3"), lines.get(2));
        assertTrue(lines.get(3).endsWith("\terror: illegal position: the side not to move is in check"), lines.get(3));
        try (Tablebase tb = Tablebase.open(root)) {
            Position p = Tablebase.position("8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1");
            assertEquals(fens.get(4) + "\t" + tb.probeWdl(p) + "\t" + tb.probeDtm(p), lines.get(4));
        }

        Process none = new ProcessBuilder("python3", MODULE.toString(), "--tables", dir.resolve("none").toString(), "x").redirectErrorStream(true).start();
        List<String> refused = output(none);
        assertEquals(2, none.exitValue());
        assertEquals(List.of("tablebase.py: error: " + dir.resolve("none") + ": no such folder"), refused);
    }

    @Test
    void aDamagedBlockIsRefusedAndTheOtherTablesKeepAnswering(@TempDir Path dir) throws Exception {
        Path root = tables(), copy = dir.resolve("tables");
        copyWithoutPackedFiles(root, copy);
        Path kqkr = copy.resolve("kqkr").resolve("kqkr.cdtm");
        byte[] bytes = Files.readAllBytes(kqkr);
        for (int k = bytes.length / 2; k < bytes.length / 2 + 64; k++) bytes[k] ^= 0x5A; // a block in the middle
        Files.write(kqkr, bytes);
        Random random = new Random(5);
        List<String> fens = new ArrayList<>();
        for (int k = 0; k < 200; k++) fens.add(Fen.of(Position.randomLegal(Material.parse("KQKR"), Color.WHITE, random)));
        fens.add("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
        List<String> lines = python(dir, copy, fens);
        assertTrue(lines.stream().anyMatch(l -> l.matches(".*\terror: .*kqkr.cdtm: block \\d+ (does not match its CRC-32|does not decompress.*)")),
                () -> String.join("\n", lines));
        try (Tablebase tb = Tablebase.open(root)) {
            assertEquals(fens.get(200) + "\t1\t" + tb.probeDtm(Tablebase.position(fens.get(200))), lines.get(200));
        }
    }

    @Test
    void theReadmePythonExampleRunsAndPrintsWhatTheJavaProbeSays(@TempDir Path dir) throws Exception {
        Matcher block = Pattern.compile("```python\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(Path.of("README.md")));
        assertTrue(block.find(), "README.md has no Python example");
        Files.writeString(dir.resolve("example.py"), block.group(1));
        Files.createSymbolicLink(dir.resolve("tables"), tables());
        ProcessBuilder builder = new ProcessBuilder("python3", "example.py").directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("PYTHONPATH", MODULE.getParent().toString());
        Process run = builder.start();
        List<String> lines = output(run);
        assertEquals(0, run.exitValue(), String.join("\n", lines));
        try (Tablebase tb = Tablebase.open(tables())) {
            Position white = Tablebase.position("8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1"), black = Tablebase.position("8/8/8/8/3k4/8/6r1/K6Q b - - 0 1");
            assertEquals(List.of(tb.probeWdl(white) + " " + tb.probeDtm(white), tb.probeDtm(black) + " " + tb.probeDtmPlies(black).getAsInt(), "None"),
                    lines);
        }
    }

    /** The generated tables' folder, with every table these tests read. */
    private static Path tables() throws Exception {
        for (String endgame : List.of("KQKR", "KBNK", "KPKP")) GeneratedTables.folder(endgame);
        return GeneratedTables.root();
    }

    /**
     * A legal KPKP position whose side to move may take en passant: the other side's pawn just pushed two squares
     * beside its own; null when the kings' random squares make it illegal.
     */
    private static Position enPassantPosition(Random random) {
        boolean white = random.nextBoolean();
        int file = random.nextInt(8), beside = file == 0 ? 1 : file == 7 ? 6 : file + (random.nextBoolean() ? 1 : -1);
        int pushedTo = Square.of(file, white ? 4 : 3), taker = Square.of(beside, white ? 4 : 3), passed = Square.of(file, white ? 5 : 2);
        int[] squares = {random.nextInt(64), white ? taker : pushedTo, random.nextInt(64), white ? pushedTo : taker};
        Position p = new Position(Material.parse("KPKP"), squares, white ? Color.WHITE : Color.BLACK, passed);
        return p.isLegal() ? p : null; // legal: the squares the pawn passed are empty
    }

    private static List<String> python(Path dir, Path tables, List<String> fens) throws IOException, InterruptedException {
        return output(start(dir, tables, fens));
    }

    private static Process start(Path dir, Path tables, List<String> fens) throws IOException {
        Path file = dir.resolve("fens.txt");
        Files.write(file, fens);
        return new ProcessBuilder("python3", MODULE.toString(), "--tables", tables.toString(), "--fens", file.toString()).redirectErrorStream(true).start();
    }

    private static List<String> output(Process process) throws IOException, InterruptedException {
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES));
        return out.lines().toList();
    }
}
