package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;

/**
 * Where the engine reports a table's solving: its notes (init, resume, the summary) and each ply as it is found.
 * A front door shows every ply line, or turns them into a progress line with the time left.
 */
@FunctionalInterface
public interface SolveProgress {
    /** A line the user always sees. */
    void note(String line);

    /**
     * Ply {@code ply} of {@code material} is found: {@code decided} entries of its {@code entries} are decided so far
     * (won or lost); {@code line} says it for a log. {@code live} is false for a table solved in one task, which
     * reports its plies once it is done.
     */
    default void ply(Material material, int ply, long decided, long entries, boolean live, String line) {
        note(line);
    }
}
