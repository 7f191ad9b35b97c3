package tablebase.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import tablebase.chess.Attacks;
import tablebase.chess.Color;
import tablebase.chess.Fen;
import tablebase.chess.Move;
import tablebase.chess.Position;
import tablebase.chess.San;
import tablebase.generate.LoneKingRules;
import tablebase.output.ProbeResult.Category;
import tablebase.output.ProbeResult.MoveResult;

/**
 * Probing a generated KBNK table through its packed file: {@code Tablebase.open(dir)}, then
 * {@code probe(fen)}. No Spark is needed. An instance only reads its memory-mapped file, so any number of
 * threads may share it.
 *
 * <p>The packed file stores White to move; Black-to-move results follow from it: Black is lost in
 * {@code n} when every Black move leads to a White win, {@code n} being the longest of them. A Black capture
 * leaves a lone minor piece, which cannot mate: a draw.
 */
public final class Tablebase {
    /** {@link #dtm} of a position that is not won for White. */
    public static final int DRAW = -1;
    private static final int KING = 0, BISHOP = 1, KNIGHT = 2, BLACK_KING = 3;
    private static final LoneKingRules RULES = new LoneKingRules(PackedTable.KBNK);

    private final PackedTable table;

    private Tablebase(PackedTable table) { this.table = table; }

    /**
     * Opens the table generated into {@code folder} (its {@code kbnk.bin}). When the folder's manifest gives
     * the file's SHA-256, the file is checked against it, so a damaged file is refused here.
     */
    public static Tablebase open(Path folder) throws IOException {
        if (!Files.isDirectory(folder))
            throw new NoSuchFileException(folder + ": no such table folder (generate one with jobs/generate --endgame KBNK --out "
                    + folder + ")");
        Path file = folder.resolve(TableExport.packedName(PackedTable.KBNK.name()));
        PackedTable table = PackedTable.open(file);
        Path manifest = folder.resolve(TableExport.MANIFEST);
        if (Files.isRegularFile(manifest) && Manifest.read(manifest).get("packed_file") instanceof Map<?, ?> packed
                && packed.get("sha256") instanceof String expected && !expected.equals(sha256(file)))
            throw new IOException(file + " does not match the SHA-256 in " + manifest + ": the file is damaged or from another run");
        return new Tablebase(table);
    }

    /** Parses and probes a FEN; malformed text, other material or an illegal position is an IllegalArgumentException. */
    public ProbeResult probe(String fen) {
        return probe(Fen.parse(fen));
    }

    public ProbeResult probe(Position position) {
        if (!position.material().equals(PackedTable.KBNK))
            throw new IllegalArgumentException("this table answers K+B+N vs K (KBNK); the position has " + position.material());
        String illegal = position.illegalReason();
        if (illegal != null) throw new IllegalArgumentException("illegal position: " + illegal);

        int dtm = dtm(position);
        List<MoveResult> moves = rankedMoves(position);
        Move best = moves.isEmpty() ? null : moves.get(0).move();
        return new ProbeResult(position, category(position, dtm), dtm == DRAW ? null : dtm, best,
                mainline(position, dtm), moves);
    }

    /**
     * The distance to mate of a legal position (SPEC's value), or {@link #DRAW}. One table read for White to
     * move, at most eight for Black; nothing is allocated, for bulk probing.
     */
    public int dtm(Position position) {
        if (!position.material().equals(PackedTable.KBNK)) return DRAW; // a capture left a lone minor piece
        int wk = position.square(KING), wb = position.square(BISHOP), wn = position.square(KNIGHT);
        int bk = position.square(BLACK_KING);
        if (position.sideToMove() == Color.WHITE) {
            int d = table.dtm(wk, wb, wn, bk);
            return d == 0 ? DRAW : d;
        }
        long placement = position.key() & (RULES.placementSpace() - 1); // the key's low bits are White's squares
        long escapes = Attacks.king(bk) & RULES.blackKingTargets(placement);
        if (escapes == 0) return (RULES.attacks(placement) & Attacks.bit(bk)) != 0 ? 0 : DRAW; // mate or stalemate
        if ((escapes & RULES.occupied(placement)) != 0) return DRAW; // an undefended piece can be taken
        int longest = 0;
        for (long e = escapes; e != 0; e &= e - 1) {
            int d = table.dtm(wk, wb, wn, Long.numberOfTrailingZeros(e));
            if (d == 0) return DRAW;
            longest = Math.max(longest, d);
        }
        return longest;
    }

    private static Category category(Position position, int dtm) {
        if (dtm == DRAW) return Category.DRAW;
        return position.sideToMove() == Color.WHITE ? Category.WIN : Category.LOSS;
    }

    /** Every legal move with the result after it, best for the mover first; White's stored move leads its equals. */
    private List<MoveResult> rankedMoves(Position position) {
        List<MoveResult> moves = new ArrayList<>();
        for (Move m : position.legalMoves()) {
            Position after = position.play(m);
            int d = dtm(after);
            moves.add(new MoveResult(m, San.of(position, m), category(after, d), d == DRAW ? null : d));
        }
        Move stored = position.sideToMove() == Color.WHITE ? table.lookup(position).move() : null;
        moves.sort(Comparator.comparingInt(Tablebase::preference)
                .thenComparing(r -> !r.move().equals(stored))
                .thenComparingInt(r -> r.move().to())
                .thenComparingInt(r -> r.move().piece()));
        return moves;
    }

    /** Lower is better for the side that moves: mate fastest, else draw, else lose slowest. */
    private static int preference(MoveResult r) {
        return switch (r.category()) {
            case LOSS -> r.dtm();
            case DRAW -> 1_000;
            case WIN -> 2_000 - r.dtm();
        };
    }

    /** Best play to checkmate from a won or lost position, each step checked against the table. */
    private List<Move> mainline(Position start, int dtm) {
        List<Move> line = new ArrayList<>();
        if (dtm == DRAW) return line;
        Position p = start;
        int d = dtm;
        while (!(p.sideToMove() == Color.BLACK && d == 0)) {
            Move m = p.sideToMove() == Color.WHITE ? table.lookup(p).move() : longestDefence(p);
            if (m == null || !p.legalMoves().contains(m))
                throw new CorruptTableException("the table's move " + (m == null ? "(none)" : m.uci()) + " is not legal in " + p);
            Position next = p.play(m);
            int nextDtm = dtm(next);
            int expected = p.sideToMove() == Color.WHITE ? d - 1 : d;
            if (nextDtm != expected)
                throw new CorruptTableException("after " + m.uci() + " in " + p + " the table gives " + nextDtm + ", not " + expected);
            line.add(m);
            p = next;
            d = nextDtm;
        }
        return line;
    }

    /** Black's reply that holds out longest, the lowest target square among equals. */
    private Move longestDefence(Position p) {
        Move best = null;
        int bestDtm = -1;
        for (Move m : p.legalMoves()) {
            int d = dtm(p.play(m));
            if (d > bestDtm) { best = m; bestDtm = d; }
        }
        return best;
    }

    private static String sha256(Path file) throws IOException {
        try (DigestInputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(in.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
