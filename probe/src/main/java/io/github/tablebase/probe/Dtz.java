package io.github.tablebase.probe;

/**
 * A position's distance to zeroing (DTZ) under the 50-move rule, as Syzygy and python-chess count it, spelled one way.
 *
 * <p>DTZ is the plies to the next zeroing move (a capture or a pawn move) or mate, under play that keeps the result:
 * the winner shortens it, the loser lengthens it. A zeroing move into a position the opponent loses within the rule
 * counts 1; into one it loses only past the rule (a blessed loss), {@code rule + 1}. So a win of at most {@code
 * rule} plies wins in a game (five-valued WDL 2), a longer one is a cursed win (1), and the same for losses (-2,
 * -1). {@link #RULE_PLIES} is the game's rule; tests shorten it to make cursed results in small tables.
 *
 * <p>As a <em>code</em> (an int for the engine and the readers, a lookup's {@link EntryResults#result} of a DTZ
 * plane): {@link #NONE} (no canonical legal position), {@link #DRAW}, {@code 2 n} a win in {@code n >= 1} plies,
 * {@code 2 n + 1} a loss in {@code n >= 0} (1: checkmated). Codes are the same for either colour to move, so a
 * table read with the colours swapped needs no change.
 */
public final class Dtz {
    public static final int NONE = -1, DRAW = 0;
    /** The 50-move rule in plies. */
    public static final int RULE_PLIES = 100;

    private Dtz() {}

    /** A win in {@code plies} (at least 1). */
    public static int win(int plies) { return 2 * plies; }

    /** A loss in {@code plies} (0: checkmated). */
    public static int loss(int plies) { return 2 * plies + 1; }

    public static boolean wins(int code) { return code > 0 && (code & 1) == 0; }

    public static boolean loses(int code) { return code > 0 && (code & 1) == 1; }

    /** The plies of a win or a loss. */
    public static int plies(int code) { return code >>> 1; }

    /** python-chess's {@code probe_dtz}: positive when the side to move wins, negative when it loses, 0 drawn or checkmated. */
    public static int signed(int code) { return wins(code) ? plies(code) : loses(code) ? -plies(code) : 0; }

    /** Five-valued WDL under a rule of {@code rulePlies}: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss. */
    public static int wdl(int code, int rulePlies) {
        if (wins(code)) return plies(code) <= rulePlies ? 2 : 1;
        if (loses(code)) return plies(code) <= rulePlies ? -2 : -1;
        return 0;
    }

    /** How much the side to move prefers a result: a quicker win, then a draw, then a longer loss. */
    public static int preference(int code) {
        if (wins(code)) return Integer.MAX_VALUE - plies(code);
        if (loses(code)) return Integer.MIN_VALUE + 1 + plies(code);
        return 0;
    }

    /** The better of two codes for the side to move, {@link #NONE} standing for no move yet. */
    public static int better(int best, int worth) {
        return best == NONE || preference(worth) > preference(best) ? worth : best;
    }

    /**
     * What a move is worth to the side making it, the position after it ({@code after}, the opponent to move there)
     * being known: one ply more than it, or, for a zeroing move, 1 or {@code rulePlies + 1} by whether the result
     * there holds within the rule.
     */
    public static int byMove(int after, boolean zeroing, int rulePlies) {
        if (!wins(after) && !loses(after)) return DRAW;
        int plies = zeroing ? (plies(after) <= rulePlies ? 1 : rulePlies + 1) : plies(after) + 1;
        return loses(after) ? win(plies) : loss(plies);
    }
}
