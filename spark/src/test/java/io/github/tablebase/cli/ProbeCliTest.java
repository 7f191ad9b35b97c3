package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.tablebase.GeneratedTables;
import io.github.tablebase.KbnkTable;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Move;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe command: text and JSON answers, standard input, exit codes and one-line errors. */
class ProbeCliTest {
    private static final String WIN = "8/8/8/8/8/2k5/8/KBN5 w - - 0 1";
    private static final String LOST = "8/8/8/3k4/8/8/8/KBN5 b - - 0 1";
    private static String table;
    private static Tablebase api;

    @BeforeAll
    static void open() throws Exception {
        Path folder = KbnkTable.folder();
        table = folder.toString();
        api = Tablebase.open(folder);
    }

    private static CliRun run(String stdin, String... args) {
        return CliRun.of("probe", Probe.USAGE, stdin, () -> Probe.probe(args));
    }

    @Test
    void helpShowsTheUsageWithAnExampleAndARepeatedOptionIsRefused() {
        CliRun help = run("", "-h");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().startsWith("usage: probe") && help.out().contains("example: jobs/probe"), help.out());
        CliRun twice = run("", "--table", table, "--table", table, WIN);
        assertEquals(2, twice.exit());
        assertTrue(twice.err().startsWith("probe: --table is given twice"), twice.err());
    }

    /** A table made with DTZ: the text tells the result under the 50-move rule, its DTZ and DTZ-optimal move; the JSON has them. */
    @Test
    void aTableWithDtzToldUnderTheFiftyMoveRule() throws Exception {
        String kqkr = GeneratedTables.dtzKqkr().resolve("kqkr").toString(), fen = "8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1";
        ProbeResult expected;
        try (Tablebase t = Tablebase.open(Path.of(kqkr))) {
            expected = t.probe(fen);
        }
        CliRun text = run("", "--table", kqkr, fen);
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.out().contains("50-move rule: win, DTZ " + expected.dtz() + " (plies to a capture, pawn move or mate); DTZ-optimal move ")
                && text.out().contains("(" + expected.dtzBestMove().uci() + ")"), text.out());
        CliRun json = run("", "--table", kqkr, "--json", fen);
        assertTrue(json.out().contains("\"dtz\":" + expected.dtz()) && json.out().contains("\"dtz_best_move\":\"" + expected.dtzBestMove().uci() + "\""), json.out());
        CliRun plain = run("", "--table", table, WIN); // KBNK made without DTZ: no such line
        assertTrue(!plain.out().contains("50-move rule") && plain.out().contains("mates in"), plain.out());
    }

    @Test
    void aWinIsToldWithItsBestMoveAndTheWholeLineInSanAndUci() {
        ProbeResult expected = api.probe(WIN);
        CliRun r = run("", "--table", table, WIN);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("White to move: White mates in " + expected.dtm()), r.out());
        assertTrue(r.out().contains("best move: ") && r.out().contains("(" + expected.bestMove().uci() + ")"), r.out());
        String blackWins = "8/8/8/8/8/2K5/8/kbn5 b - - 0 1"; // KBNK with the colours swapped: the winner's move, not a defence
        CliRun black = run("", "--table", table, blackWins);
        assertEquals(0, black.exit(), black.err());
        assertTrue(black.out().contains("Black to move: Black mates in " + api.probe(blackWins).dtm()) && black.out().contains("best move: "), black.out());
        assertTrue(r.out().contains(String.join(" ", expected.mainline().stream().map(Move::uci).toList())), r.out());
        assertTrue(r.out().contains(expected.mainline().size() + " plies to checkmate"), r.out());
        assertTrue(r.out().contains("#"), "the SAN line ends in mate: " + r.out());
    }

    @Test
    void blackToMoveListsEveryReplyBestDefenceFirstAndAnUnquotedFenWorks() {
        ProbeResult expected = api.probe(LOST);
        CliRun r = run("", ("--table " + table + " " + LOST).split(" "));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Black to move: Black is lost in " + expected.dtm()), r.out());
        assertTrue(r.out().contains("best defence: "), r.out());
        List<String> replies = r.out().lines().dropWhile(l -> !l.contains("Black's moves")).skip(1).toList();
        assertEquals(expected.moves().size(), replies.size(), r.out());
        for (int i = 0; i < replies.size(); i++)
            assertTrue(replies.get(i).contains(expected.moves().get(i).move().uci()), replies.get(i));
    }

    @Test
    void jsonCarriesTheLichessStyleFields() throws Exception {
        CliRun r = run("", "--table", table, "--json", WIN);
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().lines().count());
        JsonNode j = new ObjectMapper().readTree(r.out());
        ProbeResult expected = api.probe(WIN);
        assertEquals(WIN, j.get("fen").asText());
        assertEquals("win", j.get("category").asText());
        assertEquals(expected.dtm().intValue(), j.get("dtm").asInt());
        assertEquals(expected.bestMove().uci(), j.get("best_move").asText());
        assertEquals(2 * expected.dtm() - 1, j.get("mainline").size());
        assertEquals(Fen.parse(WIN).legalMoves().size(), j.get("moves").size());
        JsonNode first = j.get("moves").get(0);
        assertEquals(expected.bestMove().uci(), first.get("uci").asText());
        assertEquals("loss", first.get("category").asText());
        assertEquals(expected.dtm() - 1, first.get("dtm").asInt());
        assertTrue(first.get("san").asText().matches("[KBN][a-h][1-8][+#]?"), first.toString());
    }

    @Test
    void standardInputIsAnsweredLineByLineErrorsInPlace() throws Exception {
        CliRun r = run(WIN + "\nnot a fen\n\n8/8/8/8/8/8/1k6/KBN5 w - - 0 1\n" + LOST + "\n", "--table", table, "--json");
        assertEquals(0, r.exit(), r.err());
        List<JsonNode> lines = r.out().lines().map(l -> {
            try {
                return new ObjectMapper().readTree(l);
            } catch (Exception e) {
                throw new AssertionError(l, e);
            }
        }).toList();
        assertEquals(4, lines.size(), r.out());
        assertEquals("win", lines.get(0).get("category").asText());
        assertEquals("not a fen", lines.get(1).get("fen").asText());
        assertTrue(lines.get(1).get("error").asText().contains("8 ranks"), lines.get(1).toString());
        assertTrue(lines.get(2).get("error").asText().contains("the kings touch"), lines.get(2).toString());
        assertEquals("loss", lines.get(3).get("category").asText());
        CliRun text = run(WIN + "\nxx\n", "--table", table);
        assertTrue(text.out().contains("error: a FEN has 2 to 6 fields"), text.out());
    }

    @Test
    void aDamagedEntryInABatchIsOneErrorLineTheOtherLinesAreAnsweredAndTheRunFails(@TempDir Path dir) throws Exception {
        String stalemate = "k7/2K5/8/1N6/8/8/8/1B6 b - - 0 1";
        // a block damaged that the win reads and the stalemate does not (whichever side the table stores)
        String damaged = null;
        for (int j = 0; j < KbnkTable.blocks() && damaged == null; j++) {
            int block = j;
            Path copy = KbnkTable.damagedCopy(dir.resolve("block" + j), b -> b == block);
            try (Tablebase tables = Tablebase.open(copy)) {
                tables.probeDtm(Fen.parse(stalemate));
                tables.probeDtm(Fen.parse(WIN));
            } catch (io.github.tablebase.probe.CorruptTableException e) {
                if (e.getMessage().contains("block " + block + " ")) damaged = copy.toString();
            }
        }
        assertTrue(damaged != null, "a block the win reads and the stalemate does not");
        CliRun r = run(WIN + "\n" + stalemate + "\n", "--table", damaged);
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains(WIN + "\n  error: "), r.out());
        assertTrue(r.out().contains("Black to move: draw (stalemate)"), r.out());
        assertEquals("", r.err());
        CliRun json = run(WIN + "\n", "--table", damaged, "--json");
        assertEquals(1, json.exit());
        String error = new ObjectMapper().readTree(json.out()).get("error").asText();
        assertTrue(error.contains("kbnk.cdtm: block ") && (error.contains("CRC-32") || error.contains("does not decompress")), json.out());
    }

    @Test
    void aFolderOfTablesIsOpenedWithTables() throws Exception {
        CliRun r = run("", "--tables", KbnkTable.folder().getParent().toString(), WIN);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("White to move: White mates in " + api.probe(WIN).dtm()), r.out());
        CliRun both = run("", "--table", table, "--tables", table, WIN);
        assertEquals(2, both.exit());
    }

    @Test
    void aBadSingleFenOrTableExitsNonZeroWithOneLine(@TempDir Path empty) throws Exception {
        CliRun illegal = run("", "--table", table, "8/8/8/8/8/8/1k6/KBN5 w - - 0 1");
        assertEquals(1, illegal.exit());
        assertEquals("probe: error: illegal position: the kings touch", illegal.err().strip());
        CliRun json = run("", "--table", table, "--json", "8/8/8/8/8/8/8/KQ4k1 w - - 0 1");
        assertEquals(1, json.exit());
        assertTrue(new ObjectMapper().readTree(json.out()).get("error").asText().contains("KQK"), json.out());
        CliRun noTable = run("", "--table", empty.toString(), WIN);
        assertEquals(1, noTable.exit());
        assertEquals(1, noTable.err().lines().count(), noTable.err());
        assertTrue(noTable.err().contains("holds no table"), noTable.err());
        assertEquals(2, run("", WIN).exit()); // --table missing
    }
}
