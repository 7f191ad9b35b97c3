package io.github.tablebase.cli;

import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.probe.TablebaseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** The front doors' shared exit protocol: one-line errors on stderr, exit 2 for usage mistakes, 1 for failures. */
public final class Cli {
    private Cli() {}

    /** Set when the JVM shuts down on a signal: what fails then is the stop itself, already told in one line. */
    private static volatile boolean stopping;

    /** Marks the command as stopping on a signal. */
    public static void stopping() { stopping = true; }

    /** The command running, for the lines it prints beside its output. */
    private static String command = "tablebase";

    public static int run(String name, String usage, Callable<Integer> command) {
        Cli.command = name;
        try {
            return command.call();
        } catch (Exception e) {
            if (stopping) return 130;
            return failed(name, usage, e);
        } catch (OutOfMemoryError e) {
            System.err.printf("%s: error: out of memory in a heap of %,d MB: run it with more (DRIVER_MEMORY=4g jobs/%s ...)%s%n", name,
                    Runtime.getRuntime().maxMemory() >> 20, name, usage.contains("--cache-mb") ? ", or a smaller --cache-mb" : "");
            return 1;
        }
    }

    private static int failed(String name, String usage, Exception thrown) {
        try {
            throw thrown;
        } catch (Args.HelpRequested e) {
            System.out.println(usage);
            return 0;
        } catch (Args.UsageException e) {
            System.err.println(name + ": " + e.getMessage());
            System.err.println(usage);
            return 2;
        } catch (Exception e) {
            Throwable known = knownCause(e);
            if (known != null) {
                System.err.println(name + ": error: " + oneLine(known));
                return 1;
            }
            System.err.println(name + ": failed: " + e);
            e.printStackTrace();
            return 1;
        }
    }

    /** The tables of {@code --table DIR} (one table's folder) or {@code --tables DIR} (a folder of table folders): exactly one of them. */
    static Tablebase openTables(Args args) throws IOException { return openTables(args, Tablebase.Check.HEADERS); }

    /**
     * ... and {@code --cache-mb N}, the budget of the compressed tables' decompressed blocks (default: {@link
     * BlockCache#defaultBytes}), and the flag {@code --packed}: read the packed files, not the compressed ones.
     */
    static Tablebase openTables(Args args, Tablebase.Check check) throws IOException { return openTables(args, check, BlockCache.defaultBytes()); }

    /** ... with a budget of {@code defaultCache} bytes where {@code --cache-mb} is not given. */
    static Tablebase openTables(Args args, Tablebase.Check check, long defaultCache) throws IOException {
        Tablebase.Source source = args.has("--packed") ? Tablebase.Source.PACKED : Tablebase.Source.COMPRESSED_FIRST;
        Tablebase opened = openTables(args, check, source, 1, defaultCache);
        for (Tablebase.Refused r : opened.refused()) System.err.println(command + ": warning: " + refusal(r));
        return opened;
    }

    /**
     * The tables of {@link #openTables(Args)} reading the files {@code source} says, with a {@code share}-th of the
     * cache's budget, for one of that many open at once; their refused tables left to the caller.
     */
    static Tablebase openTables(Args args, Tablebase.Check check, Tablebase.Source source, int share) throws IOException {
        return openTables(args, check, source, share, BlockCache.defaultBytes());
    }

    private static Tablebase openTables(Args args, Tablebase.Check check, Tablebase.Source source, int share, long defaultCache) throws IOException {
        String table = args.get("--table", null), tables = args.get("--tables", null);
        if ((table == null) == (tables == null)) throw new Args.UsageException("give --table DIR or --tables DIR");
        long cache = args.get("--cache-mb", null) == null ? defaultCache : (long) args.positiveInt("--cache-mb", 0) << 20;
        return Tablebase.open(List.of(Path.of(table != null ? table : tables)), check, cache / share, source);
    }

    /** A refused table in one line: which, where, why, and that the others answer. */
    static String refusal(Tablebase.Refused r) {
        return (r.material() == null ? "" : r.material().name() + " ") + "left out, " + r.folder() + ": " + r.reason();
    }

    /** The valued options of {@link #openTables} and a command's {@code more}; its flag is {@link #TABLE_FLAG}. */
    static final String TABLE_FLAG = "--packed";

    static Set<String> tableOptions(String... more) {
        Set<String> options = new java.util.HashSet<>(Set.of("--table", "--tables", "--cache-mb"));
        options.addAll(List.of(more));
        return options;
    }

    /**
     * The failure a user can act on, in {@code e} or its causes: bad input, a damaged table or an I/O error, also when
     * a Spark task threw it and the job's failure wraps it; null for anything else (a bug: its stack trace is printed).
     */
    private static Throwable knownCause(Throwable e) {
        for (int depth = 0; e != null && depth < 8; e = e.getCause(), depth++)
            if (e instanceof UncheckedIOException u) return u.getCause(); // a lambda's IOException: its own message
            else if (e instanceof IllegalArgumentException || e instanceof TablebaseException || e instanceof IOException) return e;
        return null;
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof java.nio.file.AccessDeniedException) m = m + ": permission denied";
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
