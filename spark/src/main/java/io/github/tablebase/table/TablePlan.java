package io.github.tablebase.table;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MaterialChange;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The tables a run needs, in the order captures and promotions require them: every table after all those it leads
 * to. Each exit takes a piece or turns a pawn into a piece, so the walk ends.
 */
public final class TablePlan {
    private TablePlan() {}

    /** Every table {@code material} reaches through captures and promotions, smaller first, {@code material} last. */
    public static List<Material> of(Material material) {
        List<Material> order = new ArrayList<>();
        visit(material, order);
        return order;
    }

    private static void visit(Material m, List<Material> order) {
        if (order.contains(m)) return;
        for (Material sub : exits(m)) visit(sub, order);
        order.add(m);
    }

    /**
     * The tables one capture or promotion away (a promotion may also take a piece on the last rank), those with more
     * than the two kings (bare kings are a draw), each named by its {@link Material#tableMaterial}: KQKR reaches KQK
     * and KRK, whose colours swapped are KKR.
     */
    public static Set<Material> exits(Material m) {
        Set<Material> subs = new LinkedHashSet<>();
        for (MaterialChange.Exit exit : MaterialChange.exits(m))
            if (exit.change().after().size() > 2) subs.add(exit.change().after().tableMaterial());
        return subs;
    }
}
