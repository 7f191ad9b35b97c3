package tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tablebase.SparkTestSession;
import tablebase.output.Manifest;
import tablebase.output.OutputFolder;

/** The generate command's front door: clear one-line errors, exit codes, and nothing half-written. */
class GenerateCliTest {
    private static CliRun run(String... args) {
        return CliRun.of("generate", Generate.USAGE, "", () -> Generate.generate(args));
    }

    @Test
    void unknownOrUnsupportedEndgamesAreRefusedNamingWhatIsSupported(@TempDir Path dir) {
        CliRun r = run("--endgame", "KQKR", "--out", dir.resolve("t").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("not supported yet; supported: KQK, KRK"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        CliRun nonsense = run("--endgame", "KXK", "--out", dir.resolve("t").toString());
        assertEquals(1, nonsense.exit());
        assertTrue(nonsense.err().startsWith("generate: error: not an endgame: 'KXK'"), nonsense.err());
        assertFalse(Files.exists(dir.resolve("t")));
    }

    @Test
    void usageMistakesExitWithTwo() {
        assertEquals(2, run("--endgame", "KBNK").exit());
        assertEquals(2, run("--endgame", "KBNK", "--out", "x", "--partitions", "0").exit());
        assertEquals(2, run("--bogus").exit());
    }

    @Test
    void anExistingOutputIsRefusedUnlessOverwriteAndThenReplaced(@TempDir Path dir) throws Exception {
        SparkTestSession.get();
        Path out = dir.resolve("krk");
        Files.createDirectories(out);
        Files.writeString(out.resolve("old.txt"), "old");
        CliRun refused = run("--endgame", "KRK", "--out", out.toString());
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("already exists (pass --overwrite"), refused.err());
        assertTrue(Files.exists(out.resolve("old.txt")));

        assertEquals(0, run("--endgame", "KRK", "--out", out.toString(), "--overwrite", "--partitions", "2").exit());
        assertFalse(Files.exists(out.resolve("old.txt")));
        assertEquals("KRK", Manifest.read(out.resolve("manifest.json")).get("endgame"));
        assertFalse(Files.exists(out.resolve("krk.bin")), "the packed format is KBNK's only");
        try (Stream<Path> siblings = Files.list(dir)) {
            assertEquals(1, siblings.count(), "no staging or old folder is left behind");
        }
    }

    @Test
    void anUnwritableParentIsAClearError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        CliRun r = run("--endgame", "KBNK", "--out", file.resolve("table").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("generate: error: cannot create"), r.err());
    }

    @Test
    void aFailureBeforeTheCommitLeavesNothingAtTheFinalPath(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("table");
        try (OutputFolder folder = OutputFolder.prepare(out.toString(), false);
             java.io.OutputStream half = folder.create("kbnk.bin")) {
            half.write("half".getBytes());
            // no commit: the run failed
        }
        assertFalse(Files.exists(out));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }
}
