package io.github.tablebase.chess;

import java.io.Serializable;

/**
 * Moves and un-moves of one material on plain square arrays (material order, as {@link PositionIndex#decode}
 * writes them), without allocating: the per-position work of a generator, which makes them by the billion.
 * {@link Position} is the readable form of the same rules; the tests hold the two to each other.
 *
 * <p>A move is coded {@code enPassant << 18 | promotion << 15 | piece << 12 | from << 6 | to}: {@code piece} the
 * mover's index in the material, {@code promotion} 0 or 1 + the piece's place in {@link PieceType#PROMOTIONS},
 * {@code enPassant} 1 for a pawn taking the pawn beside it. Positions of a table have no en-passant right: only
 * {@link #enPassantCaptures} makes such captures.
 */
public final class MoveGenerator implements Serializable {
    private static final int PROMOTION_SHIFT = 15, EN_PASSANT = 1 << 18;
    private final Material material;
    private final PieceType[] types;
    private final int[] colors;
    private final int[] kings = new int[2];
    /** The most legal moves each side can have: a lookup's buffer sized to its side, not to 256. */
    private final int[] mostMoves = new int[2];

    public MoveGenerator(Material material) {
        this.material = material;
        int n = material.size();
        types = new PieceType[n];
        colors = new int[n];
        for (int i = 0; i < n; i++) {
            types[i] = material.piece(i).type();
            colors[i] = material.piece(i).color() == Color.WHITE ? 0 : 1;
            mostMoves[colors[i]] += switch (types[i]) {
                case KING, KNIGHT -> 8;
                case QUEEN -> 27;
                case ROOK -> 14;
                case BISHOP -> 13;
                case PAWN -> 12; // a push and two captures, each to the last rank: four promotions each
            };
        }
        kings[0] = material.kingIndex(Color.WHITE);
        kings[1] = material.kingIndex(Color.BLACK);
    }

    public Material material() { return material; }

    /** At least as many as the legal moves {@code side} can have in any position: room enough for {@link #legalMoves}. */
    public int mostMoves(int side) { return mostMoves[side]; }

    public static int piece(int move) { return move >>> 12 & 7; }

    public static int from(int move) { return move >>> 6 & 63; }

    public static int to(int move) { return move & 63; }

    /** The piece a pawn becomes, or null. */
    public static PieceType promotion(int move) { return promotedPiece(promotionCode(move)); }

    /** The piece of a {@link #promotionCode}, or null for 0. */
    public static PieceType promotedPiece(int promotionCode) { return promotionCode == 0 ? null : PieceType.PROMOTIONS[promotionCode - 1]; }

    /** 0, or 1 + the promoted piece's place in {@link PieceType#PROMOTIONS}. */
    public static int promotionCode(int move) { return move >>> PROMOTION_SHIFT & 7; }

    public static boolean isEnPassant(int move) { return (move & EN_PASSANT) != 0; }

    /** The index of the piece a move takes, or -1. */
    public static int captured(int[] squares, int move) {
        int to = to(move);
        return pieceAt(squares, isEnPassant(move) ? (from(move) & ~7) | (to & 7) : to);
    }

    /** Whether the move keeps the material: it neither takes nor promotes. */
    public static boolean staysInTable(int[] squares, int move) { return staysInTable(occupied(squares), move); }

    /** {@link #staysInTable(int[], int)} from the squares' {@link #occupied} bits, for the moves of one position. */
    public static boolean staysInTable(long occupied, int move) {
        return (move >>> PROMOTION_SHIFT) == 0 && (occupied & 1L << to(move)) == 0;
    }

    /** Whether the move is a pawn's push of two squares. */
    public boolean isDoublePush(int move) {
        return types[piece(move)] == PieceType.PAWN && Math.abs(to(move) - from(move)) == 16;
    }

    /** The side (0 White, 1 Black) of piece {@code i}. */
    public int side(int i) { return colors[i]; }

    public boolean isKing(int i) { return types[i] == PieceType.KING; }

    public int king(int side) { return kings[side]; }

    public static long occupied(int[] squares) {
        long occ = 0;
        for (int sq : squares) occ |= 1L << sq;
        return occ;
    }

    /** The index of the piece on {@code sq}, or -1. */
    public static int pieceAt(int[] squares, int sq) {
        for (int i = 0; i < squares.length; i++) if (squares[i] == sq) return i;
        return -1;
    }

    /** Whether a piece of {@code side}, other than piece {@code skip} (a captured one, or -1), attacks {@code target}. */
    public boolean attacked(int[] squares, long occupied, int target, int side, int skip) {
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] != side || i == skip) continue;
            if (Attacks.attacks(types[i], side == 0 ? Color.WHITE : Color.BLACK, squares[i], target, occupied)) return true;
        }
        return false;
    }

    /** Whether the side not to move is in check (the position cannot occur); the kings never touch in an index. */
    public boolean opponentInCheck(int[] squares, int sideToMove) {
        return attacked(squares, occupied(squares), squares[kings[1 - sideToMove]], sideToMove, -1);
    }

    public boolean inCheck(int[] squares, int sideToMove) {
        return attacked(squares, occupied(squares), squares[kings[sideToMove]], 1 - sideToMove, -1);
    }

    /** Writes the legal moves of {@code side} into {@code out} (room for {@link #mostMoves}) and returns how many; the position must be legal. */
    public int legalMoves(int[] squares, int side, int[] out) { return legalMoves(squares, side, false, out); }

    /** {@link #legalMoves} that leave the table: the captures and the promotions (no en passant: see {@link #enPassantCaptures}). */
    public int legalExits(int[] squares, int side, int[] out) { return legalMoves(squares, side, true, out); }

    /**
     * The legal moves of {@code side} as a retrograde init needs them: those that stay in the table counted, not
     * listed (a piece neither pinned nor a pawn by its targets' bits), and those that leave it, as {@link #legalExits}
     * gives them, written into {@code exits}; returns {@code quiet << 16 | exits written}.
     */
    public int countedMoves(int[] squares, int side, int[] exits) { return legalMoves(squares, side, false, true, exits); }

    private int legalMoves(int[] squares, int side, boolean exitsOnly, int[] out) { return legalMoves(squares, side, exitsOnly, false, out); }

    private int legalMoves(int[] squares, int side, boolean exitsOnly, boolean countQuiet, int[] out) {
        long occ = occupied(squares);
        int king = kings[side], kingSquare = squares[king], n = 0;
        long own = occupiedBy(squares, side), open = ~(own | 1L << squares[kings[1 - side]]); // no move takes its own piece or a king
        long targets = exitsOnly ? occ & open : open;
        // The squares the other side attacks with the king lifted off (no line stops at it), and the checkers: the king
        // steps where none attacks, another piece in check only takes the checker or steps between, a pinned piece is
        // tested move by move (en passant, which also empties another square, is apart).
        long unsafe = 0, checkers = 0, withoutKing = occ & ~(1L << kingSquare);
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] == side) continue;
            long attacks = types[i] == PieceType.PAWN ? Attacks.pawn(side == 0 ? Color.BLACK : Color.WHITE, squares[i])
                    : Attacks.of(types[i], squares[i], withoutKing);
            unsafe |= attacks;
            if ((attacks & 1L << kingSquare) != 0) checkers |= 1L << squares[i];
        }
        long evasions = checkers == 0 ? -1L : checkers | Attacks.between(Long.numberOfTrailingZeros(checkers), kingSquare);
        long pinned = pinned(squares, side, occ, own);
        boolean doubleCheck = Long.bitCount(checkers) > 1;
        int quiet = 0;
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] != side) continue;
            int from = squares[i];
            if (i == king) {
                long t = Attacks.king(from) & targets & ~unsafe;
                if (countQuiet) {
                    quiet += Long.bitCount(t & ~occ);
                    t &= occ;
                }
                for (; t != 0; t &= t - 1) out[n++] = i << 12 | from << 6 | Long.numberOfTrailingZeros(t);
                continue;
            }
            if (doubleCheck) continue;
            boolean test = (pinned & 1L << from) != 0;
            int first = n;
            if (types[i] == PieceType.PAWN) {
                n = pawnMoves(squares, side, i, occ, open & evasions, exitsOnly, test, out, n);
            } else {
                long t = Attacks.of(types[i], from, occ) & targets & evasions;
                if (countQuiet && !test) {
                    quiet += Long.bitCount(t & ~occ);
                    t &= occ;
                }
                for (; t != 0; t &= t - 1) n = addIfLegal(squares, side, i, Long.numberOfTrailingZeros(t), occ, test, out, n, false);
            }
            if (!countQuiet) continue;
            int kept = first; // a pawn's or a pinned piece's moves listed: the quiet ones counted instead
            for (int k = first; k < n; k++) if (staysInTable(occ, out[k])) quiet++; else out[kept++] = out[k];
            n = kept;
        }
        return countQuiet ? quiet << 16 | n : n;
    }

    /**
     * The pieces of {@code side} (on {@code own}) that stand alone between their king and an enemy rook, bishop or
     * queen on its line: the only ones but the king whose moves may leave the king attacked when it is not in check.
     */
    long pinned(int[] squares, int side, long occ, long own) {
        int king = squares[kings[side]];
        long pinned = 0;
        for (int i = 0; i < squares.length; i++) {
            PieceType type = types[i];
            if (colors[i] == side || type == PieceType.PAWN || type == PieceType.KNIGHT || type == PieceType.KING) continue;
            if (!Attacks.attacks(type, squares[i], king, 0)) continue; // not on a line of its kind through the king
            long between = Attacks.between(squares[i], king) & occ;
            if (Long.bitCount(between) == 1 && (between & own) != 0) pinned |= between;
        }
        return pinned;
    }

    /** The squares of the pieces of {@code side}. */
    long occupiedBy(int[] squares, int side) {
        long own = 0;
        for (int i = 0; i < squares.length; i++) if (colors[i] == side) own |= 1L << squares[i];
        return own;
    }

    /**
     * A pawn's pushes (two from its second rank; with {@code promotionsOnly}, only to the last rank) and captures,
     * each to an {@code allowed} square only, each promotion four moves.
     */
    private int pawnMoves(int[] squares, int side, int i, long occ, long allowed, boolean promotionsOnly, boolean test, int[] out, int n) {
        int from = squares[i], step = side == 0 ? 8 : -8, one = from + step, two = one + step;
        if ((occ & 1L << one) == 0) {
            boolean promotes = Square.rank(one) % 7 == 0;
            if ((allowed & 1L << one) != 0 && (promotes || !promotionsOnly)) n = addIfLegal(squares, side, i, one, occ, test, out, n, true);
            if (!promotionsOnly && Square.rank(from) == (side == 0 ? 1 : 6) && (occ & 1L << two) == 0 && (allowed & 1L << two) != 0)
                n = addIfLegal(squares, side, i, two, occ, test, out, n, false);
        }
        for (long t = Attacks.pawn(side == 0 ? Color.WHITE : Color.BLACK, from) & occ & allowed; t != 0; t &= t - 1)
            n = addIfLegal(squares, side, i, Long.numberOfTrailingZeros(t), occ, test, out, n, true);
        return n;
    }

    /**
     * Adds the move of piece {@code i}, not the king, to {@code to} (an empty square or an enemy piece but the king)
     * unless ({@code test}: a pinned piece) it leaves its king in check; a pawn reaching the last rank adds its four
     * promotions.
     */
    private int addIfLegal(int[] squares, int side, int i, int to, long occ, boolean test, int[] out, int n, boolean mayPromote) {
        int from = squares[i];
        if (test) {
            int victim = (occ & 1L << to) == 0 ? -1 : pieceAt(squares, to);
            squares[i] = to;
            boolean safe = !attacked(squares, occ ^ 1L << from | 1L << to, squares[kings[side]], 1 - side, victim);
            squares[i] = from;
            if (!safe) return n;
        }
        int move = i << 12 | from << 6 | to;
        if (mayPromote && (Square.rank(to) == 0 || Square.rank(to) == 7))
            for (int p = 1; p <= PieceType.PROMOTIONS.length; p++) out[n++] = move | p << PROMOTION_SHIFT;
        else out[n++] = move;
        return n;
    }

    /**
     * Writes into {@code out} the legal en-passant captures of {@code side} if the other side's pawn {@code pushed}
     * has just moved two squares (it stands on its fourth rank), and returns how many.
     */
    public int enPassantCaptures(int[] squares, int side, int pushed, int[] out) {
        int sq = squares[pushed], target = sq + (side == 0 ? 8 : -8), n = 0;
        long occ = occupied(squares);
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] != side || types[i] != PieceType.PAWN || Square.rank(squares[i]) != Square.rank(sq)
                    || Math.abs(squares[i] - sq) != 1) continue;
            int from = squares[i], king = squares[kings[side]];
            squares[i] = target;
            boolean safe = !attacked(squares, occ ^ 1L << from ^ 1L << sq | 1L << target, king, 1 - side, pushed);
            squares[i] = from;
            if (safe) out[n++] = EN_PASSANT | i << 12 | from << 6 | target;
        }
        return n;
    }

    /**
     * {@link #legalMoves} sorted by from-square, then to-square, then promotion (queen, rook, bishop, knight): the
     * order in which a packed file ranks a best move.
     */
    public int sortedLegalMoves(int[] squares, int side, int[] out) {
        int n = legalMoves(squares, side, out);
        for (int k = 0; k < n; k++) out[k] = ((out[k] & 0xFFF) << 3 | out[k] >>> PROMOTION_SHIFT) << 3 | piece(out[k]);
        java.util.Arrays.sort(out, 0, n);
        for (int k = 0; k < n; k++) out[k] = (out[k] >>> 3 & 7) << PROMOTION_SHIFT | (out[k] & 7) << 12 | out[k] >>> 6;
        return n;
    }

    /**
     * Writes the un-moves into {@code out} (room for 256): every legal position one non-capturing, non-promoting
     * half-move earlier, where a piece of the side that just moved (not {@code sideToMove}) steps back to an empty
     * square it attacks (a piece's moves are reversible), or a pawn steps back one square, or two to its second
     * rank. Each is coded as a move from the earlier position: {@code piece << 12 | origin << 6 | square now}. With
     * {@code kingsToo} false the kings' un-moves are left out, with {@code others} false the other pieces'.
     */
    public int unmoves(int[] squares, int sideToMove, boolean kingsToo, boolean others, int[] out) {
        int mover = 1 - sideToMove;
        long occ = occupied(squares);
        int waitingKing = squares[kings[sideToMove]], n = 0;
        // Earlier, the mover was to move: the waiting king was not in check. Found for all of a piece's origins at
        // once: a knight or pawn that gives check now gave it before (unless it is the piece that moved), a line
        // clear but for the square left now was blocked only by the origin, and the piece was not on a square
        // from which it attacks the king.
        int leaperChecks = 0, leaperChecker = -1;
        long clearLines = 0; // pieces whose line to the king nothing but the moved piece may block
        for (int j = 0; j < squares.length; j++) {
            if (colors[j] != mover || j == kings[mover]) continue;
            if (types[j] == PieceType.KNIGHT || types[j] == PieceType.PAWN) {
                if (Attacks.attacks(types[j], mover == 0 ? Color.WHITE : Color.BLACK, squares[j], waitingKing, occ)) {
                    leaperChecks++;
                    leaperChecker = j;
                }
            } else if (Attacks.attacks(types[j], squares[j], waitingKing, 0)
                    && Long.bitCount(Attacks.between(squares[j], waitingKing) & occ) <= 1) {
                clearLines |= 1L << j;
            }
        }
        if (leaperChecks > 1) return 0;
        for (int i = 0; i < squares.length; i++) {
            if (colors[i] != mover || (i == kings[mover] ? !kingsToo : !others) || leaperChecks == 1 && i != leaperChecker) continue;
            int now = squares[i];
            long origins = types[i] == PieceType.PAWN ? pawnOrigins(mover, now, occ) : Attacks.of(types[i], now, occ) & ~occ;
            long left = occ & ~(1L << now);
            // from its origin, the piece must not attack the king (the king's own: not next to it)
            origins &= ~(types[i] == PieceType.PAWN ? Attacks.pawn(mover == 0 ? Color.BLACK : Color.WHITE, waitingKing)
                    : Attacks.of(types[i], waitingKing, left));
            for (long lines = clearLines & ~(1L << i); lines != 0 && origins != 0; lines &= lines - 1) {
                long between = Attacks.between(squares[Long.numberOfTrailingZeros(lines)], waitingKing);
                if ((between & left) == 0) origins &= between; // open once the piece left: its origin blocked it
            }
            for (long o = origins; o != 0; o &= o - 1) out[n++] = i << 12 | Long.numberOfTrailingZeros(o) << 6 | now;
        }
        return n;
    }

    /** The empty squares a pawn of {@code side} now on {@code sq} came from by a push: never its first rank. */
    private static long pawnOrigins(int side, int sq, long occ) {
        int back = side == 0 ? -8 : 8, one = sq + back, rank = Square.rank(sq);
        if (rank == (side == 0 ? 1 : 6) || (occ & 1L << one) != 0) return 0;
        long origins = 1L << one;
        if (rank == (side == 0 ? 3 : 4) && (occ & 1L << (one + back)) == 0) origins |= 1L << (one + back);
        return origins;
    }
}
