package io.github.tablebase.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The project's version, as Maven stamped it into {@code tablebase/build.properties}. */
final class Versions {
    private Versions() {}

    static String project() {
        Properties p = new Properties();
        try (InputStream in = Versions.class.getResourceAsStream("/tablebase/build.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", "unknown");
    }
}
