package tablebase.output;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tablebase.chess.Color;
import tablebase.chess.Fen;
import tablebase.chess.Material;
import tablebase.chess.Move;
import tablebase.chess.Position;
import tablebase.chess.San;
import tablebase.output.ProbeResult.Category;
import tablebase.output.ProbeResult.MoveResult;

/**
 * Probing generated tables, no Spark needed: {@code Tablebase.open(dir)}, then {@code probe(fen)}. An
 * instance only reads memory-mapped files, so any number of threads may share it.
 *
 * <p>A folder holds a table's packed file ({@link IndexedTable}), and its manifest names the folders of the smaller
 * tables its captures lead to; those are opened too, so a position after any capture has its answer.
 */
public final class Tablebase {
    /** {@link #dtm} of a drawn position. */
    public static final int DRAW = -1;

    /** The tables opened, the one asked for first. */
    private final Map<Material, IndexedTable> sources;

    private Tablebase(Map<Material, IndexedTable> sources) { this.sources = sources; }

    /**
     * Opens the table generated into {@code folder} and the smaller tables it needs. Every file whose SHA-256
     * the manifest gives is checked against it, so a damaged file is refused here.
     */
    public static Tablebase open(Path folder) throws IOException {
        Map<Material, IndexedTable> sources = new LinkedHashMap<>();
        openInto(folder, sources);
        return new Tablebase(sources);
    }

    private static void openInto(Path folder, Map<Material, IndexedTable> sources) throws IOException {
        if (!Files.isDirectory(folder))
            throw new NoSuchFileException(folder + ": no such table folder (generate one with jobs/generate --endgame KBNK --out "
                    + folder + ")");
        Path manifestFile = folder.resolve(TableExport.MANIFEST);
        Map<String, Object> manifest = Files.isRegularFile(manifestFile) ? Manifest.read(manifestFile) : Map.of();
        if (!(manifest.get("packed_file") instanceof Map<?, ?> packed))
            throw new IOException(folder + " holds no table: its " + TableExport.MANIFEST + " is missing or names no packed file");
        Path file = folder.resolve(String.valueOf(packed.get("name")));
        IndexedTable table = IndexedTable.open(file);
        checkSha256(file, packed, manifestFile);
        sources.put(table.material(), table);
        if (manifest.get("sub_tables") instanceof List<?> subs)
            for (Object sub : subs)
                if (!sources.containsKey(Material.parse(String.valueOf(((Map<?, ?>) sub).get("endgame")))))
                    openInto(folder.resolve(String.valueOf(((Map<?, ?>) sub).get("path"))).normalize(), sources);
    }

    private static void checkSha256(Path file, Object described, Path manifest) throws IOException {
        if (described instanceof Map<?, ?> m && m.get("sha256") instanceof String expected && !expected.equals(sha256(file)))
            throw new IOException(file + " does not match the SHA-256 in " + manifest + ": the file is damaged or from another run");
    }

    /** The endgames this tablebase answers, the one opened first. */
    public List<Material> materials() { return List.copyOf(sources.keySet()); }

    /** Parses and probes a FEN; malformed text, other material or an illegal position is an IllegalArgumentException. */
    public ProbeResult probe(String fen) {
        return probe(Fen.parse(fen));
    }

    public ProbeResult probe(Position position) {
        if (!sources.containsKey(position.material()))
            throw new IllegalArgumentException("this table answers " + String.join(", ", materials().stream().map(Material::name).toList())
                    + "; the position has " + position.material());
        String illegal = position.illegalReason();
        if (illegal != null) throw new IllegalArgumentException("illegal position: " + illegal);

        int ply = ply(position);
        List<MoveResult> moves = rankedMoves(position);
        Move best = moves.isEmpty() ? null : moves.get(0).move();
        return new ProbeResult(position, category(ply), ply < 0 ? null : dtm(ply), best, mainline(position, ply), moves);
    }

    /**
     * The distance to mate of a legal position, in moves of the side that mates (for KBNK, SPEC's value), or
     * {@link #DRAW}: one read of the packed file.
     */
    public int dtm(Position position) {
        int ply = ply(position);
        return ply < 0 ? DRAW : dtm(ply);
    }

    private static int dtm(int ply) { return (ply + 1) / 2; }

    /** The ply of a legal position of a material opened here (bare kings: a draw), -1 for a draw. */
    private int ply(Position position) {
        IndexedTable source = sources.get(position.material());
        if (source != null) return source.ply(position);
        if (position.material().size() == 2) return -1; // bare kings
        throw new IllegalArgumentException("no table for " + position.material() + " among " + materials());
    }

    private static Category category(int ply) {
        if (ply < 0) return Category.DRAW;
        return ply % 2 == 1 ? Category.WIN : Category.LOSS;
    }

    /** Every legal move with the result after it, best for the mover first; the stored move leads its equals. */
    private List<MoveResult> rankedMoves(Position position) {
        List<MoveResult> moves = new ArrayList<>();
        for (Move m : position.legalMoves()) {
            int ply = ply(position.play(m));
            moves.add(new MoveResult(m, San.of(position, m), category(ply), ply < 0 ? null : dtm(ply)));
        }
        Move stored = sources.get(position.material()).move(position); // a position probed is of a material opened here
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

    /** Best play to checkmate from a won or lost position, each step checked against the table. */
    private List<Move> mainline(Position start, int ply) {
        List<Move> line = new ArrayList<>();
        Position p = start;
        for (int q = ply; q > 0; q--) {
            Move m = bestMove(p);
            if (m == null || !p.legalMoves().contains(m))
                throw new CorruptTableException("the table's move " + (m == null ? "(none)" : m.uci()) + " is not legal in " + p);
            Position next = p.play(m);
            int nextPly = ply(next);
            if (nextPly != q - 1)
                throw new CorruptTableException("after " + m.uci() + " in " + p + " the table gives ply " + nextPly + ", not " + (q - 1));
            line.add(m);
            p = next;
        }
        return line;
    }

    /** The stored move, else the best by the results after each move (the lowest target square among equals). */
    private Move bestMove(Position p) {
        Move stored = sources.get(p.material()).move(p); // a won or lost position is of a material opened here
        if (stored != null) return stored;
        Move best = null;
        int bestPreference = Integer.MAX_VALUE;
        for (Move m : p.legalMoves()) {
            int ply = ply(p.play(m));
            int preference = preference(category(ply), ply < 0 ? 0 : dtm(ply));
            if (preference < bestPreference) { best = m; bestPreference = preference; }
        }
        return best;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return TableExport.sha256(in);
        }
    }
}
