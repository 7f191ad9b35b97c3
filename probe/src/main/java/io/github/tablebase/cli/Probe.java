package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.San;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.ProbeJson;
import io.github.tablebase.probe.ProbeResult.MoveResult;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.probe.TablebaseException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * {@code jobs/probe}: answers positions from generated tables' packed files, no Spark involved. One FEN on
 * the command line, or one FEN a line on standard input.
 */
public final class Probe {
    static final String USAGE = "usage: probe (--table DIR | --tables DIR) [--cache-mb N] [--packed] [--json] [FEN]\n"
            + "  --table: one table's folder; --tables: a folder of table folders; without a FEN: one FEN a line on standard input\n"
            + "example: jobs/probe --tables out \"8/8/8/3k4/8/8/4r3/KQ6 w - - 0 1\"";

    private Probe() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("probe", USAGE, () -> probe(argv)));
    }

    static int probe(String[] argv) throws Exception {
        Args args = new Args(argv, Cli.tableOptions(), Set.of("--json", Cli.TABLE_FLAG));
        try (Tablebase table = Cli.openTables(args)) {
            return probe(args, table);
        }
    }

    private static int probe(Args args, Tablebase table) throws java.io.IOException {
        boolean json = args.has("--json");
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        try {
            if (!args.positional().isEmpty()) {
                // A FEN given unquoted arrives as several words.
                String fen = String.join(" ", args.positional());
                try {
                    answer(out, fen, table.probe(fen), json);
                    return 0;
                } catch (TablebaseException e) {
                    if (!json) throw e;
                    out.println(ProbeJson.text(ProbeJson.error(fen, e.getMessage())));
                    return 1;
                }
            }
            boolean interactive = System.console() != null, damaged = false;
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String fen = line.trim();
                if (fen.isEmpty() || fen.startsWith("#")) continue;
                try {
                    answer(out, fen, table.probe(fen), json);
                } catch (TablebaseException e) {
                    // one line in place of the answer; a damaged table also fails the run, once every line is answered
                    damaged |= e instanceof CorruptTableException;
                    out.println(json ? ProbeJson.text(ProbeJson.error(fen, e.getMessage())) : fen + "\n  error: " + e.getMessage());
                }
                if (!json) out.println();
                if (interactive) out.flush();
            }
            return damaged ? 1 : 0;
        } finally {
            out.flush();
        }
    }

    private static void answer(PrintWriter out, String fen, ProbeResult r, boolean json) {
        if (json) {
            out.println(ProbeJson.text(ProbeJson.of(fen, r)));
            return;
        }
        boolean white = r.position().sideToMove() == Color.WHITE;
        out.println(fen);
        out.println("  " + (white ? "White" : "Black") + " to move: " + result(r));
        if (r.bestMove() != null)
            out.printf("  best %s: %s (%s)%n", r.category() == ProbeResult.Category.LOSS ? "defence" : "move", San.of(r.position(), r.bestMove()), r.bestMove().uci());
        if (r.dtz() != null) out.println("  50-move rule: " + underRule(r));
        if (!r.mainline().isEmpty()) {
            out.printf("  mainline, %d plies to checkmate:%n", r.mainline().size());
            out.println("    " + San.line(r.position(), r.mainline()));
            out.println("    " + String.join(" ", r.mainline().stream().map(Move::uci).toList()));
        }
        if (r.category() != ProbeResult.Category.WIN && !r.moves().isEmpty()) {
            out.println("  " + (white ? "White" : "Black") + "'s moves, best first:");
            for (MoveResult m : r.moves())
                out.printf("    %-6s %s  %s%n", m.san(), m.move().uci(), afterMove(r, m));
        }
    }

    private static String result(ProbeResult r) {
        boolean white = r.position().sideToMove() == Color.WHITE;
        String mover = white ? "White" : "Black", other = white ? "Black" : "White";
        return switch (r.category()) {
            case WIN -> mover + " mates in " + r.dtm();
            case LOSS -> r.dtm() == 0 ? mover + " is checkmated" : mover + " is lost in " + r.dtm() + " (" + other + " mates in " + r.dtm() + ")";
            case DRAW -> r.position().isStalemate() ? "draw (stalemate)" : "draw" + capture(r.moves());
        };
    }

    /** The result under the 50-move rule and the DTZ-optimal move, for a table made with DTZ. */
    private static String underRule(ProbeResult r) {
        int dtz = r.dtz(), plies = Math.abs(dtz);
        String result = r.category() == ProbeResult.Category.DRAW ? "draw"
                : r.category() == ProbeResult.Category.WIN ? (plies <= 100 ? "win" : "cursed win (a draw under the rule)")
                : dtz == 0 ? "checkmated" : plies <= 100 ? "loss" : "blessed loss (the rule saves it)";
        String line = result + (dtz == 0 ? "" : ", DTZ " + dtz + " (plies to a capture, pawn move or mate)");
        return r.dtzBestMove() == null || dtz == 0 ? line : line + "; DTZ-optimal move " + San.of(r.position(), r.dtzBestMove())
                + " (" + r.dtzBestMove().uci() + ")";
    }

    /** Why the side to move draws, when it is by taking a piece. */
    private static String capture(List<MoveResult> moves) {
        return moves.stream().filter(m -> m.move().isCapture() && m.category() == ProbeResult.Category.DRAW).findFirst()
                .map(m -> " (" + m.san() + " takes a piece and holds)").orElse("");
    }

    /** The result after a move, named for the side that moves next. */
    private static String afterMove(ProbeResult r, MoveResult m) {
        String next = r.position().sideToMove() == Color.WHITE ? "Black" : "White", mover = next.equals("White") ? "Black" : "White";
        return switch (m.category()) {
            case WIN -> next + " mates in " + m.dtm();
            case LOSS -> m.dtm() == 0 ? "checkmate" : next + " is lost in " + m.dtm() + " (" + mover + " mates in " + m.dtm() + ")";
            case DRAW -> m.move().isCapture() ? "draw after the capture" : "draw";
        };
    }
}
