package io.github.tablebase.chess;

import java.util.List;

/** Standard algebraic notation (SAN): "Nf3", "Kxb3", "Bd5+", "Nc7#", "Nbd2", "e4", "exd5", "e8=Q+". */
public final class San {
    private San() {}

    /** The SAN of a legal {@code move} in {@code position}. */
    public static String of(Position position, Move move) { return of(position, move, position.legalMoves()); }

    /** The SAN of {@code move} among the position's {@code legal} moves (given, so that a list of SANs generates them once). */
    public static String of(Position position, Move move, List<Move> legal) {
        Position after = position.play(move);
        return of(position, move, legal, after.inCheck(), after.inCheck() && after.legalMoves().isEmpty());
    }

    /**
     * The SAN of {@code move} among the position's {@code legal} moves, whether it gives check and mates being known (a
     * prober knows mate from the table: the position after it is lost at ply 0), so that no move is played again.
     */
    public static String of(Position position, Move move, List<Move> legal, boolean check, boolean mate) {
        PieceType type = position.piece(move.piece()).type();
        StringBuilder san = new StringBuilder(8);
        if (type == PieceType.PAWN) {
            if (move.isCapture()) san.append(Square.name(move.from()).charAt(0)).append('x'); // a pawn is named by its file
        } else {
            san.append(type.letter());
            san.append(disambiguation(position, move, type, legal));
            if (move.isCapture()) san.append('x');
        }
        san.append(Square.name(move.to()));
        if (move.promotion() != null) san.append('=').append(move.promotion().letter());
        if (check) san.append(mate ? '#' : '+');
        return san.toString();
    }

    /** A line of moves from {@code start} as "1. Kb2 Kc7 2. Nd3 ..." ("1... Kc7" when Black moves first). */
    public static String line(Position start, List<Move> moves) {
        StringBuilder text = new StringBuilder();
        Position p = start;
        int number = 1;
        for (int i = 0; i < moves.size(); i++) {
            boolean white = p.sideToMove() == Color.WHITE;
            if (white) text.append(i == 0 ? "" : " ").append(number).append(". ");
            else if (i == 0) text.append(number).append("... ");
            else text.append(' ');
            text.append(of(p, moves.get(i)));
            if (!white) number++;
            p = p.play(moves.get(i));
        }
        return text.toString();
    }

    /** File, rank or both of the origin, when another piece of the same kind could also move there. */
    private static String disambiguation(Position position, Move move, PieceType type, List<Move> legal) {
        boolean sameFile = false, sameRank = false, other = false;
        for (Move m : legal) {
            if (m.to() != move.to() || m.piece() == move.piece() || position.piece(m.piece()).type() != type) continue;
            other = true;
            sameFile |= Square.file(m.from()) == Square.file(move.from());
            sameRank |= Square.rank(m.from()) == Square.rank(move.from());
        }
        if (!other) return "";
        String from = Square.name(move.from());
        if (!sameFile) return from.substring(0, 1);
        if (!sameRank) return from.substring(1);
        return from;
    }
}
