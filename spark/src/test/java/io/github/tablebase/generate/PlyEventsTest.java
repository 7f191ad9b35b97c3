package io.github.tablebase.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The events' compact lists give back every entry added, in the order added, before and after a trip through a file, in a byte for each seven bits of a step. */
class PlyEventsTest {
    @Test
    void eachPlyGivesBackItsEntriesInTheOrderAddedInAByteForEachSevenBitsOfAStep() throws Exception {
        Random random = new Random(7);
        int plies = 40;
        List<List<Integer>> added = new ArrayList<>();
        for (int q = 0; q < plies; q++) added.add(new ArrayList<>());
        PlyEvents events = new PlyEvents();
        int entry = 0;
        for (int k = 0; k < 200_000; k++) {
            // mostly ascending with small steps, as init adds a table's entries; now and then an en-passant entry far above
            entry += 1 + random.nextInt(60);
            int e = random.nextInt(50) == 0 ? Integer.MAX_VALUE - random.nextInt(1000) : entry;
            int q = 3 + random.nextInt(plies - 3);
            events.add(q, e);
            added.get(q).add(e);
        }
        events.trimmed();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        events.writeTo(new DataOutputStream(file));
        long expected = 4 + 4L * plies; // the ply count, then each ply's byte count and its steps
        for (List<Integer> ply : added) {
            int previous = 0;
            for (int e : ply) {
                int step = e - previous, zigzag = step << 1 ^ step >> 31;
                previous = e;
                expected += (32 - Integer.numberOfLeadingZeros(zigzag | 1) + 6) / 7; // seven bits a byte
            }
        }
        assertEquals(expected, file.size(), "the steps' bytes");
        assertTrue(file.size() < 3 * 200_000, file.size() + " bytes for 200,000 events");
        PlyEvents read = PlyEvents.readFrom(new DataInputStream(new ByteArrayInputStream(file.toByteArray())));
        for (PlyEvents e : new PlyEvents[] {events, read}) {
            assertEquals(plies - 1, e.lastPly());
            for (int q = 0; q < plies + 2; q++) {
                List<Integer> given = new ArrayList<>();
                e.forEach(q, given::add);
                assertEquals(q < plies ? added.get(q) : List.of(), given, "ply " + q);
            }
        }
        assertThrows(IllegalStateException.class, () -> events.add(5, 1), "the events are only read once trimmed");
        assertEquals(-1, new PlyEvents().trimmed().lastPly());
    }
}
