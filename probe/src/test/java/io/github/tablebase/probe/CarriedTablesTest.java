package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library on the module's own tables ({@link CarriedTables}): each position against its moves, the literature, damage, threads. */
class CarriedTablesTest {
    @Test
    void everyPositionOfEveryCarriedTableIsWhatItsMovesGive() throws Exception {
        try (Tablebase tb = Tablebase.open(CarriedTables.folder(), Tablebase.Check.SHA256)) {
            assertEquals(List.of("KBK", "KNK", "KPK", "KQK", "KRK"), tb.materials().stream().map(Material::name).sorted().toList());
            for (Material material : tb.materials()) {
                PositionIndex index = new PositionIndex(material);
                long checked = 0;
                for (long i = 0; i < index.size(); i++)
                    for (Color side : Color.values()) {
                        Position p = index.position(i, side);
                        if (p == null || !p.isLegal()) continue;
                        assertEquals(plyFromMoves(tb, p), tb.ply(p), p::toString);
                        checked++;
                    }
                assertTrue(checked > 10_000, material + ": " + checked);
            }
        }
    }

    /** A position's ply from its moves' (-1 a draw), bare kings a draw, checkmate 0 and stalemate a draw. */
    private static int plyFromMoves(Tablebase tb, Position p) {
        List<Move> moves = p.legalMoves();
        if (moves.isEmpty()) return p.inCheck() ? 0 : -1;
        Result.Fold fold = new Result.Fold();
        for (Move m : moves) {
            Position after = p.play(m);
            fold.addPly(after.material().size() == 2 ? -1 : tb.ply(after));
        }
        return fold.ply();
    }

    @Test
    void theLongestWinsAreThePublishedOnesAndTheManifestsSay() throws Exception {
        Map<String, Integer> published = Map.of("KQK", 10, "KRK", 16, "KBK", 0, "KNK", 0); // ../shared/SPEC.md; a lone minor piece never mates
        try (Tablebase tb = Tablebase.open(CarriedTables.folder())) {
            for (Material material : tb.materials()) {
                PositionIndex index = new PositionIndex(material);
                int[] longest = new int[2];
                for (long i = 0; i < index.size(); i++)
                    for (Color side : Color.values()) {
                        Position p = index.position(i, side);
                        if (p == null || !p.isLegal()) continue;
                        int ply = tb.ply(p);
                        if (ply > 0 && ply % 2 == 1) longest[side.ordinal()] = Math.max(longest[side.ordinal()], (ply + 1) / 2);
                    }
                if (published.containsKey(material.name())) assertEquals(published.get(material.name()), longest[0], material.name());
                Manifest manifest = Manifest.read(CarriedTables.folder().resolve(material.name().toLowerCase()).resolve(Manifest.FILE));
                assertEquals(longest[0], manifest.longestWin(0), material.name());
                assertEquals(longest[1], manifest.longestWin(1), material.name());
            }
        }
    }

    @Test
    void eachManifestReadIsWrittenBackByteForByteAndItsFiguresAddUp() throws Exception {
        for (String table : List.of("kpk", "kqk", "krk", "kbk", "knk")) {
            Path file = CarriedTables.folder().resolve(table).resolve(Manifest.FILE);
            Manifest manifest = Manifest.read(file);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            manifest.write(out);
            assertEquals(Files.readString(file), out.toString(java.nio.charset.StandardCharsets.UTF_8), table);
            assertEquals(table.toUpperCase(), manifest.endgame());
            assertEquals(new PositionIndex(manifest.material()).size(), manifest.indexSize(), table);
            for (Manifest.SideFigures side : manifest.sides()) {
                // the histograms count every position won or lost, and end at the longest win and loss
                assertEquals(side.positions().win(), side.winIn().values().stream().mapToLong(Long::longValue).sum(), table);
                assertEquals(side.positions().loss(), side.lossIn().values().stream().mapToLong(Long::longValue).sum(), table);
                assertEquals(side.longestWin(), side.winIn().isEmpty() ? 0 : side.winIn().lastKey(), table);
                assertEquals(side.longestLoss(), side.lossIn().isEmpty() ? 0 : side.lossIn().lastKey(), table);
            }
            for (Manifest.FileEntry f : manifest.compressedFiles()) assertEquals(Files.size(file.resolveSibling(f.name())), f.bytes(), f.name());
        }
        IOException damaged = assertThrows(IOException.class, () -> Manifest.read(new java.io.ByteArrayInputStream("{\"index_size\": 3}".getBytes())));
        assertTrue(damaged.getMessage().contains("names no endgame"), damaged.getMessage());
    }

    @Test
    void aDamagedTableIsLeftOutAndTheOthersAnswer(@TempDir Path dir) throws Exception {
        try (Tablebase tb = Tablebase.open(CarriedTables.withDamagedKpk(dir))) {
            Position kpk = Tablebase.position("8/8/8/8/8/2k5/4P3/4K3 w - - 0 1"), kqk = Tablebase.position("8/8/8/3k4/8/8/8/KQ6 w - - 0 1");
            assertThrows(CorruptTableException.class, () -> tb.probeDtm(kpk));
            assertTrue(tb.probeDtm(kqk) > 0);
        }
    }

    @Test
    void fourThreadsEvictingEachOthersBlocksReadWhatOneThreadReads() throws Exception {
        Random random = new Random(41);
        List<Position> positions = new ArrayList<>();
        for (int i = 0; i < 2_003; i++) positions.add(Position.randomLegal(Material.parse("KPK"), i % 2 == 0 ? Color.WHITE : Color.BLACK, random));
        int[] expected = new int[positions.size()];
        try (Tablebase alone = Tablebase.open(CarriedTables.folder())) {
            for (int i = 0; i < expected.length; i++) expected[i] = alone.ply(positions.get(i));
        }
        // a cache of one block: the threads evict each other's blocks, and write the marked entries they search into them
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (Tablebase shared = Tablebase.open(List.of(CarriedTables.folder()), Tablebase.Check.HEADERS, 1)) {
            List<Future<int[]>> answers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                answers.add(pool.submit(() -> {
                    int[] plies = new int[positions.size()];
                    for (int k = 0; k < plies.length; k++) {
                        int i = (k * 7 + offset * 501) % plies.length; // each thread its own order through every position
                        plies[i] = shared.ply(positions.get(i));
                    }
                    return plies;
                }));
            }
            for (Future<int[]> a : answers) assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(a.get()));
        } finally {
            pool.shutdownNow();
        }
    }
}
