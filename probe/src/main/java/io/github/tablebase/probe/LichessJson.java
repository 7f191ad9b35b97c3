package io.github.tablebase.probe;

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
 * when the side to move mates), the fields of a position and of each legal move, best first (by DTM). Where the table
 * was made with DTZ, {@code dtz} and {@code precise_dtz} are its DTZ (exact: both the same) and the category follows
 * the 50-move rule from the FEN's halfmove clock: {@code win} or {@code loss} where the next zeroing move or mate
 * comes before the clock reaches 100, {@code cursed-win} or {@code blessed-loss} where it does not. Without DTZ they
 * are null ("unknown" in that API) and the category says what DTM alone proves: {@code win} or {@code loss} where the
 * mate comes before the clock reaches 100, {@code maybe-win} or {@code maybe-loss} where the rule might make it a
 * draw, {@code cursed-win} or {@code blessed-loss} once the clock already stands at 100. A mainline's steps give no DTZ.
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
        List<Map<String, Object>> moves = new ArrayList<>(r.moves().size());
        for (MoveResult move : r.moves()) moves.add(move(r.position(), move, halfmoves));
        m.put("moves", moves);
        return m;
    }

    /**
     * The answer of {@code GET /standard/mainline}: the line to mate (DTM's, the tables' own; empty for a draw), each
     * step with its DTM after it, the winner ({@code w}, {@code b}, or null for a draw) and the unknown DTZ.
     */
    public static Map<String, Object> mainline(ProbeResult r) {
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

    private static Map<String, Object> move(Position before, MoveResult r, int halfmoves) {
        Move move = r.move();
        boolean pawn = before.piece(move.piece()).type() == PieceType.PAWN;
        Position after = before.play(move);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uci", move.uci());
        m.put("san", r.san());
        m.put("zeroing", pawn || move.isCapture());
        m.put("conversion", move.isCapture() || move.promotion() != null);
        m.putAll(positionFields(after, r.category(), r.dtm(), r.dtz()));
        m.put("category", category(r.category(), r.dtm(), r.dtz(), pawn || move.isCapture() ? 0 : halfmoves + 1));
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
