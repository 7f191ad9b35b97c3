package io.github.tablebase.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.CorruptTableException;
import io.github.tablebase.probe.IllegalPositionException;
import io.github.tablebase.probe.MissingTableException;
import io.github.tablebase.probe.LichessJson;
import io.github.tablebase.probe.ProbeJson;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The board explorer over HTTP (the JDK's own server): the page and its assets from the classpath, and
 * {@code GET /api/probe?fen=...} answering with the JSON of {@code probe --json}, and {@code GET /api/tables} listing
 * the endgames served. Bad input is a 400 with a
 * JSON error, never a stack trace.
 */
public final class ProbeServer implements AutoCloseable {
    private static final String ASSETS = "/tablebase/web/";
    private static final Map<String, String> PAGES = Map.of(
            "/", "index.html", "/index.html", "index.html", "/app.js", "app.js", "/style.css", "style.css");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8");

    static {
        // Without TCP_NODELAY, headers and body leave in two segments and each keep-alive request waits ~40 ms
        // for the client's delayed ACK. The JDK's server reads this property once, when it is first used.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer server;
    private final ExecutorService workers;
    private final Tablebase table;
    private final Map<String, byte[]> assets = new HashMap<>();
    /** What {@code /api/tables} lists: each endgame served with a position of it to start from. */
    private final List<Map<String, Object>> tables = new ArrayList<>();
    /** The tables of the folder that could not be opened: endgame, folder, reason (the explorer shows them). */
    private final List<Map<String, Object>> refused = new ArrayList<>();

    private ProbeServer(Tablebase table, HttpServer server, ExecutorService workers) throws IOException {
        this.table = table;
        this.server = server;
        this.workers = workers;
        for (String name : PAGES.values()) assets.put(name, asset(name));
        for (Tablebase.Refused r : table.refused()) // by both names, as the tables are listed, where no table answers them
            for (Material m : r.material() == null ? List.<Material>of() : List.of(r.material(), r.material().coloursSwapped()))
                if (!table.answered().contains(m) && refused.stream().noneMatch(t -> t.get("endgame").equals(m.name())))
                    refused.add(Map.of("endgame", m.name(), "folder", r.folder().toString(), "reason", r.reason()));
        for (Material m : table.answered()) {
            Position example = example(table, m);
            tables.add(Map.of("endgame", m.name(), "example", example.toString(), "example_wins", wins(table, example)));
        }
    }

    /** Whether White to move wins {@code p}; false where the table is damaged (a probe of it answers 500). */
    private static boolean wins(Tablebase table, Position p) {
        try {
            return table.getWdl(p).orElse(0) == 1;
        } catch (io.github.tablebase.probe.CorruptTableException e) {
            return false;
        }
    }

    /**
     * A position of {@code material} that White wins, when one is found among a few random ones (the same every time):
     * few, since each may decode blocks, and a server of a whole set (the 3-5 set's 285 materials, half of them
     * White's weaker side) starts only once every material has its example.
     */
    static Position example(Tablebase table, Material material) {
        Random random = new Random(1);
        Position first = Position.randomLegal(material, Color.WHITE, random);
        for (int i = 0; i < EXAMPLE_TRIES; i++) {
            Position p = i == 0 ? first : Position.randomLegal(material, Color.WHITE, random);
            if (wins(table, p) && !p.inCheck()) return p;
        }
        return first;
    }

    /** The random positions tried for a material's example. */
    static final int EXAMPLE_TRIES = 32;

    /** Starts serving on {@code host:port} (port 0: any free port) with {@code threads} workers. */
    public static ProbeServer start(Tablebase table, String host, int port, int threads) throws IOException {
        // Everything that can fail comes before the bind: a JDK server stopped before it started keeps its port.
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        try {
            HttpServer server = HttpServer.create();
            ProbeServer s = new ProbeServer(table, server, workers);
            server.setExecutor(workers);
            server.createContext("/", s::handle);
            try {
                server.bind(new InetSocketAddress(host, port), 256);
            } catch (BindException e) {
                throw new BindException(host + ":" + port + " cannot be used (" + e.getMessage() + "); choose another --port");
            }
            server.start();
            return s;
        } catch (IOException | RuntimeException e) {
            workers.shutdownNow();
            throw e;
        }
    }

    public int port() { return server.getAddress().getPort(); }

    public URI uri() { return URI.create("http://" + server.getAddress().getHostString() + ":" + port() + "/"); }

    @Override public void close() {
        server.stop(0);
        workers.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            try {
                route(exchange);
            } catch (RuntimeException e) {
                // a damaged table (503: that material cannot be served, the others can), or a bug (500): the client gets
                // one line, never a stack trace (unless the answer had begun)
                boolean damaged = e instanceof CorruptTableException;
                if (exchange.getResponseCode() == -1)
                    json(exchange, damaged ? 503 : 500, ProbeJson.error(null, (damaged ? "damaged table: " : "internal error: ") + e.getMessage()));
            }
        }
    }

    /** The most bytes of a request body read: the API takes none, so a client's body is drained up to this and no more. */
    public static final int MAX_BODY = 8 << 10;

    private void route(HttpExchange exchange) throws IOException {
        if (exchange.getRequestBody().readNBytes(MAX_BODY + 1).length > MAX_BODY) {
            exchange.getResponseHeaders().set("Connection", "close"); // the rest of the body is never read
            json(exchange, 413, ProbeJson.error(null, "a request body of more than " + MAX_BODY + " bytes; the API takes none"));
            return;
        }
        String path = exchange.getRequestURI().getPath();
        boolean get = exchange.getRequestMethod().equals("GET") || exchange.getRequestMethod().equals("HEAD");
        if (!get) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            json(exchange, 405, ProbeJson.error(null, "only GET and HEAD are served"));
        } else if (path.equals("/api/probe")) {
            probe(exchange, r -> ProbeJson.of(r.fen(), r.result()));
        } else if (path.equals("/standard")) {
            probe(exchange, r -> LichessJson.standard(r.result(), LichessJson.halfmoves(r.fen())));
        } else if (path.equals("/standard/mainline")) {
            probe(exchange, r -> LichessJson.mainline(r.result(), r.result().dtz() == null ? null
                    : table.dtzMainline(r.result().position(), LichessJson.halfmoves(r.fen()))));
        } else if (path.equals("/api/tables")) {
            json(exchange, 200, Map.of("tables", tables, "refused", refused));
        } else if (PAGES.containsKey(path)) {
            String name = PAGES.get(path);
            send(exchange, 200, TYPES.get(name.substring(name.lastIndexOf('.') + 1)), assets.get(name));
        } else {
            json(exchange, 404, ProbeJson.error(null, "no such page: " + path));
        }
    }

    /** A probe of the position asked for, and the FEN as asked. */
    private record Asked(String fen, ProbeResult result) {}

    /**
     * Answers {@code ?fen=} (underscores may stand for spaces, as the Lichess API allows) in the JSON {@code answer}
     * gives: 400 for a bad FEN or an impossible position, 404 for a material without a table.
     */
    private void probe(HttpExchange exchange, java.util.function.Function<Asked, Map<String, Object>> answer) throws IOException {
        String fen = query(exchange.getRequestURI().getRawQuery()).get("fen");
        if (fen == null || fen.isBlank()) {
            json(exchange, 400, ProbeJson.error(fen, "give the position as ?fen=..."));
            return;
        }
        try {
            json(exchange, 200, answer.apply(new Asked(fen, table.probe(fen.replace('_', ' ')))));
        } catch (IllegalPositionException e) {
            json(exchange, 400, ProbeJson.error(fen, e.getMessage()));
        } catch (MissingTableException e) {
            json(exchange, 404, ProbeJson.error(fen, e.getMessage()));
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> params = new HashMap<>();
        if (raw == null) return params;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq), value = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                params.put(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                params.put(key, value); // a broken %-escape stays as typed; the FEN reader will say what is wrong
            }
        }
        return params;
    }

    private static void json(HttpExchange exchange, int status, Map<String, Object> body) throws IOException {
        send(exchange, status, "application/json; charset=utf-8", ProbeJson.text(body).getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.getResponseHeaders().set("Access-Control-Allow-Origin", "*"); // the API answers pages of any origin, as Lichess's does
        boolean head = exchange.getRequestMethod().equals("HEAD");
        if (head) exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length)); // what GET would send
        exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] asset(String name) throws IOException {
        try (InputStream in = ProbeServer.class.getResourceAsStream(ASSETS + name)) {
            if (in == null) throw new IOException("the page asset " + name + " is missing from the jar");
            return in.readAllBytes();
        }
    }
}
