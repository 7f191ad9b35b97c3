package io.github.tablebase.generate;

import io.github.tablebase.chess.Material;

/** A ply's line for the progress: its wins or losses, its time and the bytes its shuffle wrote; the heap every tenth ply. */
final class PlyMeters implements AutoCloseable {
    private final ShuffleMeter shuffle;
    private final LiveHeap heap;
    private final SolveProgress progress;
    private final Material material;
    private final long entries;
    private long plyStart, shuffled, largestPly;
    private int lastPly;
    private ShuffleMeter.Reading before;

    PlyMeters(org.apache.spark.SparkContext sc, LiveHeap heap, SolveProgress progress, Material material, long entries) {
        this.shuffle = new ShuffleMeter(sc);
        this.heap = heap;
        this.progress = progress;
        this.material = material;
        this.entries = entries;
    }

    void plyStarts() {
        plyStart = System.nanoTime();
        before = shuffle.read();
    }

    /** Ply {@code q} found {@code found} entries, {@code decided} in all so far. */
    void plyDone(int q, long found, long decided) {
        if (q % 10 == 0) heap.sample();
        ShuffleMeter.Reading moved = shuffle.read().minus(before);
        shuffled += moved.bytes();
        largestPly = Math.max(largestPly, moved.bytes());
        if (found > 0) lastPly = q;
        progress.ply(material, q, decided, entries, true, String.format("%s: ply %2d: %,d %s  (%.2f s, shuffled %,d bytes)", material.name(), q,
                found, q % 2 == 1 ? "wins" : "losses", (System.nanoTime() - plyStart) / 1e9, moved.bytes()));
    }

    /** The last ply that decided an entry, of those measured. */
    int lastPly() { return lastPly; }

    /** The bytes the plies measured wrote to the shuffle, in all and in the largest. */
    long shuffled() { return shuffled; }

    long largestPly() { return largestPly; }

    @Override public void close() { shuffle.close(); }
}
