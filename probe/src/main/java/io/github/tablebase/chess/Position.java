package io.github.tablebase.chess;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A position: one square per piece of its {@link Material} (same order), the side to move, and the en-passant
 * square when the last move was a double pawn push that a pawn can take (else -1). Identical pieces keep their
 * squares in ascending order, so equal positions are equal objects and have equal keys. No castling rights.
 *
 * <p>The key is a {@code long}: piece {@code i}'s square in bits {@code 6i .. 6i+5}, then one bit
 * for the side to move (1 = Black) at bit {@code 6n}, n = number of pieces. Up to ten pieces fit. It leaves the
 * en-passant square out, as the tables do.
 */
public final class Position {
    private final Material material;
    private final int[] squares;
    private final Color sideToMove;
    private final int enPassant;
    /** The occupied squares as bits. */
    private final long occupied;
    /** See {@link #placeable()}: a probe's check before its lookup. */
    private final boolean placeable;

    public Position(Material material, int[] squares, Color sideToMove) { this(material, squares, sideToMove, -1); }

    /** {@code enPassant}: the square a pawn may take on en passant, or -1; {@link #illegalReason} checks it. */
    public Position(Material material, int[] squares, Color sideToMove, int enPassant) {
        if (squares.length != material.size())
            throw new IllegalArgumentException(material + " has " + material.size() + " pieces, not " + squares.length);
        long occupied = 0;
        for (int sq : squares) {
            if (sq < 0 || sq > 63) throw new IllegalArgumentException("not a square: " + sq);
            occupied |= Attacks.bit(sq);
        }
        this.occupied = occupied;
        if (enPassant < -1 || enPassant > 63) throw new IllegalArgumentException("not a square: " + enPassant);
        this.material = material;
        this.squares = squares.clone();
        this.sideToMove = sideToMove;
        this.enPassant = enPassant;
        sortIdenticalPieces();
        long pawns = 0;
        for (int bits = material.pawns(); bits != 0; bits &= bits - 1) pawns |= Attacks.bit(this.squares[Integer.numberOfTrailingZeros(bits)]);
        this.placeable = Long.bitCount(occupied) == squares.length && (pawns & FIRST_AND_LAST_RANKS) == 0;
    }

    private static final long FIRST_AND_LAST_RANKS = 0xFF000000000000FFL;

    /** The position of pieces in any order on their squares: sorted into the canonical order of their material. */
    static Position of(List<Piece> pieces, List<Integer> squares, Color sideToMove, int enPassant) {
        Material material = Material.of(pieces);
        int[] placed = new int[pieces.size()];
        boolean[] used = new boolean[pieces.size()];
        for (int i = 0; i < material.size(); i++)
            for (int j = 0; j < pieces.size(); j++)
                if (!used[j] && pieces.get(j).equals(material.piece(i))) {
                    used[j] = true;
                    placed[i] = squares.get(j);
                    break;
                }
        return new Position(material, placed, sideToMove, enPassant);
    }

    public static Position fromKey(Material material, long key) {
        int n = material.size();
        int[] squares = new int[n];
        for (int i = 0; i < n; i++) squares[i] = (int) (key >>> (6 * i)) & 63;
        return new Position(material, squares, ((key >>> (6 * n)) & 1) == 0 ? Color.WHITE : Color.BLACK);
    }

    /** A uniformly random legal position of {@code material} with {@code side} to move (for tests, fuzzing and benchmarks). */
    public static Position randomLegal(Material material, Color side, Random random) {
        int[] squares = new int[material.size()];
        while (true) {
            for (int i = 0; i < squares.length; i++) squares[i] = random.nextInt(64);
            Position p = new Position(material, squares, side);
            if (p.isLegal()) return p;
        }
    }

    public long key() {
        long key = sideToMove == Color.BLACK ? 1L << (6 * squares.length) : 0;
        for (int i = 0; i < squares.length; i++) key |= (long) squares[i] << (6 * i);
        return key;
    }

    public Material material() { return material; }

    public Color sideToMove() { return sideToMove; }

    /** The square a pawn of the side to move may take on en passant, or -1. */
    public int enPassant() { return enPassant; }

    public int square(int piece) { return squares[piece]; }

    public int[] squares() { return squares.clone(); }

    /** The squares themselves, not a copy, for readers in this package that do not change them (the index of a probe). */
    int[] squaresUnchanged() { return squares; }

    public Piece piece(int index) { return material.piece(index); }

    /** The index of the piece on {@code sq}, or -1. */
    public int pieceAt(int sq) {
        for (int i = 0; i < squares.length; i++) if (squares[i] == sq) return i;
        return -1;
    }

    public long occupied() { return occupied; }

    /** Whether a piece of {@code color} attacks {@code target}: the first attacker answers, no attack set is made. */
    public boolean attacks(Color color, int target) {
        for (int i = 0; i < squares.length; i++) {
            Piece p = piece(i);
            if (p.color() == color && Attacks.attacks(p.type(), color, squares[i], target, occupied)) return true;
        }
        return false;
    }

    public int kingSquare(Color color) { return squares[material.kingIndex(color)]; }

    public boolean inCheck() { return attacks(sideToMove.opponent(), kingSquare(sideToMove)); }

    /**
     * Each piece on a square of its own and no pawn on the first or last rank: the placements a table's index
     * holds, the cheapest part of {@link #illegalReason()} (computed once, so that a probe reads one field).
     */
    public boolean placeable() { return placeable; }

    public boolean kingsTouch() { return Square.distance(kingSquare(Color.WHITE), kingSquare(Color.BLACK)) <= 1; }

    /** Why the position cannot occur, or null when it is legal. */
    public String illegalReason() {
        if (placeable && enPassant < 0 && !kingsTouch() && !attacks(sideToMove, kingSquare(sideToMove.opponent()))) return null; // a probe's case
        for (int i = 0; i < squares.length; i++)
            for (int j = i + 1; j < squares.length; j++)
                if (squares[i] == squares[j]) return "two pieces on " + Square.name(squares[i]);
        if (kingsTouch()) return "the kings touch";
        for (int i = 0; i < squares.length; i++)
            if (piece(i).type() == PieceType.PAWN && (Square.rank(squares[i]) == 0 || Square.rank(squares[i]) == 7))
                return "a pawn on " + Square.name(squares[i]) + ", the first or last rank";
        if (enPassant >= 0 && !enPassantPossible())
            return "no pawn can just have moved two squares past " + Square.name(enPassant);
        Color waiting = sideToMove.opponent();
        if (attacks(sideToMove, kingSquare(waiting)))
            return (waiting == Color.WHITE ? "White" : "Black") + " is in check but it is "
                    + (sideToMove == Color.WHITE ? "White" : "Black") + "'s move";
        return null;
    }

    public boolean isLegal() { return illegalReason() == null; }

    /** Legal moves of the side to move (the position itself must be legal); a promotion is four moves, one per piece. */
    public List<Move> legalMoves() {
        List<Move> moves = new ArrayList<>();
        long occ = occupied();
        for (int i = 0; i < squares.length; i++) {
            Piece p = piece(i);
            if (p.color() != sideToMove) continue;
            if (p.type() == PieceType.PAWN) {
                pawnMoves(i, occ, moves);
                continue;
            }
            for (long t = Attacks.of(p.type(), squares[i], occ); t != 0; t &= t - 1)
                addIfLegal(moves, i, Long.numberOfTrailingZeros(t), null);
        }
        return moves;
    }

    /** A pawn's pushes (two from its second rank), captures and en passant; promotions on the last rank. */
    private void pawnMoves(int i, long occ, List<Move> moves) {
        int from = squares[i], step = sideToMove == Color.WHITE ? 8 : -8, to = from + step;
        if ((occ & Attacks.bit(to)) == 0) {
            addPawnMove(moves, i, to);
            int second = sideToMove == Color.WHITE ? 1 : 6;
            if (Square.rank(from) == second && (occ & Attacks.bit(to + step)) == 0) addIfLegal(moves, i, to + step, null);
        }
        for (long t = Attacks.pawn(sideToMove, from); t != 0; t &= t - 1) {
            int target = Long.numberOfTrailingZeros(t);
            if (target == enPassant || (occ & Attacks.bit(target)) != 0) addPawnMove(moves, i, target);
        }
    }

    private void addPawnMove(List<Move> moves, int i, int to) {
        if (Square.rank(to) == 0 || Square.rank(to) == 7) for (PieceType t : PieceType.PROMOTIONS) addIfLegal(moves, i, to, t);
        else addIfLegal(moves, i, to, null);
    }

    /** Adds the move of piece {@code i} to {@code to} unless it takes its own piece or a king, or leaves its king in check. */
    private void addIfLegal(List<Move> moves, int i, int to, PieceType promotion) {
        int victim = pieceAt(to);
        if (victim < 0 && to == enPassant && piece(i).type() == PieceType.PAWN) victim = pieceAt(to + (sideToMove == Color.WHITE ? -8 : 8));
        if (victim >= 0 && (piece(victim).color() == sideToMove || piece(victim).type() == PieceType.KING)) return;
        Move m = new Move(i, squares[i], to, victim, promotion);
        if (!play(m).leavesMoverInCheck()) moves.add(m);
    }

    /** Whether a pawn of the side that just moved stands beyond the en-passant square, with the square and the one behind it empty. */
    private boolean enPassantPossible() {
        int third = sideToMove == Color.WHITE ? 5 : 2, step = sideToMove == Color.WHITE ? -8 : 8;
        if (Square.rank(enPassant) != third) return false;
        int pawn = pieceAt(enPassant + step);
        return pawn >= 0 && piece(pawn).equals(new Piece(sideToMove.opponent(), PieceType.PAWN))
                && pieceAt(enPassant) < 0 && pieceAt(enPassant - step) < 0;
    }

    /**
     * Whether neither side can mate by any series of legal moves, as python-chess and shakmaty count it: no pawn, rook
     * or queen, and at most one knight or bishop, or bishops only, all on squares of one colour.
     */
    public boolean insufficientMaterial() {
        int minors = 0, knights = 0, bishopColours = 0;
        for (int i = 0; i < squares.length; i++)
            switch (piece(i).type()) {
                case PAWN, ROOK, QUEEN -> { return false; }
                case KNIGHT -> { minors++; knights++; }
                case BISHOP -> { minors++; bishopColours |= 1 << ((Square.file(squares[i]) + Square.rank(squares[i])) & 1); }
                case KING -> { }
            }
        return minors <= 1 || knights == 0 && Integer.bitCount(bishopColours) == 1;
    }

    public boolean isCheckmate() { return inCheck() && legalMoves().isEmpty(); }

    public boolean isStalemate() { return !inCheck() && legalMoves().isEmpty(); }

    /**
     * The position after {@code move}: a capture removes the taken piece from the material, a promotion changes the
     * pawn into its piece; after a double push the en-passant square is kept when an enemy pawn stands beside.
     */
    public Position play(Move move) {
        int mover = move.piece(), from = move.from(), to = move.to();
        int enPassantAfter = -1;
        if (piece(mover).type() == PieceType.PAWN && Math.abs(to - from) == 16) {
            Piece enemyPawn = new Piece(sideToMove.opponent(), PieceType.PAWN);
            for (long beside = Attacks.pawn(sideToMove, (from + to) / 2); beside != 0; beside &= beside - 1) {
                int taker = pieceAt(Long.numberOfTrailingZeros(beside)); // beside the pawn's new square
                if (taker >= 0 && piece(taker).equals(enemyPawn)) enPassantAfter = (from + to) / 2;
            }
        }
        int[] next = squares.clone();
        next[mover] = to;
        if (move.promotion() == null && !move.isCapture()) return new Position(material, next, sideToMove.opponent(), enPassantAfter);
        MaterialChange change = MaterialChange.of(material, move.captured(), move.promotion() == null ? -1 : mover, move.promotion());
        int[] after = new int[change.after().size()];
        change.squares(next, after);
        return new Position(change.after(), after, sideToMove.opponent());
    }

    /**
     * Every legal position one non-capturing, non-promoting half-move earlier: a piece of the side that just moved
     * steps back to a square it could have come from (a piece's moves are reversible, so the squares it came from
     * are the squares it attacks; a pawn steps back one square, or two to its second rank).
     */
    public List<Position> unmoves() {
        List<Position> before = new ArrayList<>();
        Color mover = sideToMove.opponent();
        long occ = occupied();
        for (int i = 0; i < squares.length; i++) {
            if (piece(i).color() != mover) continue;
            long origins = piece(i).type() == PieceType.PAWN ? pawnOrigins(mover, squares[i], occ) : Attacks.of(piece(i).type(), squares[i], occ) & ~occ;
            for (long o = origins; o != 0; o &= o - 1) {
                int[] prev = squares.clone();
                prev[i] = Long.numberOfTrailingZeros(o);
                Position p = new Position(material, prev, mover);
                if (p.isLegal()) before.add(p);
            }
        }
        return before;
    }

    /** The empty squares a pawn of {@code color} now on {@code sq} came from by a push. */
    private static long pawnOrigins(Color color, int sq, long occ) {
        int back = color == Color.WHITE ? -8 : 8, second = color == Color.WHITE ? 1 : 6;
        int one = sq + back;
        if (one < 0 || one > 63 || Square.rank(one) == (color == Color.WHITE ? 0 : 7) || (occ & Attacks.bit(one)) != 0) return 0;
        long origins = Attacks.bit(one);
        if (Square.rank(one + back) == second && Square.rank(sq) == second + 2 * (color == Color.WHITE ? 1 : -1)
                && (occ & Attacks.bit(one + back)) == 0) origins |= Attacks.bit(one + back);
        return origins;
    }

    /**
     * The same position seen from the other side: colours swapped, ranks mirrored, the other side to move (of
     * material {@link Material#coloursSwapped}); its value for the side to move is this one's.
     */
    public Position coloursSwapped() {
        return new Position(material.coloursSwapped(), coloursSwapped(material, squares), sideToMove.opponent(),
                enPassant < 0 ? -1 : Square.rankMirrored(enPassant));
    }

    /**
     * The squares of a position of {@code material} as those of its colours-swapped position: Black's pieces first, then
     * White's (each side's pieces keep their order), every square's rank mirrored.
     */
    public static int[] coloursSwapped(Material material, int[] squares) {
        int[] swapped = new int[material.size()];
        coloursSwapped(material, squares, swapped);
        return swapped;
    }

    /** {@link #coloursSwapped(Material, int[])} written into {@code out}, for the kernels that allocate nothing. */
    public static void coloursSwapped(Material material, int[] squares, int[] out) {
        int white = material.count(Color.WHITE), black = material.size() - white;
        for (int i = 0; i < black; i++) out[i] = Square.rankMirrored(squares[white + i]);
        for (int i = 0; i < white; i++) out[black + i] = Square.rankMirrored(squares[i]);
    }

    /** The position with every square moved by one of the eight board symmetries (see {@link Square#transform}). */
    public Position transform(int symmetry) {
        int[] t = new int[squares.length];
        for (int i = 0; i < t.length; i++) t[i] = Square.transform(squares[i], symmetry);
        return new Position(material, t, sideToMove);
    }

    /**
     * The symmetries of its material (eight without pawns, the left-right mirror with them), smallest first, whose
     * images of this position are distinct (the first of each equal pair): how many positions one canonical entry
     * stands for, fewer when the position is its own mirror image.
     */
    public int[] distinctImages() {
        int count = material.symmetries();
        List<Position> images = new ArrayList<>(count);
        int[] symmetries = new int[count];
        for (int s = 0; s < count; s++) {
            Position image = transform(s);
            if (images.contains(image)) continue;
            symmetries[images.size()] = s;
            images.add(image);
        }
        return Arrays.copyOf(symmetries, images.size());
    }

    private boolean leavesMoverInCheck() {
        Color mover = sideToMove.opponent();
        return attacks(sideToMove, kingSquare(mover));
    }

    private void sortIdenticalPieces() {
        int start = 0;
        for (int i = 1; i <= squares.length; i++) {
            if (i == squares.length || !piece(i).equals(piece(start))) {
                Arrays.sort(squares, start, i);
                start = i;
            }
        }
    }

    @Override public boolean equals(Object o) {
        return o instanceof Position p && p.material.equals(material) && p.sideToMove == sideToMove && p.enPassant == enPassant
                && Arrays.equals(p.squares, squares);
    }

    @Override public int hashCode() { return Long.hashCode(key()) * 31 + material.hashCode(); }

    @Override public String toString() { return Fen.of(this); }
}
