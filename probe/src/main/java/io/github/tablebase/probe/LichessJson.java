package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.San;
import io.github.tablebase.probe.ProbeResult.Category;
import io.github.tablebase.probe.ProbeResult.MoveResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A probe in the shape of the Lichess tablebase API ({@code GET /standard} and {@code /standard/mainline} of
 * lila-tablebase), so that a tool written for it works against {@code jobs/serve}: DTM signed and in plies (positive
 * when the side to move mates), the fields of a position and of each legal move, best first in lila-tablebase's order
 * (see {@link #BEST_FIRST}). Where the table was made with DTZ, {@code dtz} and {@code precise_dtz} are its DTZ
 * (exact: both the same) and the category follows
 * the 50-move rule from the FEN's halfmove clock: {@code win} or {@code loss} where the next zeroing move or mate
 * comes before the clock reaches 100, {@code cursed-win} or {@code blessed-loss} where it does not. Without DTZ they
 * are null ("unknown" in that API) and the category says what DTM alone proves: {@code win} or {@code loss} where the
 * mate comes before the clock reaches 100, {@code maybe-win} or {@code maybe-loss} where the rule might make it a
 * draw, {@code cursed-win} or {@code blessed-loss} once the clock already stands at 100.
 */
public final class LichessJson {
    private LichessJson() {}

    /** The halfmove clock of a FEN (its fifth field; 0 when absent), spaces or underscores between fields. */
    public static int halfmoves(String fen) {
        String[] fields = fen.trim().split("[ _]+");
        return fields.length > 4 && fields[4].matches("\\d{1,4}") ? Integer.parseInt(fields[4]) : 0;
    }

    /** The answer of {@code GET /standard}: the position's fields, its category, and every legal move's, best first. */
    public static Map<String, Object> standard(ProbeResult r, int halfmoves) {
        Map<String, Object> m = positionFields(r.position(), r.category(), r.dtm(), r.dtz());
        m.put("category", category(r.category(), r.dtm(), r.dtz(), halfmoves));
        List<Ranked> moves = new ArrayList<>(r.moves().size());
        for (MoveResult move : r.moves()) {
            Move played = move.move();
            moves.add(new Ranked(move(r.position(), move, halfmoves), played.isCapture() ? r.position().piece(played.captured()).type().ordinal() : -1,
                    played.promotion() == null ? -1 : played.promotion().ordinal()));
        }
        moves.sort(BEST_FIRST);
        m.put("moves", moves.stream().map(Ranked::fields).toList());
        return m;
    }

    /** A move's fields, and the piece it takes and the piece it promotes to ({@link PieceType} ordinals, the most valuable first; -1 none). */
    private record Ranked(Map<String, Object> fields, int captured, int promoted) {
        int dtm() { return (Integer) fields.get("dtm"); }

        boolean is(String field) { return (Boolean) fields.get(field); }
    }

    /** lila-tablebase's categories, the worst for the side to move first. */
    private static final List<String> CATEGORIES = List.of("loss", "unknown", "maybe-loss", "blessed-loss", "draw", "cursed-win", "maybe-win", "win");

    /**
     * lila-tablebase's order of the moves, best first, by the position after each (the opponent to move): its category,
     * the worst for the opponent first; mate, then stalemate and bare material first; the DTM, the quickest mate (or
     * the slowest to be mated) first; for a mover who does not lose, zeroing moves and then captures first (last for
     * one who loses); the DTZ, highest first; the most valuable piece taken, then promoted to. lila-tablebase weighs the
     * DTM only where it knows the DTZ; here every table has DTM, so it always counts.
     */
    private static final java.util.Comparator<Ranked> BEST_FIRST = java.util.Comparator
            .comparingInt((Ranked m) -> CATEGORIES.indexOf((String) m.fields().get("category")))
            .thenComparing(m -> !m.is("checkmate"))
            .thenComparing(m -> !m.is("stalemate"))
            .thenComparing(m -> !m.is("insufficient_material"))
            .thenComparingInt(m -> -m.dtm())
            .thenComparing(m -> m.is("zeroing") == m.dtm() > 0)
            .thenComparing(m -> m.captured() >= 0 == m.dtm() > 0)
            .thenComparingInt(m -> m.fields().get("dtz") == null ? Integer.MIN_VALUE : -(Integer) m.fields().get("dtz"))
            .thenComparingInt(m -> m.captured() < 0 ? Integer.MAX_VALUE : m.captured())
            .thenComparingInt(m -> m.promoted() < 0 ? Integer.MAX_VALUE : m.promoted());

    /**
     * The answer of {@code GET /standard/mainline}: with the tables' DTZ ({@code dtzLine}, {@link
     * Tablebase#dtzMainline}), lila-tablebase's own, the line that keeps the result under the 50-move rule, each step
     * with the DTZ and DTM after it, to mate or until the halfmove clock reaches 100, the winner that of the line's
     * end ({@code w}, {@code b}, or null: a draw, the rule's included); without it (null), the line to mate (DTM's, the
     * tables' own; empty for a draw), each step with its DTM after it and an unknown DTZ, the winner the position's.
     */
    public static Map<String, Object> mainline(ProbeResult r, List<MoveResult> dtzLine) {
        if (dtzLine != null) return dtzMainline(r, dtzLine);
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> steps = new ArrayList<>(r.mainline().size());
        Position p = r.position();
        int plies = r.mainline().size();
        for (Move move : r.mainline()) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("uci", move.uci());
            step.put("san", San.of(p, move));
            step.put("dtz", null);
            step.put("precise_dtz", null);
            plies--;
            step.put("dtm", plies % 2 == 1 ? plies : -plies); // the side to move after it mates after an odd count
            steps.add(step);
            p = p.play(move);
        }
        m.put("mainline", steps);
        Character winner = switch (r.category()) {
            case WIN -> r.position().sideToMove().fenLetter();
            case LOSS -> r.position().sideToMove().opponent().fenLetter();
            case DRAW -> null;
        };
        m.put("winner", winner == null ? null : String.valueOf(winner));
        m.put("dtz", r.dtz());
        m.put("precise_dtz", r.dtz());
        return m;
    }

    private static Map<String, Object> dtzMainline(ProbeResult r, List<MoveResult> line) {
        List<Map<String, Object>> steps = new ArrayList<>(line.size());
        for (MoveResult s : line) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("uci", s.move().uci());
            step.put("san", s.san());
            step.put("dtz", s.dtz());
            step.put("precise_dtz", s.dtz());
            step.put("dtm", signedPlies(s.category(), s.dtm()));
            steps.add(step);
        }
        MoveResult last = line.isEmpty() ? null : line.get(line.size() - 1);
        boolean mates = last != null && last.category() == Category.LOSS && last.dtm() == 0; // else the rule, or no line, ends it
        Color mover = line.size() % 2 == 1 ? r.position().sideToMove() : r.position().sideToMove().opponent();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mainline", steps);
        m.put("winner", mates ? String.valueOf(mover.fenLetter()) : null);
        m.put("dtz", r.dtz());
        m.put("precise_dtz", r.dtz());
        return m;
    }

    private static Map<String, Object> move(Position before, MoveResult r, int halfmoves) {
        Move move = r.move();
        boolean zeroing = Tablebase.zeroing(before, move);
        Position after = before.play(move);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uci", move.uci());
        m.put("san", r.san());
        m.put("zeroing", zeroing);
        m.put("conversion", move.isCapture() || move.promotion() != null);
        m.putAll(positionFields(after, r.category(), r.dtm(), r.dtz()));
        m.put("category", category(r.category(), r.dtm(), r.dtz(), zeroing ? 0 : halfmoves + 1));
        return m;
    }

    /** The fields lila-tablebase gives a position, in its order; {@code dtm} the distance in moves as the probe has it. */
    private static Map<String, Object> positionFields(Position p, Category category, Integer dtm, Integer dtz) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("checkmate", category == Category.LOSS && dtm == 0);
        m.put("stalemate", category == Category.DRAW && p.isStalemate());
        m.put("variant_win", false);
        m.put("variant_loss", false);
        m.put("insufficient_material", p.insufficientMaterial());
        m.put("dtz", dtz);
        m.put("precise_dtz", dtz);
        m.put("dtm", signedPlies(category, dtm));
        return m;
    }

    /** DTM in plies, signed for the side to move: a mate in n moves is 2n - 1, mated in n is -2n; a draw 0. */
    static int signedPlies(Category category, Integer dtm) {
        return switch (category) {
            case WIN -> 2 * dtm - 1;
            case LOSS -> -2 * dtm;
            case DRAW -> 0;
        };
    }

    /**
     * The result under the 50-move rule, the halfmove clock at {@code halfmoves}: from DTZ where it is known (the next
     * zeroing move or mate must come by the clock's 100th ply), else what DTM alone proves.
     */
    static String category(Category category, Integer dtm, Integer dtz, int halfmoves) {
        if (category == Category.DRAW) return "draw";
        boolean win = category == Category.WIN;
        if (!win && dtm == 0) return "loss"; // checkmated: the rule cannot save a mated king
        if (dtz != null) return Math.abs(dtz) + halfmoves <= 100 ? (win ? "win" : "loss") : (win ? "cursed-win" : "blessed-loss");
        if (halfmoves >= 100) return win ? "cursed-win" : "blessed-loss";
        if (Math.abs(signedPlies(category, dtm)) <= 100 - halfmoves) return win ? "win" : "loss";
        return win ? "maybe-win" : "maybe-loss";
    }
}
