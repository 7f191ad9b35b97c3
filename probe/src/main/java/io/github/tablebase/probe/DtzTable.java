package io.github.tablebase.probe;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.Position;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A table's DTZ under the 50-move rule as {@link Dtz} codes, both sides to move: read from its packed file, or from
 * its compressed files, one a side to move (each a {@link CompressedTable} of that side, no marks). Lookups only
 * read: any number of threads may share one.
 */
public final class DtzTable implements EntryResults, AutoCloseable {
    private final IndexedTable packed;
    /** The compressed tables by side to move, or null where the packed file is read. */
    private final CompressedTable[] sides;

    private DtzTable(IndexedTable packed, CompressedTable[] sides) {
        this.packed = packed;
        this.sides = sides;
    }

    /** The DTZ of the packed part files {@code files}. */
    public static DtzTable packed(List<Path> files) throws IOException { return new DtzTable(IndexedTable.open(files), null); }

    /** The DTZ of the compressed part files of White to move and of Black to move, their blocks held in {@code cache}. */
    public static DtzTable compressed(List<Path> white, List<Path> black, BlockCache cache) throws IOException {
        CompressedTable w = CompressedTable.openSide(white, cache, Color.WHITE);
        try {
            CompressedTable b = CompressedTable.openSide(black, cache, Color.BLACK);
            if (!b.material().equals(w.material())) {
                b.close();
                throw new CorruptTableException(black.get(0) + " holds " + b.material() + ", " + white.get(0) + " " + w.material());
            }
            return new DtzTable(null, new CompressedTable[] {w, b});
        } catch (IOException | RuntimeException e) {
            w.close();
            throw e;
        }
    }

    /**
     * The DTZ a table's manifest lists in {@code folder}: the compressed files unless {@code packedFirst} and the
     * packed file is there (as the DTM is read), or the packed file where the compressed ones are not listed.
     */
    public static DtzTable open(Path folder, Manifest.DtzFigures dtz, BlockCache cache, boolean packedFirst) throws IOException {
        List<Manifest.FileEntry> compressed = dtz.compressedFiles();
        if (compressed == null || packedFirst && dtz.files() != null)
            return packed(dtz.files().stream().map(f -> folder.resolve(f.name())).toList());
        List<Path> files = compressed.stream().map(f -> folder.resolve(f.name())).toList();
        return compressed(Manifest.DtzFigures.ofSide(files, Color.WHITE), Manifest.DtzFigures.ofSide(files, Color.BLACK), cache);
    }

    public Material material() { return packed != null ? packed.material() : sides[0].material(); }

    /** The bytes its compressed sides' blocks take decoded, a byte an entry (0 where the packed file is read). */
    long decodedBytes() { return sides == null ? 0 : sides[0].index().size() + sides[1].index().size(); }

    /** The code of entry {@code 2 * index + side}; an index without a canonical legal position may read any code. */
    @Override public int result(long entry) {
        return packed != null ? packed.result(entry) : sides[(int) (entry & 1)].result(entry >>> 1);
    }

    /** The code of a legal position of this table's material (an illegal one is an {@link IllegalPositionException}). */
    public int code(Position p) {
        if (packed != null) return packed.result(packed.entry(p));
        CompressedTable side = sides[p.sideToMove().ordinal()];
        return side.result(side.entry(p));
    }

    /** The compressed files are closed and their blocks dropped; a packed file's mapping goes with this object. */
    @Override public void close() {
        if (sides != null) for (CompressedTable side : sides) side.close();
    }
}
