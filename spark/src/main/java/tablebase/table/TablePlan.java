package tablebase.table;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tablebase.chess.Color;
import tablebase.chess.Material;

/** The tables a run needs, in the order captures require them: every table after all those it leads to. */
public final class TablePlan {
    private TablePlan() {}

    /** Every table {@code material} reaches through captures, smaller first, {@code material} last. */
    public static List<Material> of(Material material) {
        List<Material> order = new ArrayList<>();
        visit(material, order);
        return order;
    }

    private static void visit(Material m, List<Material> order) {
        if (order.contains(m)) return;
        for (Material sub : captures(m)) visit(sub, order);
        order.add(m);
    }

    /** The materials one capture away that have more than the two kings (bare kings are a draw). */
    public static Set<Material> captures(Material m) {
        Set<Material> subs = new LinkedHashSet<>();
        if (m.size() == 3) return subs;
        for (int i = 0; i < m.size(); i++)
            if (i != m.kingIndex(Color.WHITE) && i != m.kingIndex(Color.BLACK)) subs.add(m.without(i));
        return subs;
    }
}
