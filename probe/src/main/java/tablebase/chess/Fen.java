package tablebase.chess;

import java.util.ArrayList;
import java.util.List;

/**
 * FEN for pawnless positions. Reading checks the form (not legality: an illegal position parses, and
 * {@link Position#illegalReason()} says what is wrong with it).
 */
public final class Fen {
    private Fen() {}

    /** Raised for text that is not a FEN of a pawnless position; the message is one line. */
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
            throw new FenException("castling rights '" + fields[2] + "' do not apply to these endgames; use '-'");
        if (fields.length > 3 && !fields[3].equals("-"))
            throw new FenException("en passant square '" + fields[3] + "' needs pawns; use '-'");
        for (int i = 4; i < fields.length; i++)
            if (!fields[i].matches("\\d{1,4}")) throw new FenException("move counter '" + fields[i] + "' is not a number");

        Material material;
        try {
            material = Material.of(pieces);
        } catch (IllegalArgumentException e) {
            throw new FenException(e.getMessage());
        }
        // Place each piece at the index the material's canonical order gives it.
        int[] placed = new int[pieces.size()];
        boolean[] used = new boolean[pieces.size()];
        for (int i = 0; i < material.size(); i++) {
            for (int j = 0; j < pieces.size(); j++) {
                if (!used[j] && pieces.get(j).equals(material.piece(i))) {
                    used[j] = true;
                    placed[i] = squares.get(j);
                    break;
                }
            }
        }
        return new Position(material, placed, side);
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
                } else if ("KQRBNkqrbn".indexOf(c) >= 0) {
                    if (file > 7) throw new FenException("rank " + (rank + 1) + " has more than 8 squares");
                    pieces.add(Piece.fromFenLetter(c));
                    squares.add(Square.of(file, rank));
                    file++;
                } else if (c == 'P' || c == 'p') {
                    throw new FenException("pawns are not supported (pawnless endgames only)");
                } else {
                    throw new FenException("unexpected '" + c + "' on rank " + (rank + 1));
                }
                if (pieces.size() > MAX_PIECES) throw new FenException("more than " + MAX_PIECES + " pieces");
            }
            if (file != 8) throw new FenException("rank " + (rank + 1) + " has " + file + " squares, not 8");
        }
    }

    /** Writes the position as a full six-field FEN with no castling, no en passant and zero counters. */
    public static String of(Position position) {
        return of(position.material(), position.squares(), position.sideToMove());
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
                if (empty > 0) { sb.append(empty); empty = 0; }
                sb.append(c);
            }
            if (empty > 0) sb.append(empty);
            if (rank > 0) sb.append('/');
        }
        return sb.append(' ').append(sideToMove.fenLetter()).append(" - - 0 1").toString();
    }
}
