package io.github.tablebase.chess;

import java.util.ArrayList;
import java.util.List;

/**
 * FEN. Reading checks the form (not legality: an illegal position parses, and {@link Position#illegalReason()}
 * says what is wrong with it). Castling rights are out of scope (the field must be "-"); an en-passant square is
 * kept in the position.
 */
public final class Fen {
    private Fen() {}

    /** Raised for text that is not a FEN this project reads; the message is one line. */
    public static final class FenException extends IllegalArgumentException {
        FenException(String message) { super(message); }
    }

    private static final int MAX_PIECES = 10;

    /** Reads "board side [castling [en-passant [halfmove [fullmove]]]]"; castling and en passant must be "-". */
    public static Position parse(String fen) {
        if (fen == null || fen.isBlank()) throw new FenException("empty FEN");
        String[] fields = fen.trim().split("\\s+");
        if (fields.length < 2 || fields.length > 6)
            throw new FenException("a FEN has 2 to 6 fields (board, side to move, ...), this has " + fields.length);
        List<Piece> pieces = new ArrayList<>();
        List<Integer> squares = new ArrayList<>();
        readBoard(fields[0], pieces, squares);
        Color side = switch (fields[1]) {
            case "w" -> Color.WHITE;
            case "b" -> Color.BLACK;
            default -> throw new FenException("side to move must be 'w' or 'b', not '" + fields[1] + "'");
        };
        if (fields.length > 2 && !fields[2].equals("-"))
            throw new FenException("castling rights '" + fields[2] + "' are out of scope: endgame tables hold no castling; use '-'");
        int enPassant = -1;
        if (fields.length > 3 && !fields[3].equals("-")) {
            if (!fields[3].matches("[a-h][36]")) throw new FenException("en passant square '" + fields[3] + "' is not a square of the third or sixth rank");
            enPassant = Square.parse(fields[3]);
        }
        for (int i = 4; i < fields.length; i++)
            if (!fields[i].matches("\\d{1,4}")) throw new FenException("move counter '" + fields[i] + "' is not a number");

        try {
            return Position.of(pieces, squares, side, enPassant);
        } catch (IllegalArgumentException e) {
            throw new FenException(e.getMessage());
        }
    }

    private static void readBoard(String board, List<Piece> pieces, List<Integer> squares) {
        String[] ranks = board.split("/", -1);
        if (ranks.length != 8) throw new FenException("the board needs 8 ranks separated by '/', not " + ranks.length);
        for (int r = 0; r < 8; r++) {
            String row = ranks[r];
            int rank = 7 - r, file = 0;
            for (int k = 0; k < row.length(); k++) {
                char c = row.charAt(k);
                if (c >= '1' && c <= '8') {
                    file += c - '0';
                } else if ("KQRBNPkqrbnp".indexOf(c) >= 0) {
                    if (file > 7) throw new FenException("rank " + (rank + 1) + " has more than 8 squares");
                    pieces.add(Piece.fromFenLetter(c));
                    squares.add(Square.of(file, rank));
                    file++;
                } else {
                    throw new FenException("unexpected '" + c + "' on rank " + (rank + 1));
                }
                if (pieces.size() > MAX_PIECES) throw new FenException("more than " + MAX_PIECES + " pieces");
            }
            if (file != 8) throw new FenException("rank " + (rank + 1) + " has " + file + " squares, not 8");
        }
    }

    /** Writes the position as a full six-field FEN with no castling, its en-passant square and zero counters. */
    public static String of(Position position) {
        String fen = of(position.material(), position.squares(), position.sideToMove());
        return position.enPassant() < 0 ? fen : fen.replace(" - - 0 1", " - " + Square.name(position.enPassant()) + " 0 1");
    }

    /** The FEN of pieces of {@code material} on {@code squares} (same order), without building a Position. */
    public static String of(Material material, int[] squares, Color sideToMove) {
        char[] board = new char[64];
        for (int i = 0; i < squares.length; i++) board[squares[i]] = material.piece(i).fenLetter();
        StringBuilder sb = new StringBuilder(40);
        for (int rank = 7; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < 8; file++) {
                char c = board[Square.of(file, rank)];
                if (c == 0) { empty++; continue; }
                if (empty > 0) { sb.append((char) ('0' + empty)); empty = 0; }
                sb.append(c);
            }
            if (empty > 0) sb.append((char) ('0' + empty)); // a digit: append(int) formatted it, 6.5 % of a KQQKQ run's profile
            if (rank > 0) sb.append('/');
        }
        return sb.append(' ').append(sideToMove.fenLetter()).append(" - - 0 1").toString();
    }
}
