package io.github.tablebase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Temporary folders that live as long as the test JVM: tables written once and read by many tests, deleted with all
 * they hold when the JVM exits (a run of the suite otherwise leaves hundreds of MB in the temporary folder).
 */
public final class TestFolders {
    private static final List<Path> CREATED = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TestFolders::deleteAll, "test-folders"));
    }

    private TestFolders() {}

    /** A new empty folder under the temporary folder, its name starting with {@code prefix}. */
    public static synchronized Path create(String prefix) throws IOException {
        Path folder = Files.createTempDirectory(prefix);
        CREATED.add(folder);
        return folder;
    }

    private static synchronized void deleteAll() {
        for (Path folder : CREATED) org.apache.commons.io.FileUtils.deleteQuietly(folder.toFile());
    }
}
