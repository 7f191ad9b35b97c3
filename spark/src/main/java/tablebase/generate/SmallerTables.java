package tablebase.generate;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import tablebase.chess.Material;
import tablebase.table.SolvedTable;
import tablebase.table.Successors;
import tablebase.table.TablePlan;

/**
 * The smaller tables a table's captures and promotions lead to, broadcast to every executor (a broadcast join: a smaller table
 * has one piece less, so its result bytes are a small fraction of the table being solved).
 */
final class SmallerTables implements Serializable {
    private final Material material;
    private final Map<Material, Broadcast<byte[]>> results = new HashMap<>();

    SmallerTables(JavaSparkContext jsc, Material material, Map<Material, SolvedTable> solved) {
        this.material = material;
        for (Material sub : TablePlan.exits(material)) {
            SolvedTable table = solved.get(sub);
            if (table == null) throw new IllegalStateException(material.name() + " needs " + sub.name() + " solved first");
            results.put(sub, jsc.broadcast(table.results()));
        }
    }

    int count() { return results.size(); }

    /** Drops the broadcast copies once the table is solved. */
    void release() { results.values().forEach(b -> b.destroy(false)); }

    /** The exits' lookup for one task (it has scratch space of its own). */
    Successors exits() {
        Map<Material, byte[]> values = new HashMap<>();
        results.forEach((m, b) -> values.put(m, b.value()));
        return new Successors(material, null, values);
    }
}
