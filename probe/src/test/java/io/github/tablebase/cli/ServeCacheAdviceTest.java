package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.probe.CarriedTables;
import io.github.tablebase.probe.Json;
import io.github.tablebase.probe.Tablebase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The server's word on a cache too small for its tables, and the figure it rests on. */
class ServeCacheAdviceTest {
    @Test
    void decodedBytesAreTheManifestsIndexSizesAndTheAdviceHoldsThem() throws Exception {
        long indexes = 0; // a byte an entry of the side each compressed table stores, from the manifests
        try (Stream<Path> folders = Files.list(CarriedTables.folder())) {
            for (Path folder : folders.toList())
                indexes += ((Number) Json.parseObject(Files.readString(folder.resolve("manifest.json"))).get("index_size")).longValue();
        }
        long decoded;
        try (Tablebase tables = Tablebase.open(List.of(CarriedTables.folder()), Tablebase.Check.HEADERS, 1024)) {
            decoded = tables.decodedBytes();
        }
        assertEquals(indexes, decoded);

        assertNull(Serve.cacheAdvice(decoded, decoded));
        String advice = Serve.cacheAdvice(decoded / 4, decoded);
        assertNotNull(advice);
        Matcher cacheMb = Pattern.compile("--cache-mb (\\d+)").matcher(advice), heap = Pattern.compile("DRIVER_MEMORY=(\\d+)m").matcher(advice);
        assertTrue(cacheMb.find() && heap.find(), advice);
        long mb = Long.parseLong(cacheMb.group(1));
        assertTrue(mb << 20 >= decoded && Long.parseLong(heap.group(1)) > mb, advice); // what it advises holds every block
        assertNull(Serve.cacheAdvice(mb << 20, decoded));
    }
}
