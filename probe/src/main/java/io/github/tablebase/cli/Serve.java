package io.github.tablebase.cli;

import io.github.tablebase.probe.Tablebase;
import io.github.tablebase.web.ProbeServer;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code jobs/serve}: the board explorer and {@code /api/probe} on localhost until interrupted. */
public final class Serve {
    static final String USAGE = "usage: serve (--table DIR | --tables DIR) [--cache-mb N] [--packed] [--port 8080] [--host 127.0.0.1] [--threads N]\n"
            + "example: jobs/serve --tables out --port 8080   (then open http://127.0.0.1:8080/)";

    private Serve() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("serve", USAGE, () -> serve(argv)));
    }

    /**
     * The server's cache unless {@code --cache-mb} says: half its heap, where a probe's is at most 256 MB. A server
     * lives on its decoded blocks (a whole probe of a six-piece table decodes a hundred and more when they are not
     * held), and the budget is a bound, not an allocation: a small set's blocks take what they take.
     */
    static long defaultCache() { return Runtime.getRuntime().maxMemory() / 2; }

    /**
     * Where the cache of {@code budget} bytes cannot hold the {@code decoded} bytes of the tables' blocks, a line that
     * says so and how to hold them all (a whole probe of a 6-piece table decodes megabytes of blocks not held); else null.
     */
    static String cacheAdvice(long budget, long decoded) {
        if (decoded <= budget) return null;
        long mb = (decoded + (1 << 20) - 1) >> 20;
        return String.format("the cache (%,d MB) holds %d %% of the %,d MB the tables' blocks take decoded: probes decode blocks again;"
                + " DRIVER_MEMORY=%dm jobs/serve ... --cache-mb %d holds them all", budget >> 20, 100 * budget / decoded, mb, mb + 512, mb);
    }

    static int serve(String[] argv) throws Exception {
        Args args = new Args(argv, Cli.tableOptions("--port", "--host", "--threads"), Set.of(Cli.TABLE_FLAG));
        if (!args.positional().isEmpty()) throw new Args.UsageException("unexpected argument " + args.positional().get(0));
        String portText = args.get("--port", "8080");
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) throw new Args.UsageException("--port must be 0..65535, not '" + portText + "'");
        int threads = args.positiveInt("--threads", 2 * Runtime.getRuntime().availableProcessors());
        Tablebase table = Cli.openTables(args, Tablebase.Check.HEADERS, defaultCache());
        ProbeServer server;
        try {
            server = ProbeServer.start(table, args.get("--host", "127.0.0.1"), port, threads);
        } catch (IOException | RuntimeException e) {
            table.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            table.close();
            stopped.countDown();
        }));
        System.out.println("serving " + String.join(", ", table.materials().stream().map(Object::toString).toList()) + " at " + server.uri()
                + " (the board explorer; API: " + server.uri() + "api/probe?fen=...; Ctrl-C stops)");
        String advice = cacheAdvice(table.cacheBudget(), table.decodedBytes());
        if (advice != null) System.out.println(advice);
        stopped.await();
        return 0;
    }
}
