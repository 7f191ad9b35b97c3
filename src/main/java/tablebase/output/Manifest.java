package tablebase.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code manifest.json}: what was generated, how, and the figures that let a reader check it. */
public final class Manifest {
    private Manifest() {}

    /** Facts about the run that the table itself does not hold; the wall time runs from {@code startNanos} to the manifest. */
    public record Run(String projectVersion, String sparkVersion, String master, int partitions, long startNanos) {}

    /** Adds the versions, the master, the partitions and the wall time so far. */
    static void putRun(Map<String, Object> m, Run run) {
        Map<String, Object> versions = new LinkedHashMap<>();
        versions.put("project", run.projectVersion());
        versions.put("spark", run.sparkVersion());
        versions.put("java", System.getProperty("java.version"));
        m.put("versions", versions);
        m.put("master", run.master());
        m.put("partitions", run.partitions());
        m.put("wall_seconds", Math.round((System.nanoTime() - run.startNanos()) / 1e7) / 100.0);
    }

    public static void write(Map<String, Object> manifest, OutputStream out) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out, manifest);
    }

    public static Map<String, Object> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    /** Reads a manifest on any Hadoop filesystem. */
    public static Map<String, Object> read(org.apache.hadoop.fs.FileSystem fs, org.apache.hadoop.fs.Path file) throws IOException {
        try (InputStream in = fs.open(file)) {
            return read(in);
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(InputStream in) throws IOException {
        return new ObjectMapper().readValue(in, Map.class);
    }
}
