package tablebase.output;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import tablebase.chess.Material;
import tablebase.chess.PositionIndex;
import tablebase.generate.GeneralJob;
import tablebase.generate.IndexBlock;

/**
 * Writes a table of the general job into a folder: {@code parquet/} (one row per canonical position and side
 * to move, see {@link PositionRows#indexedSchema}), the packed {@link IndexedTable} file and
 * {@code manifest.json}, which also names the folders of the smaller tables its captures lead to.
 */
public final class IndexedExport {
    /** Histogram slot of the draws; plies use the slots below it. */
    private static final int DRAWS = IndexedTable.MAX_PLY + 1;

    private IndexedExport() {}

    /** The folder of a smaller table, next to the folder of the table that needs it: {@code kqk} beside {@code kqkr}. */
    public static String folderName(Material material) { return material.name().toLowerCase(); }

    /** Writes everything into the folder's staging area (the caller commits) and returns the manifest written. */
    public static Map<String, Object> write(SparkSession spark, GeneralJob.Table table, OutputFolder folder, Manifest.Run run)
            throws IOException {
        Material material = table.material();
        PositionIndex index = table.index();
        spark.createDataFrame(table.blocks().flatMap(b -> PositionRows.of(index, b)), PositionRows.indexedSchema(material))
                .write().parquet(new Path(folder.staging(), TableExport.PARQUET).toString());
        String name = IndexedTable.fileName(material);
        String sha256 = TableExport.writeHashed(folder.create(name),
                out -> IndexedTable.write(index, table.blocks().map(b -> IndexedTable.entries(b, index)).toLocalIterator(), out));
        long[][] plies = table.blocks().map(IndexedExport::plyCounts).reduce(IndexedExport::add);

        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endgame", material.name());
        m.put("format", "indexed");
        m.put("index_size", index.size());
        Map<String, Object> positions = new LinkedHashMap<>(), longest = new LinkedHashMap<>(), histogram = new LinkedHashMap<>();
        long rows = 0;
        for (int s = 0; s < 2; s++) {
            String side = s == 0 ? "white_to_move" : "black_to_move";
            long wins = 0, losses = 0;
            int longestWin = 0, longestLoss = -1;
            Map<String, Long> winIn = new LinkedHashMap<>(), lossIn = new LinkedHashMap<>();
            for (int ply = 0; ply < DRAWS; ply++) {
                long n = plies[s][ply];
                if (n == 0) continue;
                int moves = (ply + 1) / 2;
                if (ply % 2 == 1) { wins += n; longestWin = moves; winIn.put(Integer.toString(moves), n); }
                else { losses += n; longestLoss = moves; lossIn.put(Integer.toString(moves), n); }
            }
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("win", wins);
            counts.put("loss", losses);
            counts.put("draw", plies[s][DRAWS]);
            positions.put(side, counts);
            Map<String, Object> sideLongest = new LinkedHashMap<>();
            sideLongest.put("win", longestWin);
            sideLongest.put("loss", Math.max(longestLoss, 0));
            longest.put(side, sideLongest);
            Map<String, Object> byResult = new LinkedHashMap<>();
            byResult.put("win", winIn);
            byResult.put("loss", lossIn);
            histogram.put(side, byResult);
            rows += wins + losses + plies[s][DRAWS];
        }
        m.put("positions", positions);
        m.put("longest_dtm", longest);
        m.put("dtm_histogram", histogram);
        m.put("parquet", Map.of("path", TableExport.PARQUET, "rows", rows));
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("name", name);
        file.put("bytes", IndexedTable.fileSize(index));
        file.put("sha256", sha256);
        m.put("indexed_file", file);
        List<Map<String, String>> subs = new ArrayList<>();
        for (Material sub : GeneralJob.captures(material)) subs.add(Map.of("endgame", sub.name(), "path", "../" + folderName(sub)));
        m.put("sub_tables", subs);
        Manifest.putRun(m, run);
        try (OutputStream out = folder.create(TableExport.MANIFEST)) {
            Manifest.write(m, out);
        }
        return m;
    }

    /** Entries per side and ply; draws in the last slot. */
    private static long[][] plyCounts(IndexBlock b) {
        long[][] counts = new long[2][DRAWS + 1];
        for (long i = b.lo(); i < b.hi(); i++)
            for (int s = 0; s < 2; s++) {
                int ply = b.ply(i, s);
                if (ply != IndexBlock.NONE) counts[s][ply == IndexBlock.UNDECIDED ? DRAWS : ply]++;
            }
        return counts;
    }

    private static long[][] add(long[][] a, long[][] b) {
        for (int s = 0; s < 2; s++) for (int k = 0; k < a[s].length; k++) a[s][k] += b[s][k];
        return a;
    }
}
