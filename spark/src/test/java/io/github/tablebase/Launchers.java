package io.github.tablebase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs the launchers of jobs/ as separate processes, output to a log file, for the tests that need real processes. */
public final class Launchers {
    private Launchers() {}

    /** Starts {@code jobs/<script> args...} from the project folder, stdout and stderr into {@code log}. */
    public static Process start(Path log, String script, Object... args) throws IOException {
        return start(Map.of(), log, script, args);
    }

    /** {@link #start(Path, String, Object...)} with extra environment variables. */
    public static Process start(Map<String, String> env, Path log, String script, Object... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of("jobs", script).toAbsolutePath().toString());
        for (Object a : args) command.add(a.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    /** Runs to the end and returns the exit code; a run over {@code seconds} is killed and fails the test. */
    public static int run(Path log, int seconds, String script, Object... args) throws Exception {
        return run(Map.of(), log, seconds, script, args);
    }

    /** {@link #run(Path, int, String, Object...)} with extra environment variables. */
    public static int run(Map<String, String> env, Path log, int seconds, String script, Object... args) throws Exception {
        Process p = start(env, log, script, args);
        try {
            if (!p.waitFor(seconds, java.util.concurrent.TimeUnit.SECONDS))
                throw new AssertionError("jobs/" + script + " did not finish in " + seconds + " s; log " + log);
            return p.exitValue();
        } finally {
            p.destroyForcibly();
        }
    }

    /** Waits until a line of {@code log} contains {@code text}; fails when the process ends first or time runs out. */
    public static void awaitLine(Path log, String text, Process process, int seconds) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            if (Files.exists(log) && Files.readString(log).contains(text)) return;
            if (!process.isAlive()) throw new AssertionError("the process ended before printing '" + text + "':\n" + Files.readString(log));
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + text + "' in " + log + " after " + seconds + " s");
    }
}
