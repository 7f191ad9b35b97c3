package io.github.tablebase.probe;

import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.San;
import io.github.tablebase.probe.ProbeResult.MoveResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a probe, shared by {@code probe --json} and the web server's {@code /api/probe}; its
 * fields follow the lichess tablebase API: {@code fen, category, dtm, best_move, mainline, moves[]}, with the
 * mainline in SAN as well; a table made with DTZ adds {@code dtz} (signed, as {@link Tablebase#probeDtz}) and
 * {@code dtz_best_move}, and each move's {@code dtz}.
 */
public final class ProbeJson {
    private ProbeJson() {}

    public static Map<String, Object> of(String fen, ProbeResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fen", fen);
        m.put("side_to_move", String.valueOf(r.position().sideToMove().fenLetter()));
        m.put("category", r.category().label());
        m.put("dtm", r.dtm());
        if (r.dtz() != null) {
            m.put("dtz", r.dtz());
            m.put("dtz_best_move", r.dtzBestMove() == null ? null : r.dtzBestMove().uci());
        }
        m.put("checkmate", r.position().isCheckmate());
        m.put("stalemate", r.position().isStalemate());
        m.put("best_move", r.bestMove() == null ? null : r.bestMove().uci());
        m.put("mainline", r.mainline().stream().map(Move::uci).toList());
        m.put("mainline_san", mainlineSan(r));
        List<Map<String, Object>> moves = r.moves().stream().map(ProbeJson::move).toList();
        m.put("moves", moves);
        return m;
    }

    public static Map<String, Object> error(String fen, String reason) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (fen != null) m.put("fen", fen);
        m.put("error", reason);
        return m;
    }

    /** One line of JSON. */
    public static String text(Map<String, Object> object) { return Json.text(object); }

    private static List<String> mainlineSan(ProbeResult r) {
        List<String> san = new ArrayList<>(r.mainline().size());
        Position p = r.position();
        for (Move m : r.mainline()) {
            san.add(San.of(p, m));
            p = p.play(m);
        }
        return san;
    }

    private static Map<String, Object> move(MoveResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uci", r.move().uci());
        m.put("san", r.san());
        m.put("category", r.category().label());
        m.put("dtm", r.dtm());
        if (r.dtz() != null) m.put("dtz", r.dtz());
        return m;
    }
}
