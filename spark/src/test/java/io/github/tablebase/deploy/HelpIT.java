package io.github.tablebase.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.Launchers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command in jobs/ answers --help and -h with its usage, exit code 0, and does nothing else. */
class HelpIT {
    @Test
    void everyCommandAnswersHelp(@TempDir Path dir) throws Exception {
        List<String> commands;
        try (Stream<Path> files = Files.list(Path.of("jobs"))) {
            commands = files.filter(Files::isExecutable).filter(f -> !f.toString().endsWith(".sh")).map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertTrue(commands.containsAll(List.of("bench", "bench-cluster", "bench-probe", "bench-serve", "cluster", "generate", "probe")), commands::toString);
        for (String command : commands)
            for (String help : new String[] {"--help", "-h"}) {
                Path log = dir.resolve(command + help + ".log");
                int exit = Launchers.run(log, 120, command, help);
                String out = Files.readString(log);
                assertEquals(0, exit, () -> "jobs/" + command + " " + help + ":\n" + out);
                assertTrue(out.contains(command) && out.toLowerCase().contains("--"), () -> "jobs/" + command + " " + help + " printed no usage:\n" + out);
                assertFalse(out.contains("error:") || out.contains("Exception"), () -> "jobs/" + command + " " + help + ":\n" + out);
            }
    }
}
