package io.github.tablebase;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.MaterialChange;
import io.github.tablebase.cli.Generate;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Tables generated once per test JVM through the generate command, side by side in one folder (as a user's
 * {@code --out} folders would be), for every test that reads them: that folder is also a folder of tables. A table
 * an earlier generation wrote there as one of its smaller tables is used as it is, whatever order the tests run in.
 */
public final class GeneratedTables {
    private static Path root;
    private static final Map<String, Path> FOLDERS = new HashMap<>();
    private static Path latePlies, dtz;

    /** The plies a result byte holds in {@link #latePliesKqkr()}'s tables. */
    public static final int LATE_BYTE_PLIES = 31;

    private GeneratedTables() {}

    /** The folder holding every table generated so far, side by side: a folder of tables. */
    public static synchronized Path root() throws Exception {
        if (root == null) root = TestFolders.create("generated-tables");
        return root;
    }

    /** The folder of {@code endgame}'s table (and, beside it, of its smaller tables), generated on first use. */
    public static synchronized Path folder(String endgame) throws Exception {
        Path folder = FOLDERS.get(endgame);
        if (folder != null) return folder;
        SparkTestSession.get();
        folder = root().resolve(endgame.toLowerCase());
        if (!Files.isRegularFile(folder.resolve(Manifest.FILE))) { // else written whole as a smaller table of one generated before
            int exit = Generate.generate(new String[] {"--endgame", endgame, "--out", folder.toString(), "--partitions", "2", "--keep-packed"});
            if (exit != 0) throw new IllegalStateException("generate " + endgame + " exited with " + exit);
        }
        FOLDERS.put(endgame, folder);
        return folder;
    }

    /**
     * A folder of KQKR (69 plies) and its smaller tables written with a result byte lowered to {@link
     * #LATE_BYTE_PLIES} plies, the later ones listed beside the bytes, in part files of a million entries, packed
     * files kept: generated on first use, for the tests of late plies through every reader.
     */
    public static synchronized Path latePliesKqkr() throws Exception {
        if (latePlies != null) return latePlies;
        org.apache.spark.sql.RuntimeConfig conf = SparkTestSession.session().conf();
        Path folder = TestFolders.create("late-plies");
        conf.set(io.github.tablebase.table.RunSettings.BYTE_PLIES, Integer.toString(LATE_BYTE_PLIES));
        conf.set(io.github.tablebase.table.RunSettings.ENTRIES_PER_FILE, "1000000");
        try {
            int exit = Generate.generate(new String[] {"--endgame", "KQKR", "--out", folder.resolve("kqkr").toString(), "--partitions", "3", "--keep-packed"});
            if (exit != 0) throw new IllegalStateException("generate KQKR with late plies exited with " + exit);
        } finally {
            conf.unset(io.github.tablebase.table.RunSettings.BYTE_PLIES);
            conf.unset(io.github.tablebase.table.RunSettings.ENTRIES_PER_FILE);
        }
        latePlies = folder;
        return folder;
    }

    /**
     * A folder of KQKR and its smaller tables made with their DTZ ({@code --dtz}), KQKR and its DTZ in parts (so that
     * each part's task reads the DTZ for its Parquet rows, and a reader opens the DTZ's parts), packed files kept:
     * generated on first use.
     */
    public static synchronized Path dtzKqkr() throws Exception {
        if (dtz != null) return dtz;
        SparkTestSession.get();
        Path folder = TestFolders.create("dtz");
        org.apache.spark.sql.RuntimeConfig conf = SparkTestSession.session().conf();
        conf.set(io.github.tablebase.table.RunSettings.ENTRIES_PER_FILE, "2000000");
        conf.set(io.github.tablebase.table.RunSettings.ENTRIES_PER_PARTITION, "1000000");
        int exit;
        try {
            exit = Generate.generate(new String[] {"--endgame", "KQKR", "--out", folder.resolve("kqkr").toString(), "--dtz", "--keep-packed",
                    "--partitions", "3"});
        } finally {
            conf.unset(io.github.tablebase.table.RunSettings.ENTRIES_PER_FILE);
            conf.unset(io.github.tablebase.table.RunSettings.ENTRIES_PER_PARTITION);
        }
        if (exit != 0) throw new IllegalStateException("generate KQKR with DTZ exited with " + exit);
        dtz = folder;
        return folder;
    }

    /**
     * The packed tables (one part each) that {@code material}'s captures and promotions lead to, by the material of
     * each table (KRK for KKR), from the folders in {@code root}.
     */
    public static Map<Material, IndexedTable> smallerPackedTables(Path root, Material material) throws Exception {
        Map<Material, IndexedTable> smaller = new HashMap<>();
        for (MaterialChange.Exit e : MaterialChange.exits(material)) {
            Material after = e.change().after().tableMaterial();
            if (after.size() > 2 && !smaller.containsKey(after))
                smaller.put(after, IndexedTable.open(root.resolve(after.name().toLowerCase(Locale.ROOT)).resolve(IndexedTable.partName(after, 0, 1))));
        }
        return smaller;
    }
}
