package io.github.tablebase.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.KbnkTable;
import io.github.tablebase.chess.Position;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java example, as a newcomer would copy it: compiled from the page against the probe's classes, run on KBNK. */
class ReadmeExampleTest {
    @Test
    void theReadmeProgramCompilesRunsAndAgreesWithTheApi(@TempDir Path dir) throws Exception {
        Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(Path.of("README.md")));
        assertTrue(block.find(), "README.md has no Java example");
        Matcher name = Pattern.compile("public class (\\w+)").matcher(block.group(1));
        assertTrue(name.find(), "the README's Java example is not a whole program");
        Path source = dir.resolve(name.group(1) + ".java");
        Files.writeString(source, block.group(1));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "the tests need a JDK");
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        int compiled = javac.run(null, messages, messages, "-d", dir.toString(), "-cp", System.getProperty("java.class.path"), source.toString());
        assertEquals(0, compiled, messages.toString(StandardCharsets.UTF_8));

        Path kbnk = KbnkTable.folder();
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            loader.loadClass(name.group(1)).getMethod("main", String[].class).invoke(null, (Object) new String[] {kbnk.toString()});
        } finally {
            System.setOut(out);
        }
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        try (Tablebase tb = Tablebase.open(kbnk)) {
            Position lost = Tablebase.position("8/8/8/3k4/8/8/8/KBN5 b - - 0 1"), won = Tablebase.position("8/8/8/8/8/2k5/8/KBN5 w - - 0 1");
            ProbeResult r = tb.probe(lost);
            int dtm = tb.probeDtm(lost);
            assertTrue(dtm < 0, "Black to move is mated in KBNK: " + dtm);
            String mainline = String.join(", ", r.mainline().stream().map(io.github.tablebase.chess.Move::uci).toList());
            assertEquals(List.of("-1 " + dtm + " " + 2 * dtm + " " + dtm + " LOSS " + r.bestMove().uci() + " [" + mainline + "]",
                    dtm + " " + tb.probeDtm(won), tb.materials() + " []"), lines);
        }
    }
}
