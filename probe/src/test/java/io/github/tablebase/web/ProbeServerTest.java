package io.github.tablebase.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import io.github.tablebase.probe.CarriedTables;
import io.github.tablebase.probe.Json;
import io.github.tablebase.probe.ProbeJson;
import io.github.tablebase.probe.Tablebase;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /api/probe and the page's assets over real HTTP on loopback, on the module's own tables ({@link CarriedTables}). */
class ProbeServerTest {
    private static final Material KPK = Material.parse("KPK");
    private static Tablebase table;
    private static ProbeServer server;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        table = Tablebase.open(CarriedTables.folder());
        server = ProbeServer.start(table, "127.0.0.1", 0, 4);
    }

    @AfterAll
    static void stop() { server.close(); }

    private static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(server.uri().resolve(pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> probe(String fen) throws Exception {
        return get("api/probe?fen=" + URLEncoder.encode(fen, StandardCharsets.UTF_8));
    }

    @Test
    void aLegalPositionAnswersTheSameJsonAsProbeJson() throws Exception {
        Random random = new Random(8);
        for (int i = 0; i < 200; i++) {
            Position p = Position.randomLegal(KPK, i % 2 == 0 ? Color.WHITE : Color.BLACK, random);
            HttpResponse<String> r = probe(p.toString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("application/json; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
            assertEquals(ProbeJson.text(ProbeJson.of(p.toString(), table.probe(p))), r.body());
        }
        java.util.Map<String, Object> j = Json.parseObject(probe(blackLost().toString()).body());
        assertEquals("loss", j.get("category"));
        assertEquals(2 * ((Number) j.get("dtm")).intValue(), ((List<?>) j.get("mainline")).size());
        assertEquals(((List<?>) j.get("mainline")).size(), ((List<?>) j.get("mainline_san")).size());
    }

    @Test
    void theLichessApisShapeAnswersEachPositionAndMoveAsTheProbeDoes() throws Exception {
        Random random = new Random(13);
        int[] clocks = {0, 60, 99, 100};
        List<Position> positions = new ArrayList<>();
        for (String m : List.of("KPK", "KBK", "KQK")) for (int i = 0; i < 40; i++) positions.add(Position.randomLegal(Material.parse(m), Color.values()[i % 2], random));
        positions.add(Tablebase.position("8/8/8/8/8/8/6Q1/5K1k b - - 0 1")); // checkmated
        positions.add(Tablebase.position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")); // stalemate
        for (int k = 0; k < positions.size(); k++) {
            Position p = positions.get(k);
            int clock = clocks[k % clocks.length];
            String fen = Fen.of(p).replace(" 0 1", " " + clock + " 1").replace(' ', '_');
            HttpResponse<String> r = get("standard?fen=" + fen);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("*", r.headers().firstValue("Access-Control-Allow-Origin").orElse(""), "any page may ask");
            java.util.Map<String, Object> j = Json.parseObject(r.body());
            assertPosition(p, clock, j, fen);
            List<?> moves = (List<?>) j.get("moves");
            assertEquals(p.legalMoves().size(), moves.size(), fen);
            int best = Integer.MIN_VALUE, bestCategory = -1;
            for (Object o : moves) {
                java.util.Map<?, ?> move = (java.util.Map<?, ?>) o;
                io.github.tablebase.chess.Move played = p.legalMoves().stream().filter(x -> x.uci().equals(move.get("uci"))).findFirst().orElseThrow();
                Position after = p.play(played);
                boolean pawn = p.piece(played.piece()).type() == io.github.tablebase.chess.PieceType.PAWN;
                assertEquals(pawn || played.isCapture(), move.get("zeroing"), move::toString);
                assertEquals(played.isCapture() || played.promotion() != null, move.get("conversion"), move::toString);
                @SuppressWarnings("unchecked") java.util.Map<String, Object> fields = (java.util.Map<String, Object>) move;
                assertPosition(after, pawn || played.isCapture() ? 0 : clock + 1, fields, fen + " " + played.uci());
                // lila-tablebase's order: by the category under the rule (the clock after the move), then by DTM
                int value = Boolean.TRUE.equals(move.get("checkmate")) ? 2000 : preference(((Number) move.get("dtm")).intValue());
                int category = CATEGORIES.indexOf((String) move.get("category"));
                assertTrue(category > bestCategory || category == bestCategory && value <= best, () -> fen + ": the moves are not best first: " + moves);
                best = value;
                bestCategory = category;
            }
            int plies = table.probeWdl(p) == 0 ? 0 : table.probeDtmPlies(p).getAsInt(); // the best move leads a ply nearer the mate
            if (!moves.isEmpty() && clock == 0) assertEquals(plies > 0 ? -(plies - 1) : plies < 0 ? -plies - 1 : 0, ((Number) ((java.util.Map<?, ?>) moves.get(0)).get("dtm")).intValue(), fen);
        }
    }

    /** lila-tablebase's categories of the position after a move, the best for the mover first. */
    private static final List<String> CATEGORIES = List.of("loss", "unknown", "maybe-loss", "blessed-loss", "draw", "cursed-win", "maybe-win", "win");

    /** How good a move is for the mover, by the signed plies of the position it leads to (the opponent's view; 0 a draw): higher is better. */
    private static int preference(int opponentsPlies) {
        if (opponentsPlies == 0) return 0;
        return opponentsPlies < 0 ? 1000 + opponentsPlies : -1000 + opponentsPlies; // mate soonest, else lose slowest
    }

    /** The Lichess fields of a position, each computed here: signed DTM in plies, the category under the 50-move rule. */
    private static void assertPosition(Position p, int clock, java.util.Map<String, Object> j, String where) {
        int plies = p.material().size() == 2 ? 0 : table.probeDtmPlies(p).orElse(0);
        boolean drawn = p.material().size() == 2 || table.probeWdl(p) == 0, mated = p.isCheckmate();
        assertEquals(plies, ((Number) j.get("dtm")).intValue(), where);
        // these tables were made without DTZ: unknown, but for bare kings, a draw whose DTZ is 0
        for (String field : List.of("dtz", "precise_dtz"))
            assertTrue(j.containsKey(field) && (p.material().size() == 2 ? j.get(field) instanceof Number n && n.intValue() == 0 : j.get(field) == null), where + ": " + j);
        assertEquals(mated, j.get("checkmate"), where);
        assertEquals(p.isStalemate(), j.get("stalemate"), where);
        assertEquals(false, j.get("variant_win"));
        assertEquals(false, j.get("variant_loss"));
        boolean bare = p.material().name().equals("KK") || p.material().name().equals("KBK") || p.material().name().equals("KNK");
        assertEquals(bare, j.get("insufficient_material"), where);
        String win = plies > 0 ? "win" : "loss";
        String expected = drawn ? "draw" : mated ? "loss" : clock >= 100 ? (plies > 0 ? "cursed-win" : "blessed-loss")
                : Math.abs(plies) + clock <= 100 ? win : "maybe-" + win;
        assertEquals(expected, j.get("category"), where);
    }

    @Test
    void theLichessMainlineIsTheLineToMateAndNamesTheWinner() throws Exception {
        Position lost = blackLost();
        java.util.Map<String, Object> j = Json.parseObject(get("standard/mainline?fen=" + Fen.of(lost).replace(' ', '_')).body());
        assertEquals("w", j.get("winner"));
        List<?> line = (List<?>) j.get("mainline");
        assertEquals(-table.probeDtmPlies(lost).getAsInt(), line.size());
        Position p = lost;
        for (Object o : line) {
            java.util.Map<?, ?> step = (java.util.Map<?, ?>) o;
            Position before = p;
            p = p.play(p.legalMoves().stream().filter(m -> m.uci().equals(step.get("uci"))).findFirst().orElseThrow());
            assertEquals(table.probeDtmPlies(p).getAsInt(), ((Number) step.get("dtm")).intValue(), before + " " + step);
            assertTrue(step.containsKey("dtz") && step.get("dtz") == null);
        }
        assertTrue(p.isCheckmate(), p::toString);
        java.util.Map<String, Object> drawn = Json.parseObject(get("standard/mainline?fen=8/8/8/8/8/8/8/KBk5_w_-_-_0_1").body());
        assertEquals(List.of(), drawn.get("mainline"));
        assertTrue(drawn.containsKey("winner") && drawn.get("winner") == null);
        assertEquals(400, get("standard?fen=8/8/8_w").statusCode());
        assertEquals(404, get("standard?fen=8/8/8/8/8/8/r7/KQ4k1_w_-_-_0_1").statusCode());
    }

    /** A KPK position with Black to move, lost and not yet mated. */
    private static Position blackLost() {
        Random random = new Random(5);
        while (true) {
            Position p = Position.randomLegal(KPK, Color.BLACK, random);
            if (table.probeDtm(p) < 0) return p;
        }
    }

    @Test
    void badInputIsA400WithAJsonErrorAndNoStackTrace() throws Exception {
        for (String fen : new String[] {"bad", "8/8/8/8/8/8/1k6/KP6 w - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1"}) {
            HttpResponse<String> r = probe(fen);
            assertEquals(400, r.statusCode(), fen);
            java.util.Map<String, Object> j = Json.parseObject(r.body());
            assertEquals(fen, j.get("fen"));
            assertFalse(((String) j.get("error")).isBlank());
            assertFalse(r.body().contains("Exception") || r.body().contains("\tat "), r.body());
        }
        HttpResponse<String> missing = probe("8/8/8/8/8/8/r7/KQ4k1 w - - 0 1");
        assertEquals(404, missing.statusCode());
        assertTrue(((String) Json.parseObject(missing.body()).get("error")).contains("no KQKR table"), missing.body());
        assertEquals(400, get("api/probe").statusCode());
        assertTrue(rawStatusLine("/api/probe?fen=%ZZ").contains(" 400 "), "a broken %-escape");
        assertEquals(404, get("nope").statusCode());
        HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(server.uri().resolve("api/probe?fen=x"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals(List.of("GET, HEAD"), post.headers().allValues("Allow"), "a 405 names the methods served");
        // HEAD: GET's status and length, no body
        String win = "api/probe?fen=" + URLEncoder.encode(blackLost().toString(), StandardCharsets.UTF_8);
        HttpResponse<String> full = get(win), head = HTTP.send(HttpRequest.newBuilder(server.uri().resolve(win))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertEquals(full.body().getBytes(StandardCharsets.UTF_8).length, head.headers().firstValueAsLong("Content-Length").orElse(-1));
        // a body larger than the API reads is refused once that much is read, and the server goes on (a body within the
        // 64 KB the JDK's server drains before it closes: a larger one is cut off, and the client may see the reset first)
        byte[] huge = new byte[ProbeServer.MAX_BODY * 2 + 3];
        HttpResponse<String> big = HTTP.send(HttpRequest.newBuilder(server.uri().resolve("api/probe?fen=x"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(huge)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(413, big.statusCode(), big.body());
        assertEquals(200, get(win).statusCode());
    }

    /** The status line for a request written by hand (java.net.http refuses to send a malformed URI). */
    private static String rawStatusLine(String target) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }

    @Test
    void thePageAndItsAssetsAreServedLocally() throws Exception {
        HttpResponse<String> page = get("");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<script src=\"app.js\">"), page.body());
        assertFalse(page.body().contains("http://") || page.body().contains("https://"), "no asset from a CDN");
        assertEquals(200, get("app.js").statusCode());
        assertTrue(get("app.js").headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        assertEquals(200, get("style.css").statusCode());
    }

    @Test
    void manyConcurrentClientsGetTheirOwnAnswers() throws Exception {
        Random random = new Random(9);
        List<Position> positions = new ArrayList<>();
        for (int i = 0; i < 400; i++) positions.add(Position.randomLegal(KPK, Color.WHITE, random));
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (Position p : positions)
            answers.add(HTTP.sendAsync(HttpRequest.newBuilder(server.uri().resolve("api/probe?fen="
                    + URLEncoder.encode(p.toString(), StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString()));
        for (int i = 0; i < positions.size(); i++) {
            java.util.Map<String, Object> j = Json.parseObject(answers.get(i).get().body());
            assertEquals(positions.get(i).toString(), j.get("fen"));
            Integer dtm = table.probe(positions.get(i)).dtm();
            assertEquals(dtm == null ? "null" : dtm.toString(), String.valueOf(j.get("dtm")));
        }
    }

    @Test
    void aDamagedTableIsA503WithOneJsonLine(@TempDir Path dir) throws Exception {
        try (Tablebase damaged = Tablebase.open(CarriedTables.withDamagedKpk(dir));
             ProbeServer broken = ProbeServer.start(damaged, "127.0.0.1", 0, 1)) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(broken.uri().resolve("api/probe?fen="
                    + URLEncoder.encode("8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(((String) Json.parseObject(r.body()).get("error")).startsWith("damaged table: "), r.body());
            assertEquals(1, r.body().lines().count(), r.body());
        }
    }

    @Test
    void aServerThatFailsToStartLeavesItsPortFree() throws Exception {
        int port;
        try (ProbeServer probe = ProbeServer.start(table, "127.0.0.1", 0, 1)) {
            port = probe.port();
        }
        assertThrows(IllegalArgumentException.class, () -> startOnceFree(port, 0)); // no worker threads: refused
        try (ProbeServer again = startOnceFree(port, 1)) {
            assertEquals(port, again.port());
        }
    }

    /** Starts on {@code port}, waiting up to 5 s for a closed server's socket to be released by its selector thread. */
    private static ProbeServer startOnceFree(int port, int threads) throws Exception {
        long end = System.nanoTime() + 5_000_000_000L;
        while (true) {
            try {
                return ProbeServer.start(table, "127.0.0.1", port, threads);
            } catch (java.net.BindException e) {
                if (System.nanoTime() > end) throw e;
                Thread.sleep(50);
            }
        }
    }

    @Test
    void theTablesServedAreListed() throws Exception {
        HttpResponse<String> r = get("api/tables");
        assertEquals(200, r.statusCode());
        List<String> served = new ArrayList<>();
        for (Object listed : (List<?>) Json.parseObject(r.body()).get("tables")) {
            java.util.Map<?, ?> t = (java.util.Map<?, ?>) listed;
            served.add((String) t.get("endgame"));
            Position example = Fen.parse((String) t.get("example"));
            assertEquals(t.get("endgame"), example.material().name());
            assertEquals(t.get("example_wins"), table.probeWdl(example) == 1, example::toString);
            if (example.material().name().equals("KPK")) assertEquals(1, table.probeWdl(example), "a White win to start from");
        }
        assertEquals(table.answered().stream().map(Object::toString).toList(), served);
        assertTrue(served.contains("KPK"), served.toString());
    }

    @Test
    void anOccupiedPortIsAClearError() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(java.net.BindException.class,
                () -> ProbeServer.start(table, "127.0.0.1", server.port(), 1));
        assertTrue(e.getMessage().contains("choose another --port"), e.getMessage());
    }
}
