package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.PositionIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * A table checked against the rules of chess on a random sample of its positions, for a table too big to check
 * whole (the tests check every position of the small ones): each sampled position's value in the packed table equal
 * to what its moves imply (the positions they lead to looked up in the same table, or through a capture or a
 * promotion in a smaller one), its stored best move leading to the ply before, and the compressed table (stored side
 * read, the other side searched) answering the same. Where the packed files are gone, the compressed table's value
 * is checked against its moves. A table made with DTZ has its DTZ checked too: its result that of DTM (the rule
 * aside), its value what its moves' DTZ imply.
 */
public final class SampleCheck {
    /** What a check found: the positions checked, how many disagreed and the first that did (null when none). */
    public record Report(Material material, long checked, long mismatches, String firstMismatch) {}

    private SampleCheck() {}

    /** The positions a chunk of the sample holds: a few chunks a core keep every core busy to the end. */
    private static final int CHUNK = 2048;

    /**
     * Checks {@code positions} canonical legal positions of {@code material}, drawn uniformly from its index and both
     * sides to move with {@code seed}: {@code packed} reads the packed files, {@code compressed} the compressed ones.
     * The sample is cut into chunks, each drawn from a generator split from {@code seed}'s in turn and checked on any
     * core (both tablebases are safe to share), so that a seed draws the same positions and reports the same first
     * disagreement on any number of cores.
     */
    public static Report run(Tablebase packed, Tablebase compressed, Material material, long positions, long seed) {
        PositionIndex index = packed.table(material).index();
        SplittableRandom random = new SplittableRandom(seed);
        int chunks = Math.toIntExact((positions + CHUNK - 1) / CHUNK);
        List<SplittableRandom> draws = new ArrayList<>();
        for (int c = 0; c < chunks; c++) draws.add(random.split());
        List<Report> reports = IntStream.range(0, chunks).parallel()
                .mapToObj(c -> runChunk(packed, compressed, index, Math.min(CHUNK, positions - (long) c * CHUNK), draws.get(c))).toList();
        long mismatches = 0;
        String first = null;
        for (Report r : reports) {
            if (first == null) first = r.firstMismatch();
            mismatches += r.mismatches();
        }
        return new Report(material, positions, mismatches, first);
    }

    /** Checks {@code positions} positions of one chunk, drawn with {@code random}. */
    private static Report runChunk(Tablebase packed, Tablebase compressed, PositionIndex index, long positions, SplittableRandom random) {
        long checked = 0, mismatches = 0;
        String first = null;
        while (checked < positions) {
            long i = random.nextLong(index.size());
            Color side = random.nextBoolean() ? Color.WHITE : Color.BLACK;
            Position p = index.legalPosition(i, side);
            if (p == null) continue;
            checked++;
            String wrong = check(packed, compressed, p);
            if (wrong != null && mismatches++ == 0) first = p + ": " + wrong;
        }
        return new Report(index.material(), checked, mismatches, first);
    }

    /**
     * What is wrong with the tables at one legal position, or null. A table whose folder keeps its compressed files
     * alone ({@code packed} reads them then) is checked against its moves, with no stored move to check.
     */
    public static String check(Tablebase packed, Tablebase compressed, Position p) {
        int ply = packed.ply(p), implied = packed.plyFromMoves(p);
        if (ply != implied) return "the table gives ply " + ply + ", its moves imply " + implied;
        if (ply > 0 && packed.readsPacked(p.material())) {
            List<Move> legal = p.legalMoves();
            Move best = packed.table(p.material()).move(p, legal);
            if (best == null) return "no best move stored at ply " + ply;
            int after = packed.ply(p.play(best));
            if (after != ply - 1) return "the stored move " + best.uci() + " leads to ply " + after + ", not " + (ply - 1);
        }
        int read = compressed.ply(p);
        if (read != ply) return "the compressed table gives ply " + read + ", the packed one " + ply;
        if (!packed.hasDtz(p.material())) return null;
        int dtz;
        try {
            dtz = packed.dtzCode(p);
            int dtzImplied = packed.dtzFromMoves(p);
            if (dtz != dtzImplied) return "the DTZ table gives code " + dtz + " (DTZ " + Dtz.signed(dtz) + "), its moves imply " + dtzImplied;
        } catch (MissingTableException e) {
            return null; // a move reaches a table made without DTZ: nothing to check it against
        }
        boolean dtmWins = ply >= 0 && ply % 2 == 1, dtmLoses = ply >= 0 && ply % 2 == 0;
        if (Dtz.wins(dtz) != dtmWins || Dtz.loses(dtz) != dtmLoses)
            return "the DTZ table gives DTZ " + Dtz.signed(dtz) + ", DTM ply " + ply + ": not the same result";
        return null;
    }
}
