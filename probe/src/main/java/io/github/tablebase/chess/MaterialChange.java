package io.github.tablebase.chess;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a move that leaves its table leads: a capture removes a piece, a promotion turns a pawn into a piece, a
 * capturing promotion does both. {@code after} is the new material and {@code source[j]} the piece of the old
 * material that stands as its piece {@code j} (material order puts a promoted piece elsewhere than its pawn).
 */
public record MaterialChange(Material after, int[] source) implements Serializable {
    /**
     * The change of {@code material} when piece {@code captured} is taken (-1 none) and piece {@code promoted} (-1
     * none) becomes a {@code promotion}.
     */
    public static MaterialChange of(Material material, int captured, int promoted, PieceType promotion) {
        return MADE.computeIfAbsent(new Key(material, captured, promoted, promotion), k -> make(material, captured, promoted, promotion));
    }

    /** What {@link #of} asks, for the changes made once: a probe plays many captures of few kinds. */
    private record Key(Material material, int captured, int promoted, PieceType promotion) {
        // written out, here and in Piece and Move: a record's own equals and hashCode link through method handles
        // at their first call, about 10 ms each at the start of a probe command
        @Override public boolean equals(Object o) {
            return o instanceof Key k && k.material.equals(material) && k.captured == captured && k.promoted == promoted && k.promotion == promotion;
        }

        @Override public int hashCode() {
            return (material.hashCode() * 67 + captured) * 67 + promoted << 3 ^ (promotion == null ? 7 : promotion.ordinal());
        }
    }

    private static final java.util.concurrent.ConcurrentHashMap<Key, MaterialChange> MADE = new java.util.concurrent.ConcurrentHashMap<>();

    private static MaterialChange make(Material material, int captured, int promoted, PieceType promotion) {
        List<Piece> pieces = new ArrayList<>(material.size());
        List<Integer> origins = new ArrayList<>(material.size());
        for (int i = 0; i < material.size(); i++) {
            if (i == captured) continue;
            Piece p = material.piece(i);
            pieces.add(i == promoted ? new Piece(p.color(), promotion) : p);
            origins.add(i);
        }
        Material after = Material.of(pieces);
        int[] source = new int[after.size()];
        boolean[] used = new boolean[pieces.size()];
        for (int j = 0; j < source.length; j++)
            for (int k = 0; k < pieces.size(); k++)
                if (!used[k] && pieces.get(k).equals(after.piece(j))) {
                    used[k] = true;
                    source[j] = origins.get(k);
                    break;
                }
        return new MaterialChange(after, source);
    }

    /** A move that leaves its table: piece {@code captured} taken (-1 none), pawn {@code promoted} (-1 none) becoming {@code promotion}. */
    public record Exit(int captured, int promoted, PieceType promotion, MaterialChange change) implements Serializable {}

    /**
     * Every kind of exit a material has: each non-king piece taken, each pawn promoting to each piece, and each
     * pawn promoting while it takes a piece of the other side (no pawn stands on the last rank).
     */
    public static List<Exit> exits(Material m) {
        List<Exit> exits = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            if (m.piece(i).type() == PieceType.KING) continue;
            exits.add(new Exit(i, -1, null, of(m, i, -1, null)));
            if (m.piece(i).type() != PieceType.PAWN) continue;
            for (PieceType promotion : PieceType.PROMOTIONS) {
                exits.add(new Exit(-1, i, promotion, of(m, -1, i, promotion)));
                for (int j = 0; j < m.size(); j++) {
                    PieceType taken = m.piece(j).type();
                    if (m.piece(j).color() != m.piece(i).color() && taken != PieceType.KING && taken != PieceType.PAWN)
                        exits.add(new Exit(j, i, promotion, of(m, j, i, promotion)));
                }
            }
        }
        return exits;
    }

    /** Writes into {@code out} the squares of {@link #after} from the old material's {@code squares}, the mover already on its new square. */
    public void squares(int[] squares, int[] out) {
        for (int j = 0; j < source.length; j++) out[j] = squares[source[j]];
    }
}
