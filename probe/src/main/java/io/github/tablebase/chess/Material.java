package io.github.tablebase.chess;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pieces of an endgame, parsed from the usual notation (White's pieces, then Black's: "KBNK",
 * "KQKR"). Pieces keep a canonical order, which every key and column layout follows: White first,
 * then Black; within a side the king, then queens, rooks, bishops, knights.
 */
public final class Material implements java.io.Serializable {
    private static final Comparator<Piece> ORDER =
            Comparator.comparing(Piece::color).thenComparing(Piece::type);

    /**
     * One instance per endgame, so that the table of a position's material is found by identity, once per probe
     * (a material read back on an executor is replaced by this JVM's own, see readResolve).
     */
    private static final ConcurrentHashMap<String, Material> INTERNED = new ConcurrentHashMap<>();

    private final List<Piece> pieces;
    private final String name;
    /** The name's hash, the same in every JVM (a material travels to executors, and enums hash by identity). */
    private final int hash;
    /** White's piece count, which is where Black's king stands in the order: read by every probe. */
    private final int whiteCount;
    /** The piece count, kept: every probe asks it (bare kings have no table). */
    private final int size;
    /** Bit {@code i} set when piece {@code i} is a pawn: a new position checks its pawns' ranks by it. */
    private final int pawns;

    private Material(List<Piece> pieces, String name) {
        this.pieces = List.copyOf(pieces);
        this.name = name;
        hash = name.hashCode();
        whiteCount = (int) pieces.stream().filter(p -> p.color() == Color.WHITE).count();
        size = pieces.size();
        int pawns = 0;
        for (int i = 0; i < size; i++) if (pieces.get(i).type() == PieceType.PAWN) pawns |= 1 << i;
        this.pawns = pawns;
    }

    /** The one instance of the material of these pieces, already in canonical order. */
    private static Material interned(List<Piece> sorted) {
        StringBuilder name = new StringBuilder();
        for (Piece p : sorted) name.append(p.type().letter());
        return INTERNED.computeIfAbsent(name.toString(), n -> new Material(sorted, n));
    }

    private Object readResolve() { return INTERNED.computeIfAbsent(name, n -> this); }

    /** Parses "KBNK" and the like; a clear IllegalArgumentException for anything else. */
    public static Material parse(String name) {
        String text = name == null ? "" : name.trim().toUpperCase();
        if (!text.matches("K[QRBNP]*K[QRBNP]*"))
            throw new IllegalArgumentException("not an endgame: '" + name
                    + "' (write White's pieces then Black's, each side starting with its king, from K Q R B N P: KBNK, KQKR, KRPKR)");
        int blackKing = text.indexOf('K', 1);
        List<Piece> list = new ArrayList<>();
        for (int i = 0; i < text.length(); i++)
            list.add(new Piece(i < blackKing ? Color.WHITE : Color.BLACK, PieceType.fromLetter(text.charAt(i))));
        return of(list);
    }

    /** The material of any list of pieces, put into canonical order; exactly one king per side. */
    public static Material of(List<Piece> pieces) {
        List<Piece> sorted = new ArrayList<>(pieces);
        sorted.sort(ORDER);
        for (Color c : Color.values()) {
            long kings = sorted.stream().filter(p -> p.color() == c && p.type() == PieceType.KING).count();
            if (kings != 1) throw new IllegalArgumentException(
                    (c == Color.WHITE ? "White" : "Black") + " must have exactly one king, not " + kings);
        }
        return interned(sorted);
    }

    /** The same pieces with the colours swapped: KRKQ for KQKR (itself for KQKQ). */
    public Material coloursSwapped() {
        List<Piece> swapped = new ArrayList<>(size);
        for (Piece p : pieces) swapped.add(new Piece(p.color().opponent(), p.type()));
        return of(swapped);
    }

    /**
     * The material whose table holds this one's positions, as DTM and WDL sets name their tables: the side with more
     * pieces is White, and with as many, the side whose strongest pieces are stronger (queen, rook, bishop, knight,
     * pawn, compared strongest first): KQKR for KRKQ, KBNKR for KRKBN, KRK for KKR, itself for KQKR and KRKR. A set
     * holds one table a material; the other is read from it with the colours swapped.
     */
    public Material tableMaterial() {
        return stronger(Color.BLACK) ? coloursSwapped() : this;
    }

    /** Whether this material is the one its table is named after ({@link #tableMaterial}). */
    public boolean isTableMaterial() { return !stronger(Color.BLACK); }

    /** Whether {@code side}'s pieces outrank the other side's, by the rule of {@link #tableMaterial}. */
    private boolean stronger(Color side) {
        int own = count(side), other = size - own;
        if (own != other) return own > other;
        int a = kingIndex(side) + 1, b = kingIndex(side.opponent()) + 1; // each side's pieces after its king, strongest first
        for (int k = 0; k < own - 1; k++) {
            int c = pieces.get(a + k).type().compareTo(pieces.get(b + k).type());
            if (c != 0) return c < 0;
        }
        return false;
    }

    public List<Piece> pieces() { return Collections.unmodifiableList(pieces); }

    public int size() { return size; }

    public Piece piece(int index) { return pieces.get(index); }

    public int count(Color color) { return color == Color.WHITE ? whiteCount : pieces.size() - whiteCount; }

    /** Index of the side's king: White's is 0, Black's follows White's pieces. */
    public int kingIndex(Color color) { return color == Color.WHITE ? 0 : whiteCount; }

    public boolean hasPawns() { return pawns != 0; }

    /** The board's symmetries a position of this material may be moved by: the eight, or with pawns the left-right mirror alone. */
    public int symmetries() { return hasPawns() ? 2 : 8; }

    /** Which pieces are pawns: bit {@code i} for piece {@code i}. */
    int pawns() { return pawns; }

    /** The material with piece {@code index} removed (after a capture). */
    public Material without(int index) {
        List<Piece> rest = new ArrayList<>(pieces);
        rest.remove(index);
        return interned(rest);
    }

    /** Column names for the piece squares: colour letter and piece letter, numbered when repeated (wk, wb, wn, bk; wb1, wb2). */
    public List<String> columnNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            String base = "" + p.color().fenLetter() + Character.toLowerCase(p.type().letter());
            boolean repeated = pieces.stream().filter(p::equals).count() > 1;
            names.add(repeated ? base + (1 + pieces.subList(0, i).stream().filter(p::equals).count()) : base);
        }
        return names;
    }

    /** The usual notation, canonical order: "KBNK". */
    public String name() { return name; }

    @Override public boolean equals(Object o) { return o == this || o instanceof Material m && m.name.equals(name); }

    @Override public int hashCode() { return hash; }

    @Override public String toString() { return name(); }
}
