package io.github.tablebase.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A small command-line reader: {@code --name value} options, {@code --flag} switches and positional words. */
final class Args {
    /** A mistake in the command line: printed with the usage, exit code 2. */
    static final class UsageException extends IllegalArgumentException {
        UsageException(String message) { super(message); }
    }

    /** {@code --help} or {@code -h}: the usage is printed on standard output, exit code 0. */
    static final class HelpRequested extends RuntimeException {
        HelpRequested() { super("help", null, false, false); }
    }

    /** The options that may be given more than once, each adding a value. */
    private static final Set<String> REPEATABLE = Set.of("--conf", "--fen");

    private final Map<String, List<String>> options = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();

    Args(String[] argv, Set<String> valued, Set<String> flags) {
        for (String a : argv) if (a.equals("--help") || a.equals("-h")) throw new HelpRequested();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if ((valued.contains(a) || flags.contains(a)) && options.containsKey(a) && !REPEATABLE.contains(a))
                throw new UsageException(a + " is given twice");
            if (valued.contains(a)) {
                if (i + 1 >= argv.length) throw new UsageException(a + " needs a value");
                options.computeIfAbsent(a, k -> new ArrayList<>()).add(argv[++i]);
            } else if (flags.contains(a)) {
                options.computeIfAbsent(a, k -> new ArrayList<>()).add("true");
            } else if (a.startsWith("--")) {
                throw new UsageException("unknown option " + a);
            } else {
                positional.add(a);
            }
        }
    }

    String get(String name, String fallback) {
        List<String> values = options.get(name);
        return values == null ? fallback : values.get(0);
    }

    String required(String name) {
        String v = get(name, null);
        if (v == null) throw new UsageException(name + " is required");
        return v;
    }

    List<String> all(String name) { return options.getOrDefault(name, List.of()); }

    boolean has(String name) { return options.containsKey(name); }

    List<String> positional() { return positional; }

    int positiveInt(String name, int fallback) {
        String v = get(name, null);
        if (v == null) return fallback;
        try {
            int n = Integer.parseInt(v);
            if (n > 0) return n;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(name + " must be a positive whole number, not '" + v + "'");
    }
}
