package io.github.tablebase.probe;

import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import java.util.List;

/**
 * The answer for one position: its result for the side to move, the best move, the whole line to
 * checkmate, and every legal move with the result it leads to, best first.
 *
 * @param dtm the distance to mate in moves of the side that mates (a win: the side to move mates in dtm; a loss:
 *            the opponent mates in dtm, 0 = checkmated; for KBNK, SPEC's value), null for a draw
 * @param bestMove null when the side to move has no legal move
 * @param mainline best play to checkmate: 2*dtm-1 plies from a win, 2*dtm from a loss, empty for a draw
 * @param dtz DTZ under the 50-move rule as {@link Tablebase#probeDtz} gives it, or null for a table made without DTZ
 * @param dtzBestMove the move that keeps the result under the 50-move rule quickest to its next zeroing move (the
 *            winner's) or slowest (the loser's), among those the first of {@code moves}; null without DTZ or a legal move
 */
public record ProbeResult(Position position, Category category, Integer dtm, Move bestMove, List<Move> mainline,
                          List<MoveResult> moves, Integer dtz, Move dtzBestMove) {

    /** The result for the side to move. */
    public enum Category {
        WIN, LOSS, DRAW;

        public String label() { return name().toLowerCase(); }
    }

    /**
     * A legal move and what it leads to: {@code category} and {@code dtm} are those of the position after it,
     * for the side to move there (a White move that keeps the win leads to a "loss" for Black); {@code dtz} too, null
     * where that table was made without DTZ.
     */
    public record MoveResult(Move move, String san, Category category, Integer dtm, Integer dtz) {}
}
