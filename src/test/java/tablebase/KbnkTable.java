package tablebase;

import java.nio.file.Files;
import java.nio.file.Path;
import tablebase.cli.Generate;

/**
 * The full KBNK table, generated once per test JVM through the generate command, for every test that reads it.
 * For quick local iterations {@code -Dtablebase.test.kbnk=DIR} names a table generated earlier instead.
 */
public final class KbnkTable {
    private static Path folder;

    private KbnkTable() {}

    public static synchronized Path folder() throws Exception {
        if (folder == null && System.getProperty("tablebase.test.kbnk") != null) folder = Path.of(System.getProperty("tablebase.test.kbnk"));
        if (folder == null) {
            SparkTestSession.get();
            Path out = Files.createTempDirectory("kbnk-table").resolve("kbnk");
            int exit = Generate.generate(new String[] {"--endgame", "KBNK", "--out", out.toString(), "--partitions", "2"});
            if (exit != 0) throw new IllegalStateException("generate exited with " + exit);
            folder = out;
        }
        return folder;
    }
}
