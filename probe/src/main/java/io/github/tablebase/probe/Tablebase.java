package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Fen;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Move;
import io.github.tablebase.chess.PieceType;
import io.github.tablebase.chess.Position;
import io.github.tablebase.chess.San;
import io.github.tablebase.probe.ProbeResult.Category;
import io.github.tablebase.probe.ProbeResult.MoveResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Probing generated tables, no Spark needed: {@code Tablebase.open(dir)}, then {@code probeDtm(position)} or a
 * whole {@code probe(fen)}. {@code dir} is one table's folder (its manifest names the smaller tables its captures
 * lead to, which are opened too) or a folder of table folders, as {@code jobs/generate} writes them side by side.
 * A table is read from its compressed files ({@link CompressedTable}) when its manifest lists them, else from its
 * packed files ({@link IndexedTable}, memory-mapped). Thread safety: any number of threads may share an instance;
 * decompressed blocks go to one {@link BlockCache} of a bounded size, set at open.
 *
 * <p>Errors: {@link MissingTableException} for a material not opened, {@link IllegalPositionException} for a bad
 * FEN or an impossible position, {@link CorruptTableException} for a damaged file. The {@code get} variants return
 * empty instead of throwing the first two. In a folder of tables, a table that cannot be opened (a damaged, missing or
 * unreadable file) is left out and listed by {@link #refused()}; the others answer, and a probe of its material is a
 * {@link CorruptTableException} that says why.
 */
public final class Tablebase implements AutoCloseable {
    /**
     * How much {@link #open(Path, Check)} reads: the headers and sizes, or every byte of every file the manifests
     * list (packed parts, the seed file, the Parquet files) against its SHA-256.
     */
    public enum Check { HEADERS, SHA256 }

    /**
     * Which files of a table are read: the compressed ones where the manifest lists them (else the packed ones), or
     * the packed ones, 30 to 40 times larger, whose both sides to move and best moves are stored (lookups of either
     * side at memory speed, no search).
     */
    public enum Source { COMPRESSED_FIRST, PACKED }

    /** Signed DTM in moves of a ply (-1 a draw: 0): positive the side to move mates, negative it is mated. */
    private static int signedDtm(int ply) { return ply < 0 ? 0 : ply % 2 == 1 ? (ply + 1) / 2 : -(ply / 2); }

    private static int wdl(int ply) { return ply < 0 ? 0 : ply % 2 == 1 ? 1 : -1; }

    /**
     * A table of a folder of tables (or a smaller table a manifest names) that could not be opened: its folder, its
     * material when known, and why, in one line. The others answer; a probe of this material says why it cannot.
     */
    public record Refused(Path folder, Material material, String reason) {}

    /** The tables opened, then the materials answered from their colours swapped (see {@link ColoursSwappedTable}). */
    private final Map<Material, DtmTable> tables;
    /** The DTZ of the tables made with it, by their own material. */
    private final Map<Material, DtzTable> dtz;
    private final Set<Material> opened;
    private final List<Refused> refused;
    /** The refused tables by material, and their colours swapped, where no table of that material opened. */
    private final Map<Material, Refused> refusedByMaterial = new HashMap<>();
    private final BlockCache cache;
    /** The table the last lookup used: probes of one endgame skip the map (materials are single instances). */
    private DtmTable last; // racy on purpose: any table read here is a whole, final-field object
    private volatile boolean closed;

    private Tablebase(Map<Material, DtmTable> tables, Map<Material, DtzTable> dtz, List<Refused> refused, BlockCache cache) {
        this.dtz = Map.copyOf(dtz);
        this.opened = Set.copyOf(tables.keySet());
        this.tables = withColoursSwapped(tables);
        this.refused = List.copyOf(refused);
        for (Refused r : refused)
            if (r.material() != null)
                for (Material m : List.of(r.material(), r.material().coloursSwapped())) if (!this.tables.containsKey(m)) refusedByMaterial.putIfAbsent(m, r);
        this.cache = cache;
        for (DtmTable table : tables.values()) if (table instanceof CompressedTable compressed) compressed.lookUpWith(this::ply, this::table);
    }

    /** The tables, and for each material without a table of its own, the table of its colours swapped, read as such. */
    private static Map<Material, DtmTable> withColoursSwapped(Map<Material, DtmTable> opened) {
        Map<Material, DtmTable> tables = new HashMap<>(opened);
        for (DtmTable table : opened.values()) tables.putIfAbsent(table.material().coloursSwapped(), new ColoursSwappedTable(table));
        return tables;
    }

    /** Opens a table folder or a folder of them, mapping each packed file and checking its header: milliseconds. */
    public static Tablebase open(Path folder) throws IOException { return open(folder, Check.HEADERS); }

    /** How to make what a missing folder would hold: the table its name names, else one table or a set. */
    private static String generateHint(Path folder) {
        String name = folder.getFileName() == null ? "" : folder.getFileName().toString();
        try {
            return "make it with jobs/generate --endgame " + Material.parse(name.toUpperCase(java.util.Locale.ROOT)).name() + " --out " + folder;
        } catch (IllegalArgumentException e) {
            return "make a table in it with jobs/generate --endgame KQKR --out " + folder.resolve("kqkr") + ", or a set with jobs/generate --up-to 4 --out "
                    + folder;
        }
    }

    /**
     * Opens a table folder or a folder of table folders. With {@link Check#SHA256} every file the manifests describe
     * is read and compared with its SHA-256 (seconds for a large table): a mismatch is a {@link CorruptTableException}.
     */
    public static Tablebase open(Path folder, Check check) throws IOException { return open(List.of(folder), check); }

    /**
     * Opens the tables of several folders, each a table folder or a folder of them, as one tablebase (as
     * python-chess's {@code add_directory} adds folders): an endgame found in two folders is read from the first.
     */
    public static Tablebase open(List<Path> folders, Check check) throws IOException { return open(folders, check, BlockCache.defaultBytes()); }

    /**
     * {@link #open(List, Check)} with a budget for the compressed tables' decompressed blocks, in bytes: a lookup in a
     * block not held decompresses it (64 KB, 32 KB at six pieces; under a millisecond), so a budget as large as the tables probed
     * (KQQKQ: 60 MB) makes every later lookup a read from memory.
     */
    public static Tablebase open(List<Path> folders, Check check, long cacheBytes) throws IOException {
        return open(folders, check, cacheBytes, Source.COMPRESSED_FIRST);
    }

    /** {@link #open(List, Check, long)} reading the files {@code source} says. */
    public static Tablebase open(List<Path> folders, Check check, long cacheBytes, Source source) throws IOException {
        BlockCache cache = new BlockCache(cacheBytes);
        Map<Material, DtmTable> tables = new HashMap<>();
        Map<Material, DtzTable> dtz = new HashMap<>();
        Map<Path, Refused> refused = new java.util.LinkedHashMap<>();
        try {
            for (Path folder : folders) {
                if (!Files.isDirectory(folder)) throw new NoSuchFileException(folder + ": no such folder (" + generateHint(folder) + ")");
                if (Files.isRegularFile(folder.resolve(Manifest.FILE))) {
                    openTable(folder, tables, dtz, refused, check, cache, source); // the table asked for: its failure is the open's
                    continue;
                }
                boolean any = false;
                List<Path> children = new ArrayList<>();
                try (DirectoryStream<Path> listed = Files.newDirectoryStream(folder, Files::isDirectory)) {
                    listed.forEach(children::add);
                }
                children.sort(Comparator.naturalOrder()); // refusals reported in the same order on every machine
                for (Path child : children)
                    if (Files.isRegularFile(child.resolve(Manifest.FILE))) {
                        openOrRefuse(child, tables, dtz, refused, check, cache, source);
                        any = true;
                    }
                if (!any) throw new MissingTableException(folder + " holds no table: neither it nor a folder in it has a " + Manifest.FILE);
            }
            if (tables.isEmpty() && !refused.isEmpty()) {
                Refused first = refused.values().iterator().next();
                throw new CorruptTableException("no table could be opened: " + first.folder() + ": " + first.reason()
                        + (refused.size() > 1 ? " (and " + (refused.size() - 1) + " more)" : ""));
            }
            if (tables.isEmpty()) throw new MissingTableException("no folder given to open");
        } catch (IOException | RuntimeException e) {
            for (DtmTable table : tables.values()) table.close();
            for (DtzTable table : dtz.values()) table.close();
            throw e;
        }
        return new Tablebase(tables, dtz, List.copyOf(refused.values()), cache);
    }

    /** {@link #openTable}, a failure kept as a {@link Refused} table instead of failing the open. */
    private static void openOrRefuse(Path folder, Map<Material, DtmTable> tables, Map<Material, DtzTable> dtz, Map<Path, Refused> refused,
                                     Check check, BlockCache cache, Source source) {
        Path key = folder.toAbsolutePath().normalize();
        if (refused.containsKey(key)) return;
        try {
            openTable(folder, tables, dtz, refused, check, cache, source);
        } catch (IOException | RuntimeException e) {
            refused.put(key, new Refused(folder, materialOf(folder), reason(e)));
        }
    }

    /** The material a table folder's manifest names, else its folder's name, else null: what a refused table is known by. */
    private static Material materialOf(Path folder) {
        try {
            return Manifest.read(folder.resolve(Manifest.FILE)).material();
        } catch (IOException | RuntimeException e) {
            String name = folder.getFileName() == null ? "" : folder.getFileName().toString();
            try {
                return Material.parse(name.toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException notOne) {
                return null;
            }
        }
    }

    /** Why a table could not be opened, in one line. */
    private static String reason(Exception e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof NoSuchFileException) m = m + ": no such file";
        else if (e instanceof java.nio.file.AccessDeniedException) m = m + ": permission denied";
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /**
     * Opens the table of a folder (and its DTZ, where it was made with it), then those of its manifest's sub-tables that
     * exist (a missing one is reported when a probe needs it; a damaged one is refused).
     */
    private static void openTable(Path folder, Map<Material, DtmTable> tables, Map<Material, DtzTable> dtz, Map<Path, Refused> refused,
                                  Check check, BlockCache cache, Source source) throws IOException {
        Manifest manifest = Manifest.read(folder.resolve(Manifest.FILE));
        List<Manifest.FileEntry> packed = manifest.packedFiles(), compressed = manifest.compressedFiles();
        if (packed == null && compressed == null)
            throw new CorruptTableException(folder.resolve(Manifest.FILE) + " names no table files (a table of an older format is generated again)");
        Material material = manifest.material();
        if (tables.containsKey(material)) return;
        boolean readCompressed = compressed != null && (source == Source.COMPRESSED_FIRST || packed == null);
        if (!readCompressed && packed == null)
            throw new CorruptTableException(folder.resolve(Manifest.FILE) + " names no packed files to read");
        List<Path> files = new ArrayList<>();
        for (Manifest.FileEntry part : readCompressed ? compressed : packed) files.add(folder.resolve(part.name()));
        DtmTable table = readCompressed ? CompressedTable.open(files, cache) : IndexedTable.open(files);
        DtzTable dtzTable = null;
        try {
            Manifest.DtzFigures dtzFiles = manifest.dtz();
            if (dtzFiles != null) {
                dtzTable = DtzTable.open(folder, dtzFiles, cache, source == Source.PACKED);
                if (!dtzTable.material().equals(material))
                    throw new CorruptTableException(folder + "'s DTZ file holds " + dtzTable.material() + ", its manifest says " + material);
                if (check == Check.SHA256)
                    for (List<Manifest.FileEntry> listed : java.util.Arrays.asList(dtzFiles.files(), dtzFiles.compressedFiles()))
                        if (listed != null) for (Manifest.FileEntry part : listed) verify(folder.resolve(part.name()), part);
            }
            if (!table.material().equals(material))
                throw new CorruptTableException(folder + " holds " + table.material() + ", its manifest says " + material);
            if (check == Check.SHA256) {
                for (List<Manifest.FileEntry> listed : java.util.Arrays.asList(packed, compressed))
                    if (listed != null) for (Manifest.FileEntry part : listed) verify(folder.resolve(part.name()), part);
                if (manifest.seedFile() != null) verify(folder.resolve(manifest.seedFile().name()), manifest.seedFile());
                if (manifest.parquetFiles() != null)
                    for (Manifest.FileEntry file : manifest.parquet().files()) verify(folder.resolve(manifest.parquet().path()).resolve(file.name()), file);
            }
        } catch (IOException | RuntimeException e) {
            table.close();
            if (dtzTable != null) dtzTable.close();
            throw e;
        }
        tables.put(material, table);
        if (dtzTable != null) dtz.put(material, dtzTable);
        if (manifest.subTables() != null)
            for (Manifest.SubTable sub : manifest.subTables()) {
                Path subFolder = folder.resolve(sub.path()).normalize();
                if (Files.isRegularFile(subFolder.resolve(Manifest.FILE))) openOrRefuse(subFolder, tables, dtz, refused, check, cache, source);
            }
    }

    private static void verify(Path file, Manifest.FileEntry described) throws IOException {
        String sha256;
        try (InputStream in = Files.newInputStream(file)) {
            sha256 = Manifest.sha256(in);
        }
        if (!sha256.equals(described.sha256()))
            throw new CorruptTableException(file + " does not match the SHA-256 in its " + Manifest.FILE + ": the file is damaged or from another run");
    }

    /** The most pieces of an endgame this tablebase answers, kings included (Syzygy's {@code TB_LARGEST}). */
    public int largest() { return materials().get(0).size(); }

    /** Whether {@code material}'s table is read from its packed files (best moves stored), not its compressed ones. */
    public boolean readsPacked(Material material) { return table(material) instanceof IndexedTable; }

    /**
     * Whether the table of {@code material} holds the positions of {@code side} to move (a lookup reads them), or finds
     * them by one ply of search over the other side's (a compressed table stores one side, the writer's choice).
     */
    public boolean stores(Material material, Color side) { return table(material).stores(side); }

    /** The endgames whose tables are open here, largest first, then by name. */
    public List<Material> materials() { return sorted(opened); }

    /** The tables of the folders opened that could not be read, each with its reason, in the order met. */
    public List<Refused> refused() { return refused; }

    /**
     * The endgames this tablebase answers: those of its tables and, for each, the one with the colours swapped (KRKQ
     * from KQKR, looked up as seen from the other side), so that a set needs one table a material.
     */
    public List<Material> answered() { return sorted(tables.keySet()); }

    private static List<Material> sorted(Collection<Material> materials) {
        List<Material> m = new ArrayList<>(materials);
        m.sort(Comparator.comparingInt(Material::size).reversed().thenComparing(Material::name));
        return m;
    }

    /** Reads a FEN; text that is not one is an {@link IllegalPositionException}. */
    public static Position position(String fen) {
        try {
            return Fen.parse(fen);
        } catch (IllegalArgumentException e) {
            throw new IllegalPositionException(e.getMessage());
        }
    }

    /** Win, draw or loss for the side to move: 1, 0 or -1. One read of a packed file. */
    public int probeWdl(Position position) { return wdl(ply(position)); }

    /**
     * The signed distance to mate in moves: n > 0, the side to move mates in n; -n, it is mated in n; 0, a draw (or
     * checkmate on the board, which {@link #probeWdl} tells apart as a loss). One read of a packed file.
     */
    public int probeDtm(Position position) { return signedDtm(ply(position)); }

    /**
     * The signed distance to mate in plies (half-moves), empty for a draw: n > 0, the side to move mates after n plies
     * (odd: its own last move mates); -n, it is mated after n plies (even); 0, it is checkmated on the board. Unlike
     * {@link #probeDtm}, a draw and checkmate are told apart.
     */
    public OptionalInt probeDtmPlies(Position position) {
        int ply = ply(position);
        if (ply < 0) return OptionalInt.empty();
        return OptionalInt.of(ply % 2 == 1 ? ply : -ply);
    }

    /**
     * A canonical position of {@code material} (opened, or answered from its twin) with {@code side} to move whose ply
     * is {@code ply} (see {@link #probeDtmPlies}: a table's longest win, say), empty where none is: the first of that
     * ply in index order where the table stores the side; for a side a compressed table leaves out, one found a move
     * before a stored position of the ply before. A pass over the table's entries: seconds to a minute for a 5-piece
     * table. Safe beside other calls on any thread, as every lookup.
     */
    public java.util.Optional<Position> positionOfPly(Material material, Color side, int ply) {
        DtmTable table = table(material);
        if (table instanceof ColoursSwappedTable)
            return positionOfPly(material.coloursSwapped(), side.opponent(), ply).map(p -> table.index().canonical(p.coloursSwapped()));
        return PositionOfPly.find(this, table, side, ply);
    }

    /** Positions a batch reads at once: enough reads in flight to hide the memory's latency, few enough to stay in cache. */
    private static final int BATCH = 256;

    /**
     * The signed DTM ({@link #probeDtm(Position)}) of every position into {@code dtm}, for a caller with many
     * positions at hand: the indexes of a few dozen are computed before their entries are read, so that the
     * reads overlap instead of waiting for memory one by one (a 5-piece table is larger than the caches). The first
     * bad position (illegal, of a material not opened, or met in a damaged table) throws, the entries before it filled.
     */
    public void probeDtm(Position[] positions, int[] dtm) { probeDtm(positions, dtm, null); }

    /**
     * {@link #probeDtm(Position[], int[])} that goes on past bad positions: {@code errors[k]} is the reason position
     * k has no DTM ({@code dtm[k]} is then 0), null for every position answered.
     */
    public void probeDtm(Position[] positions, int[] dtm, TablebaseException[] errors) {
        if (dtm.length < positions.length || errors != null && errors.length < positions.length)
            throw new IllegalArgumentException(dtm.length + " places for " + positions.length + " positions");
        DtmTable[] tables = new DtmTable[BATCH];
        long[] entries = new long[BATCH];
        for (int start = 0; start < positions.length; start += BATCH) {
            int n = Math.min(BATCH, positions.length - start);
            for (int k = 0; k < n; k++) {
                Position p = positions[start + k];
                boolean alone = p.material().size() == 2 || p.enPassant() >= 0; // bare kings, en passant: one by one
                tables[k] = null;
                if (errors != null) errors[start + k] = null;
                if (alone) continue;
                try {
                    DtmTable table = table(p.material());
                    if (!table.stores(p.sideToMove())) continue; // found from its moves, one by one
                    entries[k] = table.entry(p);
                    tables[k] = table;
                } catch (TablebaseException e) {
                    if (errors == null) throw e;
                    errors[start + k] = e;
                }
            }
            for (int k = 0; k < n; k++) {
                Position p = positions[start + k];
                if (errors != null && errors[start + k] != null) {
                    dtm[start + k] = 0;
                    continue;
                }
                try {
                    dtm[start + k] = signedDtm(tables[k] == null ? ply(p) : tables[k].plyAt(entries[k], p));
                } catch (TablebaseException e) {
                    if (errors == null) throw e;
                    errors[start + k] = e;
                    dtm[start + k] = 0;
                }
            }
        }
    }

    public int probeWdl(String fen) { return probeWdl(position(fen)); }

    public int probeDtm(String fen) { return probeDtm(position(fen)); }

    /** {@link #probeWdl}, empty for a material not opened or an illegal position. */
    public OptionalInt getWdl(Position position) {
        try {
            return OptionalInt.of(probeWdl(position));
        } catch (MissingTableException | IllegalPositionException e) {
            return OptionalInt.empty();
        }
    }

    /** {@link #probeDtm}, empty for a material not opened or an illegal position. */
    public OptionalInt getDtm(Position position) {
        try {
            return OptionalInt.of(probeDtm(position));
        } catch (MissingTableException | IllegalPositionException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * DTZ under the 50-move rule, as python-chess's {@code probe_dtz} gives it (see {@link Dtz}): the plies to the next
     * capture, pawn move or mate under play that keeps the result, positive when the side to move wins, negative when
     * it loses, 0 for a draw or a checkmate; over 100 (under -100) for a win (loss) that the rule turns into a draw.
     * Exact to the ply. A table made without DTZ is a {@link MissingTableException}.
     */
    public int probeDtz(Position position) { return Dtz.signed(dtzCode(position)); }

    /**
     * Five-valued WDL under the 50-move rule, the halfmove clock at 0 (python-chess's {@code probe_wdl}): 2 win, 1 a
     * win the rule turns into a draw (cursed), 0 draw, -1 a loss the rule saves (blessed), -2 loss. {@link #probeWdl}
     * is the result without the rule.
     */
    public int probeWdl50(Position position) { return Dtz.wdl(dtzCode(position), Dtz.RULE_PLIES); }

    /** A position's {@link Dtz} code: from its table's DTZ, or, where it may take en passant, from its moves. */
    int dtzCode(Position position) {
        String illegal = position.illegalReason();
        if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
        if (position.material().size() == 2) return Dtz.DRAW;
        if (position.enPassant() >= 0 && canTakeEnPassant(position)) return dtzFromMoves(position);
        Position stored = position.material().isTableMaterial() || !dtz.containsKey(position.material().coloursSwapped())
                ? position : position.coloursSwapped();
        DtzTable table = dtz.get(stored.material());
        if (table == null) {
            table(position.material()); // no table at all: that error
            throw new MissingTableException("the " + position.material() + " table was made without DTZ (generate it again with --conf "
                    + "spark.tablebase.dtz=true)");
        }
        return table.code(stored);
    }

    /** A legal position's {@link Dtz} code from those of the positions its moves lead to; with no move, checkmate or stalemate. */
    int dtzFromMoves(Position position) {
        List<Move> legal = position.legalMoves();
        if (legal.isEmpty()) return position.inCheck() ? Dtz.loss(0) : Dtz.DRAW;
        int best = Dtz.NONE;
        for (Move m : legal) {
            int worth = Dtz.byMove(dtzCode(position.play(m)), zeroing(position, m), Dtz.RULE_PLIES);
            best = Dtz.better(best, worth);
        }
        return best;
    }

    /** Whether a table made with DTZ answers {@code material} (itself or its colours swapped). */
    boolean hasDtz(Material material) { return dtz.containsKey(material) || dtz.containsKey(material.coloursSwapped()); }

    /** Parses and probes a FEN: its result, best move, mainline and every legal move's result. */
    public ProbeResult probe(String fen) {
        return probe(position(fen));
    }

    public ProbeResult probe(Position position) {
        if (position.material().size() > 2) table(position.material()); // bare kings: a draw, with no table
        String illegal = position.illegalReason();
        if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
        int ply = ply(position);
        List<MoveResult> moves = rankedMoves(position, ply);
        Move best = moves.isEmpty() ? null : moves.get(0).move();
        Integer dtz = dtzOrNull(position);
        MoveResult dtzBest = dtz == null ? null : dtzBest(position, moves);
        return new ProbeResult(position, category(ply), ply < 0 ? null : (ply + 1) / 2, best, mainline(position, ply, best), moves, dtz,
                dtzBest == null ? null : dtzBest.move());
    }

    /**
     * The DTZ-optimal move among a position's {@code moves} (ranked best first by DTM: among equals, the DTM-best), or
     * null; a capture into a table without DTZ is not weighed.
     */
    private static MoveResult dtzBest(Position position, List<MoveResult> moves) {
        MoveResult best = null;
        int bestWorth = Dtz.NONE;
        for (MoveResult m : moves) {
            if (m.dtz() == null) continue;
            int worth = Dtz.byMove(code(m.dtz(), m.category()), zeroing(position, m.move()), Dtz.RULE_PLIES);
            if (best == null || Dtz.preference(worth) > Dtz.preference(bestWorth)) {
                best = m;
                bestWorth = worth;
            }
        }
        return best;
    }

    /**
     * The line that keeps the result under the 50-move rule, as lila-tablebase's mainline, each step a move with what
     * it leads to: each side's DTZ-optimal move in turn (the winner's quickest to its next zeroing move or mate, the loser's slowest; among equals the
     * DTM-best), from a position whose halfmove clock stands at {@code halfmoves}, until mate, or until the clock
     * reaches 100 (a cursed win: the rule's draw, which either side may claim); empty for a draw. Its tables need DTZ.
     */
    public List<MoveResult> dtzMainline(Position position, int halfmoves) {
        List<MoveResult> line = new ArrayList<>();
        if (dtzCode(position) == Dtz.DRAW) return line;
        Position p = position;
        for (int clock = halfmoves; clock < Dtz.RULE_PLIES; ) {
            MoveResult best = dtzBest(p, rankedMoves(p, ply(p)));
            if (best == null) break; // mate (a loss within the rule ends so) or stalemate
            line.add(best);
            clock = zeroing(p, best.move()) ? 0 : clock + 1;
            p = p.play(best.move());
        }
        return line;
    }

    /** A position's signed DTZ, or null where its table (or one its en-passant captures reach) was made without DTZ. */
    private Integer dtzOrNull(Position position) {
        Material m = position.material();
        if (m.size() > 2 && !hasDtz(m)) return null;
        try {
            return probeDtz(position);
        } catch (MissingTableException e) {
            return null;
        }
    }

    /** The {@link Dtz} code of a signed DTZ, the side to move's result ({@code category}) telling a checkmate from a draw. */
    private static int code(int signed, Category category) {
        if (signed > 0) return Dtz.win(signed);
        if (signed < 0 || category == Category.LOSS) return Dtz.loss(-signed);
        return Dtz.DRAW;
    }

    /** Whether a move sets the halfmove clock to 0: a capture or a pawn move. */
    static boolean zeroing(Position p, Move m) { return m.isCapture() || p.piece(m.piece()).type() == PieceType.PAWN; }

    /**
     * Later probes fail. The compressed tables' files are closed and their blocks dropped from the cache; the packed
     * tables' mappings are released with this object (unmapping one under a lookup still running would crash the JVM).
     */
    @Override public void close() {
        closed = true;
        last = null; // the lookups' fast path reads no volatile field: they find no last table and ask find()
        for (DtmTable table : tables.values()) table.close();
        for (DtzTable table : dtz.values()) table.close();
    }

    /** The budget and present size of the decompressed blocks' cache, in bytes. */
    public long cacheBudget() { return cache.budget(); }

    public long cacheUsed() { return cache.used(); }

    /**
     * The bytes the compressed tables' blocks take decoded, a byte an entry of each side stored (a DTZ's two sides
     * included): a cache of this budget holds every table whole once its blocks are read.
     */
    public long decodedBytes() {
        long bytes = 0;
        for (DtmTable table : tables.values()) if (table instanceof CompressedTable compressed) bytes += compressed.index().size();
        for (DtzTable table : dtz.values()) bytes += table.decodedBytes();
        return bytes;
    }

    /** The table of a material: the last one used, else from the map (kept small, so that lookups inline it). */
    DtmTable table(Material material) {
        DtmTable table = last;
        if (table != null && table.material() == material) return table;
        return find(material);
    }

    private DtmTable find(Material material) {
        if (closed) throw new IllegalStateException("this tablebase is closed");
        DtmTable table = tables.get(material);
        Refused refusal = table == null ? refusedByMaterial.get(material) : null;
        if (refusal != null) throw new CorruptTableException("the " + refusal.material() + " table cannot be read: " + refusal.reason());
        if (table == null)
            throw new MissingTableException("no " + material + " table among " + String.join(", ", materials().stream().map(Material::name).toList()));
        last = table;
        if (closed) { // closed meanwhile: forget the table again
            last = null;
            throw new IllegalStateException("this tablebase is closed");
        }
        return table;
    }

    /** The ply of a position (see {@link IndexedTable}), -1 for a draw; bare kings are a draw. */
    public int ply(Position position) {
        if (position.material().size() == 2) {
            String illegal = position.illegalReason();
            if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
            return -1;
        }
        if (position.enPassant() >= 0 && canTakeEnPassant(position)) return plyFromMoves(position);
        DtmTable table = table(position.material());
        if (table.stores(position.sideToMove())) return table.ply(position);
        String illegal = position.illegalReason();
        if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
        return ((CompressedTable) table).plyBySearch(position); // only a compressed table leaves a side out
    }

    /** Whether the side to move has a legal en-passant capture: a position its table does not hold. */
    private static boolean canTakeEnPassant(Position position) {
        String illegal = position.illegalReason();
        if (illegal != null) throw new IllegalPositionException("illegal position: " + illegal);
        for (Move m : position.legalMoves()) if (m.to() == position.enPassant() && m.isCapture()) return true; // the square is empty: only a pawn beside takes there
        return false;
    }

    /** The ply of a legal position from those of the positions its moves lead to ({@link Result.Fold}); with no move, checkmate (0) or stalemate. */
    int plyFromMoves(Position position) {
        List<Move> legal = position.legalMoves();
        if (legal.isEmpty()) return position.inCheck() ? 0 : -1;
        Result.Fold fold = new Result.Fold();
        for (Move m : legal) fold.addPly(ply(position.play(m)));
        return fold.ply();
    }

    /**
     * The move of a best line from a won or lost position of ply {@code ply}: stored in its table, else (a compressed
     * table, or a position that may take en passant) the move the generator would store: the first, in the order of
     * the stored moves' ranks, that leads to ply {@code ply - 1}.
     */
    private Move bestMove(Position p, List<Move> legal, int ply, Predicate<Move> leadsToPlyBefore) {
        DtmTable table = table(p.material());
        Move stored = p.enPassant() >= 0 && canTakeEnPassant(p) ? null : table.move(p, legal);
        if (stored != null) return stored;
        for (Move m : IndexedTable.inStoredOrder(table.index(), p, legal)) if (leadsToPlyBefore.test(m)) return m;
        return null;
    }

    private static Category category(int ply) {
        if (ply < 0) return Category.DRAW;
        return ply % 2 == 1 ? Category.WIN : Category.LOSS;
    }

    /** Every legal move with the result after it, best for the mover first; the stored move leads its equals. */
    private List<MoveResult> rankedMoves(Position position, int ply) {
        List<Move> legal = position.legalMoves();
        List<MoveResult> moves = new ArrayList<>(legal.size());
        Map<Move, Integer> plyAfter = new HashMap<>();
        for (Move m : legal) {
            Position next = position.play(m);
            int after = ply(next);
            plyAfter.put(m, after);
            boolean check = next.inCheck(); // mate is ply 0 after it: the table knows, no moves to generate
            moves.add(new MoveResult(m, San.of(position, m, legal, check, check && after == 0), category(after), after < 0 ? null : (after + 1) / 2,
                    dtzOrNull(next)));
        }
        Move stored = ply <= 0 ? null : bestMove(position, legal, ply, m -> plyAfter.get(m) == ply - 1);
        moves.sort(Comparator.comparingInt((MoveResult r) -> preference(r.category(), r.dtm() == null ? 0 : r.dtm()))
                .thenComparing(r -> !r.move().equals(stored))
                .thenComparingInt(r -> r.move().to())
                .thenComparingInt(r -> r.move().piece()));
        return moves;
    }

    /** Lower is better for the side that moves into a position of this result: mate fastest, else draw, else lose slowest. */
    private static int preference(Category after, int dtm) {
        return switch (after) {
            case LOSS -> dtm;
            case DRAW -> 1_000;
            case WIN -> 2_000 - dtm;
        };
    }

    /**
     * Best play to checkmate from a won or lost position, through captures into smaller tables, each step checked;
     * {@code first} is the start's best move, already found.
     */
    private List<Move> mainline(Position start, int ply, Move first) {
        List<Move> line = new ArrayList<>();
        Position p = start;
        for (int q = ply; q > 0; q--) {
            Position from = p;
            int target = q - 1;
            Move[] reached = new Move[1]; // the move a search found at the target, not checked twice
            Move m = q == ply ? first : bestMove(p, p.legalMoves(), q, move -> {
                boolean at = isAtPly(from.play(move), target);
                if (at) reached[0] = move;
                return at;
            });
            if (m == null) throw new CorruptTableException("the " + p.material() + " table stores no move for " + p + " at ply " + q);
            Position next = p.play(m);
            if (m != reached[0] && !isAtPly(next, target))
                throw new CorruptTableException("after " + m.uci() + " in " + p + " the table gives ply " + ply(next) + ", not " + target);
            line.add(m);
            p = next;
        }
        return line;
    }

    /**
     * Whether a legal position is won or lost at ply {@code target} (0 or more). A position its table does not hold
     * is searched from its moves, captures first, and ruled out by the first that shows another result (a draw, a
     * win for the side that a loss at the target leaves to move, a longer win, or a faster one): a best line's
     * search tries a few replies of each move it rejects, where finding each move's ply would look up all of them.
     */
    boolean isAtPly(Position position, int target) {
        boolean searched = position.material().size() > 2
                && (!table(position.material()).stores(position.sideToMove()) || position.enPassant() >= 0 && canTakeEnPassant(position));
        if (!searched) return ply(position) == target;
        List<Move> legal = position.legalMoves();
        if (legal.isEmpty()) return target == 0 && position.inCheck();
        boolean lossAtTarget = target % 2 == 0, found = false;
        for (int pass = 0; pass < 2; pass++)
            for (Move m : legal) {
                if (m.isCapture() != (pass == 0)) continue;
                int after = ply(position.play(m));
                boolean opponentLoses = after >= 0 && after % 2 == 0;
                if (lossAtTarget ? after < 0 || opponentLoses || after > target - 1 : opponentLoses && after < target - 1) return false;
                found |= after == target - 1;
            }
        return found;
    }
}
