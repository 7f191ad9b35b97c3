package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe library stands alone: nothing of Spark, Hadoop or Scala on its classpath, and its own JSON. */
class ProbeLibraryTest {
    private static final List<String> FORBIDDEN = List.of("org.apache.spark.SparkContext", "org.apache.hadoop.conf.Configuration",
            "scala.Tuple2", "com.fasterxml.jackson.databind.ObjectMapper");

    @Test
    void noSparkHadoopScalaOrJacksonClassCanBeLoaded() {
        // The test classpath holds the module's runtime classpath and JUnit: none of these may be found on it.
        for (String name : FORBIDDEN)
            assertThrows(ClassNotFoundException.class, () -> Class.forName(name, false, getClass().getClassLoader()), name);
        List<String> jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.matches(".*(spark|hadoop|scala|jackson).*\\.jar")).toList();
        assertEquals(List.of(), jars);
    }

    @Test
    void jsonReadsWhatItWritesWithKeyOrderAndEscapes() {
        Map<String, Object> manifest = Json.parseObject("""
                { "endgame" : "KQKR", "index_size" : 1806336, "big" : 12345678901, "wall" : 14.25,
                  "list" : [ 1, "two\\n\\"3\\"", true, null, { } ], "u" : "\\u00e9" }""");
        assertEquals(List.of("endgame", "index_size", "big", "wall", "list", "u"), List.copyOf(manifest.keySet()));
        assertEquals(1806336, manifest.get("index_size"));
        assertEquals(12345678901L, manifest.get("big"));
        assertEquals(14.25, manifest.get("wall"));
        assertEquals(Arrays.asList(1, "two\n\"3\"", true, null, Map.of()), manifest.get("list"));
        assertEquals("\u00e9", manifest.get("u"));
        assertEquals(manifest, Json.parseObject(Json.text(manifest)));
        assertEquals(manifest, Json.parseObject(Json.pretty(manifest)));
        Map<String, Object> ordered = new LinkedHashMap<>();
        ordered.put("a", List.of(1, 2.5, "x\ty"));
        ordered.put("b", Map.of());
        assertEquals("{\"a\":[1,2.5,\"x\\ty\"],\"b\":{}}", Json.text(ordered));
    }

    @Test
    void malformedJsonSaysWhere() {
        for (String bad : List.of("", "{", "{\"a\" 1}", "[1,]", "{\"a\":tru}", "\"open", "{} x", "[1e]"))
            assertTrue(assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad).getMessage().startsWith("malformed JSON at character"));
    }
}
