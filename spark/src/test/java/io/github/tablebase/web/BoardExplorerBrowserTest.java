package io.github.tablebase.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.KbnkTable;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.Square;
import io.github.tablebase.probe.ProbeResult;
import io.github.tablebase.probe.Tablebase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The board explorer in real headless Chromium (Debian's chromium and chromedriver, which .ci/run
 * installs), serving a folder of tables: load, drag a piece, see the DTM follow the API, play the mating line to
 * checkmate, set up KQKR from the palette and step through its line into KQK, explain an illegal position and a
 * material not served, flip, and save screenshots under target/e2e/.
 */
class BoardExplorerBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium"), DRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "e2e");
    private static Tablebase table;
    private static ProbeServer server;
    private static ChromeDriver browser;
    private static WebDriverWait wait;
    private static Path profile;

    @BeforeAll
    static void start() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "this test needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; .ci/run does)");
        KbnkTable.folder();
        GeneratedTables.folder("KQKR");
        GeneratedTables.folder("KPKP");
        table = Tablebase.open(GeneratedTables.root()); // a folder of tables: KBNK, KQKR, KPKP and their smaller tables
        server = ProbeServer.start(table, "127.0.0.1", 0, 4);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--user-data-dir=" + (profile = Files.createTempDirectory("chromium-profile")));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
        browser = new ChromeDriver(service, options);
        // the page re-renders the board and the line on every answer: an element read mid-render is stale, read again
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.ignoring(StaleElementReferenceException.class);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (server != null) server.close();
        if (profile != null) org.apache.commons.io.FileUtils.deleteQuietly(profile.toFile());
    }

    private static WebElement result() { return browser.findElement(By.id("result")); }

    /** Waits until the result box shows the answer for the position the board holds now. */
    private static void settled() {
        wait.until(d -> {
            WebElement r = result();
            String fen = d.findElement(By.id("fen")).getDomProperty("value");
            return fen.equals(r.getDomAttribute("data-fen")) && !r.getDomAttribute("data-category").isEmpty();
        });
    }

    private static String dtmShown() { return result().getDomAttribute("data-dtm"); }

    private static String fenShown() { return browser.findElement(By.id("fen")).getDomProperty("value"); }

    private static void screenshot(String name) throws Exception {
        Files.write(SCREENSHOTS.resolve(name), browser.getScreenshotAs(OutputType.BYTES));
    }

    private static String expectedDtm(String fen) {
        Integer dtm = table.probe(fen).dtm();
        return dtm == null ? "" : dtm.toString();
    }

    @Test
    void dragAPieceThenPlayTheMatingLineToCheckmate() throws Exception {
        String example = ProbeServer.example(table, Material.parse("KBNK")).toString();
        browser.get(server.uri() + "?fen=" + java.net.URLEncoder.encode(example, java.nio.charset.StandardCharsets.UTF_8));
        settled();
        String start = fenShown();
        assertEquals(expectedDtm(start), dtmShown());
        assertEquals("win", result().getDomAttribute("data-category"));

        // drag the Black king to a square where the distance to mate differs
        Position before = Fen.parse(start);
        String target = null;
        for (int sq = 63; sq >= 0 && target == null; sq--) {
            int[] squares = before.squares();
            squares[3] = sq; // the Black king: the last piece of K, B, N vs k
            Position candidate = new Position(before.material(), squares, before.sideToMove());
            if (candidate.isLegal() && !String.valueOf(table.probe(candidate).dtm()).equals(dtmShown()))
                target = Square.name(sq);
        }
        assertTrue(target != null, "no square changes the DTM");
        String from = Square.name(before.square(3));
        WebElement king = browser.findElement(By.cssSelector(".piece[data-square='" + from + "']"));
        WebElement square = browser.findElement(By.cssSelector(".square[data-square='" + target + "']"));
        new Actions(browser).clickAndHold(king).moveToElement(square).release().perform();
        wait.until(d -> !fenShown().equals(start));
        settled();
        String dragged = fenShown();
        assertEquals(Fen.parse(dragged).square(3), Square.parse(target), dragged);
        assertEquals(expectedDtm(dragged), dtmShown());
        assertNotEquals(expectedDtm(start), dtmShown());
        screenshot("after-drag.png");

        // step through the whole line: every ply lowers White's remaining moves as the table says, and it ends in mate
        ProbeResult line = table.probe(dragged);
        WebElement next = browser.findElement(By.id("line-next"));
        int plies = 0;
        while (next.isEnabled()) {
            next.click();
            plies++;
            int ply = plies;
            wait.until(d -> d.findElements(By.cssSelector("#mainline .ply.current")).size() == 1
                    && d.findElement(By.cssSelector("#mainline .ply.current")).getDomAttribute("title").equals(line.mainline().get(ply - 1).uci()));
            settled();
            assertEquals(expectedDtm(fenShown()), dtmShown(), fenShown());
        }
        assertEquals(2 * line.dtm() - 1, plies);
        assertTrue(Fen.parse(fenShown()).isCheckmate(), fenShown());
        assertEquals("0", dtmShown());
        assertTrue(result().getText().contains("Checkmate"), result().getText());
        screenshot("checkmate.png");

        // back to the start of the line, then play the best move from there
        browser.findElement(By.id("line-start")).click();
        wait.until(d -> fenShown().equals(dragged));
        settled();
        browser.findElement(By.id("play-best")).click();
        wait.until(d -> !fenShown().equals(dragged));
        settled();
        assertEquals(Fen.parse(dragged).play(line.bestMove()), Fen.parse(fenShown()));
    }

    /** Arms the palette's tool (a click on an armed tool disarms it) and clicks the square. */
    private static void place(String piece, String square) {
        WebElement tool = browser.findElement(By.cssSelector("#palette [data-tool='" + piece + "']"));
        if (!tool.getDomAttribute("class").contains("armed")) tool.click();
        browser.findElement(By.cssSelector(".square[data-square='" + square + "']")).click();
    }

    private static String materialShown() { return browser.findElement(By.id("material")).getText(); }

    @Test
    void setUpKqkrFromThePaletteAndStepThroughTheLineThatTakesTheRook() throws Exception {
        // a White win of 5 to 12 moves whose line takes the rook, found by the API under test
        Material kqkr = Material.parse("KQKR");
        Random random = new Random(4);
        Position start = null;
        ProbeResult line = null;
        while (start == null) {
            Position p = Position.randomLegal(kqkr, Color.WHITE, random);
            ProbeResult r = table.probe(p);
            if (r.category() == ProbeResult.Category.WIN && r.dtm() >= 5 && r.dtm() <= 12 && r.mainline().stream().anyMatch(Move::isCapture)) {
                start = p;
                line = r;
            }
        }
        browser.get(server.uri().toString());
        settled();
        browser.findElement(By.id("clear")).click();
        wait.until(d -> result().getText().contains("one king of each colour"));
        String[] letters = {"K", "Q", "k", "r"};
        for (int i = 0; i < 4; i++) {
            if (i == 1) { // the queen dragged from the palette, the others placed by clicks
                WebElement queen = browser.findElement(By.cssSelector("#palette [data-tool='Q'] .piece"));
                WebElement square = browser.findElement(By.cssSelector(".square[data-square='" + Square.name(start.square(1)) + "']"));
                new Actions(browser).clickAndHold(queen).moveByOffset(10, 10).moveToElement(square).release().perform();
            } else {
                place(letters[i], Square.name(start.square(i)));
            }
        }
        Position setUp = start;
        wait.until(d -> fenShown().equals(setUp.toString()));
        settled();
        assertEquals("Material: KQKR", materialShown());
        assertEquals("White mates in " + line.dtm(), result().getText());
        screenshot("kqkr-setup.png");

        // a second Black rook: no such table here, said plainly; the eraser takes it away again
        String empty = null;
        for (int sq = 0; sq < 64 && empty == null; sq++) if (start.pieceAt(sq) < 0) empty = Square.name(sq);
        place("r", empty);
        wait.until(d -> "missing".equals(result().getDomAttribute("data-category")));
        assertTrue(result().getText().startsWith("No KQKRR table here"), result().getText());
        place("erase", empty);
        wait.until(d -> fenShown().equals(setUp.toString()));
        settled();
        browser.findElement(By.id("eraser")).click(); // disarm: back to dragging

        WebElement next = browser.findElement(By.id("line-next"));
        int plies = 0;
        boolean tookTheRook = false;
        while (next.isEnabled()) {
            next.click();
            int ply = ++plies;
            ProbeResult along = line;
            wait.until(d -> d.findElements(By.cssSelector("#mainline .ply.current")).size() == 1
                    && d.findElement(By.cssSelector("#mainline .ply.current")).getDomAttribute("title").equals(along.mainline().get(ply - 1).uci()));
            settled();
            assertEquals(expectedDtm(fenShown()), dtmShown(), fenShown());
            tookTheRook |= materialShown().equals("Material: KQK");
        }
        assertEquals(2 * line.dtm() - 1, plies);
        assertTrue(tookTheRook, "the line never reached KQK");
        assertEquals("Material: KQK", materialShown());
        assertTrue(Fen.parse(fenShown()).isCheckmate(), fenShown());
        assertTrue(result().getText().contains("Checkmate: Black is mated"), result().getText());
        screenshot("kqkr-mate.png");
    }

    @Test
    void anIllegalPositionIsExplainedAndTheBoardFlips() throws Exception {
        browser.get(server.uri().toString());
        settled();
        WebElement fen = browser.findElement(By.id("fen"));
        fen.clear();
        fen.sendKeys("8/8/8/8/8/8/1k6/KBN5 w - - 0 1");
        browser.findElement(By.id("load")).click();
        wait.until(d -> result().getDomAttribute("data-category").equals("illegal"));
        assertTrue(result().getText().contains("the kings touch"), result().getText());
        screenshot("illegal.png");

        String firstSquare = browser.findElement(By.cssSelector("#board .square")).getDomAttribute("data-square");
        browser.findElement(By.id("flip")).click();
        String flipped = browser.findElement(By.cssSelector("#board .square")).getDomAttribute("data-square");
        assertEquals("a8", firstSquare);
        assertEquals("h1", flipped);

        browser.findElement(By.id("side")).click(); // the kings still touch with Black to move
        wait.until(d -> fenShown().contains(" b "));
        settled();
        assertEquals("illegal", result().getDomAttribute("data-category"));
    }

    @Test
    void aDamagedTableIsShownAsSuchAndTheOthersAnswer(@org.junit.jupiter.api.io.TempDir Path set) throws Exception {
        for (String name : java.util.List.of("kqkr", "kqk", "krk")) {
            Path from = GeneratedTables.root().resolve(name), to = Files.createDirectories(set.resolve(name));
            try (java.util.stream.Stream<Path> files = Files.list(from)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        Path cdtm = set.resolve("kqkr").resolve("kqkr.cdtm");
        Files.write(cdtm, java.util.Arrays.copyOf(Files.readAllBytes(cdtm), 1000));
        try (Tablebase damaged = Tablebase.open(set); ProbeServer other = ProbeServer.start(damaged, "127.0.0.1", 0, 2)) {
            browser.get(other.uri() + "?fen=" + java.net.URLEncoder.encode("8/8/8/3k4/8/8/4r3/KQ6 w - - 0 1", java.nio.charset.StandardCharsets.UTF_8));
            wait.until(d -> "missing".equals(result().getDomAttribute("data-category")));
            assertTrue(result().getText().startsWith("The KQKR table cannot be read (") && result().getText().contains("kqkr.cdtm"), result().getText());
            assertTrue(browser.findElement(By.id("served")).getText().endsWith("; cannot be read: KQKR, KRKQ"),
                    browser.findElement(By.id("served")).getText());
            screenshot("damaged-table.png");
            WebElement fen = browser.findElement(By.id("fen"));
            fen.clear();
            fen.sendKeys("8/8/8/3k4/8/8/8/KQ6 w - - 0 1");
            browser.findElement(By.id("load")).click();
            settled();
            assertEquals("win", result().getDomAttribute("data-category"));
            assertEquals(String.valueOf(damaged.probe("8/8/8/3k4/8/8/8/KQ6 w - - 0 1").dtm()), dtmShown());
        }
    }

    /** A table made with DTZ: the result under the 50-move rule beside DTM's, and each move's DTZ; a table without DTZ shows none. */
    @Test
    void aTableWithDtzShowsTheFiftyMoveRule() throws Exception {
        String fen = "8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1";
        try (Tablebase withDtz = Tablebase.open(GeneratedTables.dtzKqkr()); ProbeServer other = ProbeServer.start(withDtz, "127.0.0.1", 0, 2)) {
            io.github.tablebase.probe.ProbeResult expected = withDtz.probe(fen);
            browser.get(other.uri() + "?fen=" + java.net.URLEncoder.encode(fen, java.nio.charset.StandardCharsets.UTF_8));
            settled();
            WebElement rule = browser.findElement(By.id("rule"));
            assertEquals("50-move rule: win, DTZ " + expected.dtz(), rule.getText());
            assertEquals(String.valueOf(expected.dtz()), rule.getDomAttribute("data-dtz"));
            for (io.github.tablebase.probe.ProbeResult.MoveResult m : expected.moves())
                assertEquals(String.valueOf(m.dtz()), browser.findElement(By.cssSelector("#moves li[data-uci='" + m.move().uci() + "']")).getDomAttribute("data-dtz"));
            screenshot("fifty-move-rule.png");
        }
        browser.get(server.uri() + "?fen=" + java.net.URLEncoder.encode(fen, java.nio.charset.StandardCharsets.UTF_8));
        settled();
        assertEquals("", browser.findElement(By.id("rule")).getText(), "the set served here was made without DTZ");
    }

    /** Clicks the move of the moves list with this UCI and waits for the board to show the position after it. */
    private static void playListed(String uci) {
        String before = fenShown();
        browser.findElement(By.cssSelector("#moves li[data-uci='" + uci + "']")).click();
        wait.until(d -> !fenShown().equals(before));
        settled();
    }

    @Test
    void aPawnFromThePaletteItsPromotionChosenAndAnEnPassantCapture() throws Exception {
        browser.get(server.uri().toString());
        settled();
        browser.findElement(By.id("clear")).click();
        wait.until(d -> result().getText().contains("one king of each colour"));
        place("K", "c1");
        place("k", "a2");
        place("P", "e7");
        String kpk = "8/4P3/8/8/8/8/k7/2K5 w - - 0 1";
        wait.until(d -> fenShown().equals(kpk));
        settled();
        assertEquals("Material: KPK", materialShown());
        assertEquals("White mates in " + table.probe(kpk).dtm(), result().getText());
        for (String piece : new String[] {"q", "r", "b", "n"}) // the promotion's four choices, each with its own result
            assertEquals(1, browser.findElements(By.cssSelector("#moves li[data-uci='e7e8" + piece + "']")).size(), piece);
        screenshot("kpk-promotions.png");

        // a pawn placed on the last rank is refused before asking the server
        place("P", "h8");
        wait.until(d -> result().getText().contains("cannot stand on h8"));
        place("erase", "h8");
        wait.until(d -> fenShown().equals(kpk));
        settled();
        browser.findElement(By.id("eraser")).click();

        playListed("e7e8n"); // the knight: a draw in KNK
        assertEquals("Material: KNK", materialShown());
        assertTrue(fenShown().startsWith("4N3/"), fenShown());
        assertEquals("Draw", result().getText());

        // Black's double push gives White the en-passant capture, which the board plays and the table answers
        WebElement fen = browser.findElement(By.id("fen"));
        fen.clear();
        fen.sendKeys("8/3p4/8/4P3/8/8/8/K6k b - - 0 1");
        browser.findElement(By.id("load")).click();
        wait.until(d -> fenShown().startsWith("8/3p4/"));
        settled();
        playListed("d7d5");
        assertEquals("8/8/8/3pP3/8/8/8/K6k w - d6 0 1", fenShown());
        assertEquals(expectedDtm(fenShown()), dtmShown());
        assertEquals("exd6", browser.findElement(By.cssSelector("#moves li[data-uci='e5d6'] .san")).getText());
        playListed("e5d6");
        assertEquals("Material: KPK", materialShown());
        assertEquals("8/8/3P4/8/8/8/8/K6k b - - 0 1", fenShown());
        assertEquals(expectedDtm(fenShown()), dtmShown());
        screenshot("en-passant.png");
    }
}
