package io.github.tablebase.cli;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.Manifest;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Load on a running {@code jobs/serve}: client threads on keep-alive connections GET {@code /api/probe}
 * for random legal positions (both sides), then requests per second, latency and errors are printed.
 */
public final class ServeBench {
    static final String USAGE = "usage: ServeBench --url http://127.0.0.1:8080/ (--table DIR | --tables DIR --endgame E) [--clients 8] [--seconds 20] [--warmup 5]";

    private ServeBench() {}

    public static void main(String[] argv) {
        System.exit(Cli.run("serve-bench", USAGE, () -> bench(argv)));
    }

    static int bench(String[] argv) throws Exception {
        Args args = new Args(argv, Set.of("--url", "--table", "--tables", "--endgame", "--clients", "--seconds", "--warmup"), Set.of());
        URI base = URI.create(args.required("--url"));
        int clients = args.positiveInt("--clients", 8), seconds = args.positiveInt("--seconds", 20);
        int warmup = args.positiveInt("--warmup", 5);
        Material material = args.has("--tables") ? Material.parse(args.required("--endgame"))
                : Manifest.read(Path.of(args.required("--table")).resolve(Manifest.FILE)).material();
        Random random = new Random(3);
        URL[] urls = new URL[10_000];
        for (int i = 0; i < urls.length; i++) {
            Position p = Position.randomLegal(material, random.nextBoolean() ? Color.WHITE : Color.BLACK, random);
            urls[i] = base.resolve("api/probe?fen=" + URLEncoder.encode(p.toString(), StandardCharsets.UTF_8)).toURL();
        }

        LongAdder ok = new LongAdder(), errors = new LongAdder(), nanos = new LongAdder();
        List<List<Long>> latencies = new ArrayList<>(); // each client's, in nanoseconds
        AtomicLong measuring = new AtomicLong(); // 0 warming up, 1 measuring, 2 stopped
        Thread[] threads = new Thread[clients];
        for (int t = 0; t < clients; t++) {
            int offset = t * 997;
            List<Long> mine = new ArrayList<>();
            latencies.add(mine);
            threads[t] = new Thread(() -> {
                for (int i = offset; measuring.get() < 2; i++) {
                    long start = System.nanoTime();
                    boolean good = get(urls[i % urls.length]);
                    if (measuring.get() != 1) continue;
                    if (good) ok.increment(); else errors.increment();
                    long took = System.nanoTime() - start;
                    nanos.add(took);
                    mine.add(took);
                }
            });
            threads[t].start();
        }
        Thread.sleep(warmup * 1000L);
        measuring.set(1);
        long begin = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(2);
        double elapsed = (System.nanoTime() - begin) / 1e9;
        for (Thread t : threads) t.join();
        long requests = ok.sum() + errors.sum();
        long[] sorted = latencies.stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("%d clients, %d s (after %d s warm-up): %,d requests, %,.0f requests/s, %d errors, latency mean %.2f ms, median %.2f ms, "
                        + "95th percentile %.2f ms%n", clients, seconds, warmup, requests, requests / elapsed, errors.sum(),
                nanos.sum() / 1e6 / Math.max(1, requests), percentile(sorted, 0.5), percentile(sorted, 0.95));
        return errors.sum() == 0 ? 0 : 1;
    }

    /** The {@code q} quantile of sorted nanoseconds, in milliseconds (0 for none). */
    private static double percentile(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[(int) (q * (sorted.length - 1))] / 1e6;
    }

    /** One request on a kept-alive connection; true for a 200 with a JSON body read to the end. */
    private static boolean get(URL url) {
        try {
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            int status = c.getResponseCode();
            try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
                byte[] body = in.readAllBytes();
                return status == 200 && body.length > 0 && body[0] == '{';
            }
        } catch (IOException e) {
            return false;
        }
    }
}
