package tablebase.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tablebase.output.ProbeJson;
import tablebase.output.Tablebase;

/**
 * The board explorer over HTTP (the JDK's own server): the page and its assets from the classpath, and
 * {@code GET /api/probe?fen=...} answering with the JSON of {@code probe --json}. Bad input is a 400 with a
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

    private ProbeServer(Tablebase table, HttpServer server, ExecutorService workers) throws IOException {
        this.table = table;
        this.server = server;
        this.workers = workers;
        for (String name : PAGES.values()) assets.put(name, asset(name));
    }

    /** Starts serving on {@code host:port} (port 0: any free port) with {@code threads} workers. */
    public static ProbeServer start(Tablebase table, String host, int port, int threads) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 256);
        } catch (BindException e) {
            throw new BindException(host + ":" + port + " cannot be used (" + e.getMessage() + "); choose another --port");
        }
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        ProbeServer s = new ProbeServer(table, server, workers);
        server.setExecutor(workers);
        server.createContext("/", s::handle);
        server.start();
        return s;
    }

    public int port() { return server.getAddress().getPort(); }

    public URI uri() { return URI.create("http://" + server.getAddress().getHostString() + ":" + port() + "/"); }

    @Override public void close() {
        server.stop(0);
        workers.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            boolean get = exchange.getRequestMethod().equals("GET") || exchange.getRequestMethod().equals("HEAD");
            if (!get) {
                json(exchange, 405, ProbeJson.error(null, "only GET is served"));
            } else if (path.equals("/api/probe")) {
                probe(exchange);
            } else if (PAGES.containsKey(path)) {
                String name = PAGES.get(path);
                send(exchange, 200, TYPES.get(name.substring(name.lastIndexOf('.') + 1)), assets.get(name));
            } else {
                json(exchange, 404, ProbeJson.error(null, "no such page: " + path));
            }
        } catch (RuntimeException e) {
            // a damaged table, or a bug: the client gets one line, never a stack trace
            json(exchange, 500, ProbeJson.error(null, "internal error: " + e.getMessage()));
        }
    }

    private void probe(HttpExchange exchange) throws IOException {
        String fen = query(exchange.getRequestURI().getRawQuery()).get("fen");
        if (fen == null || fen.isBlank()) {
            json(exchange, 400, ProbeJson.error(fen, "give the position as ?fen=..."));
            return;
        }
        try {
            json(exchange, 200, ProbeJson.of(fen, table.probe(fen)));
        } catch (IllegalArgumentException e) {
            json(exchange, 400, ProbeJson.error(fen, e.getMessage()));
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
        boolean head = exchange.getRequestMethod().equals("HEAD");
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
