package io.github.tablebase.output;

import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryPlane;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.LatePlies;
import io.github.tablebase.probe.Manifest.FileEntry;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.ResultPlane;
import io.github.tablebase.probe.EntryResults;
import io.github.tablebase.table.DtzCount;
import io.github.tablebase.table.RunSettings;
import io.github.tablebase.table.SmallerTables;
import io.github.tablebase.table.SolvedPartition;
import io.github.tablebase.table.SolvedTable;
import io.github.tablebase.table.Successors;
import io.github.tablebase.table.TableFiles;
import io.github.tablebase.table.TablePlan;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Writes a solved table into a folder: {@code parquet/} (one row per canonical position and side
 * to move, see {@link PositionRows#schema}), the packed {@link IndexedTable} part files, for KBNK the seed's
 * {@link PackedTable} file, and {@code manifest.json}, which also names the folders of the smaller tables its
 * captures lead to.
 */
public final class TableExport {
    public static final String PARQUET = "parquet";

    /**
     * Facts about the run that the table itself does not hold; the wall time runs from {@code startNanos} to the manifest.
     * {@code bestMoves}: whether anything keeps the best moves (the Parquet rows, or packed files the run keeps); else the
     * export searches only the marks of the compressed files, and the packed files, read only for their results, hold none.
     */
    public record Run(String projectVersion, String sparkVersion, String master, int partitions, long startNanos, boolean parquet,
                      boolean bestMoves) {
        public Run {
            if (parquet && !bestMoves) throw new IllegalArgumentException("the Parquet rows hold the best moves");
        }
    }

    private TableExport() {}

    /** The folder of a smaller table, next to the folder of the table that needs it: {@code kqk} beside {@code kqkr}. */
    public static String folderName(Material material) { return material.name().toLowerCase(); }

    /** The staging folder's hidden folder of the solved partitions' result planes, deleted before the commit. */
    static final String RESULT_PLANES = "_result_planes";

    /**
     * Writes everything into the folder's staging area (the caller commits) and returns what it wrote. The
     * executors write it all, each for its own king pairs, in three jobs (one when one task solved the table and it
     * has one part): first each solved partition's result plane, then one task choosing the side to move the
     * compressed files store ({@link #storedSide}), then, one task per part file of {@code entriesPerFile}
     * entries at most, the part's best moves (from the result planes and {@code smaller}'s files, mapped), its
     * Parquet file and its packed and compressed files; for KBNK the seed file, in a job beside the parts'. With
     * {@code dtz} (null: none), a job before them writes its DTZ file, which the parts' Parquet rows read. Where the
     * parts are fewer than the cores, each part's task uses the idle ones: its best moves on every core, its rows on a
     * thread beside its packed and compressed files, whose blocks are compressed on every core (cheaper than cutting
     * the part into slices and joining their pieces in one more job). The driver gets figures, checksums and when the
     * last Parquet file was in place.
     */
    public static Written write(SparkSession spark, SolvedTable table, SmallerTables smaller, OutputFolder folder, Run run,
                                            long entriesPerFile, JavaRDD<SolvedPartition> dtz) throws IOException {
        Material material = table.material();
        PositionIndex index = table.index();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        boolean markCaptures = RunSettings.of(jsc).markCaptures();
        String staging = folder.staging().toString(), planes = new Path(staging, RESULT_PLANES).toString();
        boolean parquet = run.parquet(), moves = run.bestMoves();
        FutureTask<FileEntry> seed = null;
        try {
            // the DTZ first: the parts' Parquet rows read it from its file
            long[] starts = IndexedTable.partStarts(index, entriesPerFile);
            int parts = starts.length - 1;
            DtzWritten dtzWritten = null;
            if (dtz != null) dtzWritten = writeDtz(jsc, staging, index, starts, dtz, new Path(planes, "dtz").toString(), smaller);
            List<String> dtzParts = dtzWritten == null || !parquet ? null
                    : dtzWritten.files().stream().map(f -> new Path(staging, f.name()).toString()).toList();
            // a job of fewer parts than cores would leave cores idle: its tasks use them
            boolean spareCores = parts < jsc.defaultParallelism();
            List<PartWritten> written;
            String description = material.name() + ": best moves, Parquet rows and packed files";
            if (table.partitions().getNumPartitions() == 1 && parts == 1 && !material.equals(PackedTable.KBNK)) {
                // solved in one task and written in one part: that task's block is the whole table, read where it is
                jsc.setJobDescription(description);
                written = table.partitions().map(solved -> {
                    Successors successors = new Successors(material, new ResultPlane(EntryPlane.of(solved.results()), solved.late()), smaller.open());
                    Marks marks = markCaptures ? (lo, hi, side) -> sideMarks(solved.byExits(), 0, lo, hi, side) : NO_MARKS;
                    SideChoice side = storedSide(successors, index, marks);
                    // the choice weighed this whole part: its marks and its ranking of the orders serve the writer
                    boolean whole = side.lo() == 0 && side.hi() == index.size();
                    BestMoves part = whole && !moves ? side.marks()
                            : bestMoves(successors, index, 0, index.size(), side.side(), marks.of(0, index.size(), side.side()), spareCores, moves);
                    return writePartAndRows(staging, index, 0, part, whole ? side.ranking() : null, starts, spareCores, parquet, dtzParts, smaller.hadoop());
                }).collect();
            } else {
                jsc.setJobDescription(material.name() + ": result planes");
                List<PlaneFile> files = table.partitions().map(b -> writePlane(planes, b, smaller.hadoop())).collect();
                if (material.equals(PackedTable.KBNK)) // a job of its own, run beside the parts' on the cores they leave
                    seed = started("seed file", () -> {
                        jsc.setJobDescription(material.name() + ": the seed's file");
                        return writeSeed(jsc, staging, index, files, smaller);
                    });
                jsc.setJobDescription(material.name() + ": the side to move its compressed files store");
                Color stored = jsc.parallelize(List.of(0), 1).map(x -> storedSide(successors(material, files, smaller), index,
                        planeMarks(files, markCaptures, smaller.hadoop())).side()).first();
                jsc.setJobDescription(description);
                written = jsc.parallelize(IntStream.range(0, parts).boxed().toList(), parts).map(k -> writePartAndRows(staging, index, k,
                        bestMoves(successors(material, files, smaller), index, starts[k], starts[k + 1], stored,
                                planeMarks(files, markCaptures, smaller.hadoop()).of(starts[k], starts[k + 1], stored), spareCores, moves), null,
                        starts, spareCores, parquet, dtzParts, smaller.hadoop())).collect();
            }
            FileEntry seedFile = seed == null ? null : joined(seed); // before the planes it reads are deleted
            FileSystem fs = new Path(planes).getFileSystem(jsc.hadoopConfiguration());
            fs.delete(new Path(planes), true);
            Manifest manifest = writeManifest(table, written.stream().map(PartWritten::part).toList(),
                    parquet ? written.stream().map(PartWritten::rows).toList() : null, seedFile, dtzWritten, folder, run);
            return new Written(manifest, written.stream().mapToLong(PartWritten::rowsDoneMillis).max().orElseThrow());
        } finally {
            jsc.setJobDescription(null);
            if (seed != null) joinedQuietly(seed); // after a failure elsewhere, the seed's job may still write into the staging folder
        }
    }

    /** Runs {@code work} on a thread of its own, started now (a Spark job's thread inherits this one's job properties). */
    static <T> FutureTask<T> started(String name, Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    /** What {@code task} returned, or its failure thrown as it was. */
    static <T> T joined(FutureTask<T> task) throws IOException {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for " + task);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) throw io;
            if (cause instanceof RuntimeException runtime) throw runtime;
            if (cause instanceof Error error) throw error;
            throw new IOException(cause);
        }
    }

    /** A table written: its manifest, and the wall-clock time (epoch milliseconds) its last Parquet file was in place. */
    public record Written(Manifest manifest, long rowsDoneMillis) {}

    /**
     * What a part's task wrote: the manifest entries of its Parquet file and of its packed and compressed files, and
     * the wall-clock time its Parquet file was in place (the executors' clocks, as Spark's own task times).
     */
    record PartWritten(FileEntry rows, long rowsDoneMillis, PartFiles part) implements Serializable {}

    /**
     * The part kernel: writes part {@code k}'s Parquet file (unless not {@code parquet}; with the DTZ of {@code dtzParts},
     * a packed table of {@link Dtz} codes, unless null) and its packed and compressed files.
     */
    private static PartWritten writePartAndRows(String staging, PositionIndex index, int k, BestMoves b, CompressedTable.Ranking ranking, long[] starts,
                                                boolean spareCores,
                                                boolean parquet, List<String> dtzParts, Configuration hadoop) throws IOException {
        String attempt = attempt();
        if (!parquet) return new PartWritten(null, 0, writePart(staging, index, starts, b, ranking, hadoop));
        if (!spareCores) {
            FileEntry rows = writeRows(staging, index, k, b, dtzParts, attempt, hadoop);
            long rowsDone = System.currentTimeMillis();
            return new PartWritten(rows, rowsDone, writePart(staging, index, starts, b, ranking, hadoop));
        }
        long[] rowsDone = new long[1]; // set by the rows' thread before it ends, read after
        FutureTask<FileEntry> rows = started("Parquet rows", () -> {
            FileEntry entry = writeRows(staging, index, k, b, dtzParts, attempt, hadoop);
            rowsDone[0] = System.currentTimeMillis();
            return entry;
        });
        PartFiles part;
        try {
            part = writePart(staging, index, starts, b, ranking, hadoop);
        } finally {
            joinedQuietly(rows); // never a task's end with its rows still being written
        }
        return new PartWritten(joined(rows), rowsDone[0], part); // joined first: rowsDone is set once it returns
    }

    /** Waits for {@code task} to end, its failure left for {@link #joined} to throw (or for one thrown already to stand). */
    private static void joinedQuietly(FutureTask<?> task) {
        try {
            task.get();
        } catch (ExecutionException e) {
            // joined() rethrows it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes part {@code k}'s Parquet file (see {@link ParquetRows}), with the DTZ of the packed parts {@code dtzParts}
     * unless null, as task attempt {@code attempt}, and returns its manifest entry.
     */
    private static FileEntry writeRows(String staging, PositionIndex index, int k, BestMoves b, List<String> dtzParts, String attempt,
                                       Configuration hadoop)
            throws IOException {
        String name = ParquetRows.fileName(k);
        long[] bytes = new long[1];
        List<java.nio.file.Path> dtzFiles = new ArrayList<>();
        if (dtzParts != null) for (String part : dtzParts) dtzFiles.add(TableFiles.local(new Path(part), hadoop));
        IndexedTable dtz = dtzParts == null ? null : IndexedTable.open(dtzFiles);
        String sha256 = writeAside(new Path(new Path(staging, PARQUET), name), hadoop, attempt, out -> bytes[0] = ParquetRows.write(index, b, dtz, hadoop, out));
        return new FileEntry(name, bytes[0], sha256);
    }

    /**
     * A solved partition's result plane in a file: entries {@code first .. end - 1} from its start, then their late
     * plies; and its {@link SolvedPartition#byExits} in a file of their own ({@code marksUri}: a word count, then the words).
     */
    record PlaneFile(String uri, long first, long end, String marksUri) implements Serializable {}

    /** The hand-off kernel: writes a solved partition's result bytes and late plies, and its marks, into files of their own under {@code dir}. */
    static PlaneFile writePlane(String dir, SolvedPartition block, Configuration hadoop) throws IOException {
        Path file = new Path(dir, String.format("plane-%016d", block.lo())), marks = new Path(dir, String.format("marks-%016d", block.lo()));
        writeAside(file, hadoop, out -> {
            out.write(block.results());
            block.late().writeTo(out);
        });
        writeAside(marks, hadoop, out -> {
            DataOutputStream data = new DataOutputStream(out);
            long[] words = block.byExits().toLongArray();
            data.writeInt(words.length);
            for (long word : words) data.writeLong(word);
            data.flush();
        });
        return new PlaneFile(file.toString(), 2 * block.lo(), 2 * block.hi(), marks.toString());
    }

    /** Where the compressed files may mark a side's entries: of indexes {@code lo .. hi - 1}, by offset from {@code lo}. */
    interface Marks {
        BitSet of(long lo, long hi, Color side) throws IOException;
    }

    /** No entry marked (a run that does not mark them). */
    static final Marks NO_MARKS = (lo, hi, side) -> new BitSet();

    /**
     * Of {@code byEntry}, marks by entry from entry {@code first} (as {@link SolvedPartition#byExits}), those of
     * {@code side}'s indexes {@code lo .. hi - 1}, by offset from {@code lo}.
     */
    static BitSet sideMarks(BitSet byEntry, long first, long lo, long hi, Color side) {
        BitSet marks = new BitSet();
        long from = Math.max(0, 2 * lo - first), to = 2 * hi - first;
        if (to <= 0) return marks;
        for (int e = byEntry.nextSetBit((int) from); e >= 0 && e < to; e = byEntry.nextSetBit(e + 1))
            if ((first + e) % 2 == side.ordinal()) marks.set((int) ((first + e) / 2 - lo));
        return marks;
    }

    /** The marks of a table's result planes, read from their files (none unless {@code markCaptures}). */
    private static Marks planeMarks(List<PlaneFile> planeFiles, boolean markCaptures, Configuration hadoop) {
        if (!markCaptures) return NO_MARKS;
        return (lo, hi, side) -> {
            BitSet marks = new BitSet();
            for (PlaneFile f : planeFiles) {
                if (f.end() <= 2 * lo || f.first() >= 2 * hi) continue;
                java.nio.file.Path local = TableFiles.local(new Path(f.marksUri()), hadoop);
                try (DataInputStream in = new DataInputStream(new BufferedInputStream(java.nio.file.Files.newInputStream(local)))) {
                    long[] words = new long[in.readInt()];
                    for (int k = 0; k < words.length; k++) words[k] = in.readLong();
                    marks.or(sideMarks(BitSet.valueOf(words), f.first(), lo, hi, side));
                }
            }
            return marks;
        };
    }

    /**
     * Writes a file as a task does: into a file of the task attempt's own, then renamed into place, so that a task
     * run twice (a retry, a speculative copy) never leaves half a file at the final name. Returns its SHA-256.
     */
    static String writeAside(Path file, Configuration hadoop, FileWriter writer) throws IOException { return writeAside(file, hadoop, attempt(), writer); }

    /** This thread's task attempt (a thread a task starts has none of its own), or the driver. */
    private static String attempt() {
        TaskContext task = TaskContext.get();
        return task == null ? "driver" : Long.toString(task.taskAttemptId());
    }

    /** {@link #writeAside(Path, Configuration, FileWriter)} for task attempt {@code attempt}. */
    private static String writeAside(Path file, Configuration hadoop, String attempt, FileWriter writer) throws IOException {
        FileSystem fs = file.getFileSystem(hadoop);
        if (fs instanceof LocalFileSystem local) fs = local.getRawFileSystem(); // no checksum side files
        Path aside = new Path(file.getParent(), "." + file.getName() + ".attempt-" + attempt);
        String sha256 = writeHashed(fs.create(aside, true), writer);
        fs.delete(file, false); // an earlier attempt's, the same bytes
        if (!fs.rename(aside, file)) throw new IOException("cannot rename " + aside + " to " + file);
        return sha256;
    }

    /** A task's lookups of what each move leads to: the table's own result planes and the smaller tables, mapped. */
    private static Successors successors(Material material, List<PlaneFile> planeFiles, SmallerTables smaller) throws IOException {
        return new Successors(material, planeResults(material, planeFiles, smaller.hadoop()), smaller.open());
    }

    /** A table's result planes, mapped: its codes by entry. */
    private static ResultPlane planeResults(Material material, List<PlaneFile> planeFiles, Configuration hadoop) throws IOException {
        List<EntryPlane.Range> ranges = new ArrayList<>();
        List<LatePlies> late = new ArrayList<>();
        for (PlaneFile f : planeFiles) {
            java.nio.file.Path local = TableFiles.local(new Path(f.uri()), hadoop);
            ranges.add(new EntryPlane.Range(local, 0, f.first(), f.end()));
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(local)) {
                late.add(LatePlies.read(channel, f.end() - f.first(), local, f.first(), f.end()));
            }
        }
        return new ResultPlane(EntryPlane.map(ranges, 2 * new PositionIndex(material).size()), LatePlies.union(late));
    }

    /**
     * A part of the table from index {@code lo}, per entry {@code 2 * (index - lo) + side}: its result bytes and late
     * plies, the packed file's move byte (the best move's rank among the sorted legal moves, or {@link IndexedTable#NO_MOVE}) and the
     * best move itself for the Parquet rows ({@link PositionRows#moveCode}, or {@link PositionRows#NO_MOVE}), so that
     * the rows need no second move generation; and by {@code index - lo}, the entries of side {@code stored} (the side
     * the compressed files store) that their captures and promotions decide ({@link SolvedPartition#byExits}), empty
     * unless asked for.
     */
    record BestMoves(long lo, Color stored, byte[] results, LatePlies late, byte[] ranks, short[] moves, BitSet byExits) implements Serializable {}

    /**
     * The export kernel: the best moves of indexes {@code lo..hi-1}, the table's results read through {@code
     * successors}, and {@code marks}, side {@code stored}'s entries that their captures and promotions decide (by
     * offset from {@code lo}; null: none).
     */
    static BestMoves bestMoves(Successors successors, PositionIndex index, long lo, long hi, Color stored, BitSet marks) {
        return bestMoves(successors, index, lo, hi, stored, marks, false, true);
    }

    /**
     * The side to move a table's compressed files store, weighed on its part {@code lo .. hi - 1}: that part's marks of
     * that side (no best moves) and its {@link CompressedTable#ranking} of the orders.
     */
    record SideChoice(Color side, long lo, long hi, BestMoves marks, CompressedTable.Ranking ranking) {}

    /**
     * The side to move a table's compressed files store ({@link CompressedTable#lesserSide}): each side's {@link
     * CompressedTable#ranking} of the middle part of its parts of {@link IndexedTable#ENTRIES_PER_FILE} entries
     * (whatever the run's split: the side follows from the table alone), its entries marked as {@code marks} says,
     * the table's results read through {@code successors}.
     */
    static SideChoice storedSide(Successors successors, PositionIndex index, Marks marks) throws IOException {
        long[] starts = IndexedTable.partStarts(index, IndexedTable.ENTRIES_PER_FILE);
        int k = (starts.length - 2) / 2;
        long lo = starts[k], hi = starts[k + 1];
        SideChoice[] sides = new SideChoice[2];
        for (Color side : Color.values()) {
            BestMoves b = bestMoves(successors, index, lo, hi, side, marks.of(lo, hi, side), true, false);
            sides[side.ordinal()] = new SideChoice(side, lo, hi, b, CompressedTable.ranking(index, lo, hi, b.results(), side, b.byExits()));
        }
        return sides[CompressedTable.lesserSide(index.material(), sides[0].ranking().sampleBytes(), sides[1].ranking().sampleBytes()).ordinal()];
    }

    /** Indexes of a chunk of {@link #bestMoves} on every core: a few of them for each core keep the cores busy to the end. */
    static final long CHUNK_INDEXES = 1 << 16;

    /**
     * {@link #bestMoves(Successors, PositionIndex, long, long, Color, BitSet)}, on every core when {@code everyCore}: in
     * chunks, each filling its own range of the arrays with successors of its own (their scratch space is not shared);
     * without {@code moves}, the results and marks alone (every rank {@link IndexedTable#NO_MOVE}, every move {@link
     * PositionRows#NO_MOVE}).
     */
    static BestMoves bestMoves(Successors successors, PositionIndex index, long lo, long hi, Color stored, BitSet marks, boolean everyCore,
                               boolean moves) {
        int entries = Math.toIntExact(2 * (hi - lo));
        byte[] results = new byte[entries], ranks = new byte[entries];
        successors.ownResults().bytes().copy(2 * lo, results, 0, entries);
        LatePlies late = successors.ownResults().late().within(2 * lo, 2 * hi);
        short[] codes = new short[entries];
        BestMoves b = new BestMoves(lo, stored, results, late, ranks, codes, marks == null ? new BitSet() : marks);
        if (!moves) {
            java.util.Arrays.fill(ranks, (byte) IndexedTable.NO_MOVE);
            java.util.Arrays.fill(codes, PositionRows.NO_MOVE);
            return b;
        }
        long chunks = everyCore ? Math.max(1, Math.min((hi - lo) / CHUNK_INDEXES, 4L * Runtime.getRuntime().availableProcessors())) : 1;
        long size = (hi - lo + chunks - 1) / chunks;
        IntStream.range(0, (int) chunks).parallel().forEach(c -> fillBestMoves(c == 0 ? successors : successors.withOwnScratch(), index, b,
                lo + c * size, Math.min(hi, lo + (c + 1) * size)));
        return b;
    }

    /**
     * Fills {@code b}'s ranks and move codes (its results already in place) for indexes {@code from..to-1}, the
     * table's results read through {@code successors}: each move looked up until the best is found.
     */
    private static void fillBestMoves(Successors successors, PositionIndex index, BestMoves b, long from, long to) {
        long lo = b.lo();
        byte[] results = b.results(), ranks = b.ranks();
        short[] codes = b.moves();
        LatePlies late = b.late();
        int[] squares = new int[index.material().size()], moves = new int[256];
        for (long i = from; i < to; i++) {
            boolean decoded = false;
            for (int s = 0; s < 2; s++) {
                int at = (int) (2 * (i - lo) + s), result = late.result(2 * i + s, results[at] & 0xFF);
                ranks[at] = (byte) IndexedTable.NO_MOVE;
                codes[at] = PositionRows.NO_MOVE;
                // a best move for a win or a loss, not checkmate
                if (result == Result.NONE || result == Result.DRAW || result == 1) continue;
                if (!decoded) decoded = index.decode(i, squares);
                int n = successors.sortedLegalMoves(squares, s, moves);
                int rank = successors.bestMoveRank(squares, s, result, moves, n);
                if (rank >= IndexedTable.NO_MOVE) throw new IllegalStateException(rank + " moves do not fit the move byte");
                ranks[at] = (byte) rank;
                codes[at] = PositionRows.moveCode(moves[rank]);
            }
        }
    }

    /** The manifest entries of a part's packed and compressed files. */
    record PartFiles(FileEntry packed, FileEntry compressed) implements Serializable {}

    /** Writes the packed and compressed part files starting at index {@code lo} from its planes and late plies, and returns their manifest entries. */
    private static PartFiles writePart(String staging, PositionIndex index, long[] starts, BestMoves b, CompressedTable.Ranking ranking, Configuration hadoop)
            throws IOException {
        long lo = b.lo();
        byte[] results = b.results(), ranks = b.ranks();
        LatePlies late = b.late();
        int k = java.util.Arrays.binarySearch(starts, lo), parts = starts.length - 1;
        long hi = starts[k + 1];
        String name = IndexedTable.partName(index.material(), k, parts);
        String sha256 = writeAside(new Path(staging, name), hadoop, out -> IndexedTable.writePart(index, lo, hi, results, ranks, late, out));
        long[] bytes = new long[1];
        String compressedName = CompressedTable.partName(index.material(), k, parts);
        String compressedSha256 = writeAside(new Path(staging, compressedName), hadoop, out -> bytes[0] = CompressedTable.write(index, lo, hi, results, b.stored(), b.byExits(), ranking, late, out));
        long packedBytes = IndexedTable.partSize(lo, hi) + late.within(2 * lo, 2 * hi).bytes();
        return new PartFiles(new FileEntry(name, packedBytes, sha256, lo, hi), new FileEntry(compressedName, bytes[0], compressedSha256, lo, hi));
    }

    /** The seed's KBNK file, written by one task from the result planes. */
    private static FileEntry writeSeed(JavaSparkContext jsc, String staging, PositionIndex index, List<PlaneFile> planeFiles,
                                                 SmallerTables smaller) {
        String sha256 = jsc.parallelize(List.of(0), 1).map(x -> writeAside(new Path(staging, PackedTable.FILE_NAME), smaller.hadoop(),
                out -> out.write(PackedTable.seedWords(index, successors(index.material(), planeFiles, smaller))))).first();
        return new FileEntry(PackedTable.FILE_NAME, PackedTable.SIZE, sha256);
    }

    /** A table's DTZ files (packed parts; compressed, White to move's parts first) and each side to move's figures. */
    record DtzWritten(List<FileEntry> files, List<FileEntry> compressed, List<Manifest.DtzSide> sides) implements Serializable {}

    /** A part's DTZ files, packed, and compressed for each side to move; each side to move's counts. */
    private record DtzPart(FileEntry packed, FileEntry white, FileEntry black, DtzCount[] counts) implements Serializable {}

    /**
     * Writes a table's DTZ, its codes in solved partitions (a DTZ code is a {@link Result} code: see {@link
     * SolvedPartition#ofDtz}), in the parts {@code starts} gives (the DTM table's): first each partition's codes as a
     * result plane under {@code planes}, then a task a part, each writing its part as a packed table with no best
     * moves (what the Parquet rows and bigger tables read) and as a compressed table of each side to move (what the
     * probe reads), and counting each side's five results and longest DTZ.
     */
    static DtzWritten writeDtz(JavaSparkContext jsc, String staging, PositionIndex index, long[] starts, JavaRDD<SolvedPartition> dtz,
                               String planes, SmallerTables smaller) {
        Material material = index.material();
        jsc.setJobDescription(material.name() + ": DTZ under the 50-move rule, its result planes");
        List<PlaneFile> planeFiles = dtz.map(b -> writePlane(planes, b, smaller.hadoop())).collect();
        int parts = starts.length - 1;
        jsc.setJobDescription(material.name() + ": DTZ files");
        List<DtzPart> written = jsc.parallelize(IntStream.range(0, parts).boxed().toList(), parts).map(k -> writeDtzPart(staging, index, k, parts,
                starts[k], starts[k + 1], planeResults(material, planeFiles, smaller.hadoop()), smaller.hadoop())).collect();
        List<FileEntry> compressed = new ArrayList<>();
        written.forEach(p -> compressed.add(p.white()));
        written.forEach(p -> compressed.add(p.black()));
        List<Manifest.DtzSide> sides = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            int side = s;
            sides.add(written.stream().map(p -> p.counts()[side]).reduce(DtzCount::plus).orElseThrow().manifestSide());
        }
        return new DtzWritten(written.stream().map(DtzPart::packed).toList(), List.copyOf(compressed), List.copyOf(sides));
    }

    /** Writes part {@code k} of {@code parts}, indexes {@code lo .. hi - 1}, of {@link #writeDtz}, from its codes {@code codes}; counts them. */
    private static DtzPart writeDtzPart(String staging, PositionIndex index, int k, int parts, long lo, long hi, EntryResults codes,
                                        Configuration hadoop) {
        SolvedPartition part = SolvedPartition.ofDtz(lo, Math.toIntExact(2 * (hi - lo)), at -> codes.result(2 * lo + at));
        byte[] results = part.results();
        LatePlies plies = part.late();
        try {
            String name = dtzName(index.material(), null, k, parts, ".tbl");
            Path file = new Path(staging, name);
            String sha256 = writeAside(file, hadoop, out -> IndexedTable.writePart(index, lo, hi, results, null, plies, out));
            FileEntry packed = new FileEntry(name, file.getFileSystem(hadoop).getFileStatus(file).getLen(), sha256, lo, hi);
            FileEntry[] sides = new FileEntry[2];
            for (Color side : Color.values()) {
                String sideName = dtzName(index.material(), side, k, parts, CompressedTable.SUFFIX);
                long[] sideBytes = new long[1];
                String sideSha256 = writeAside(new Path(staging, sideName), hadoop, out -> sideBytes[0] = CompressedTable.write(index, lo, hi, results, side, null, plies, out));
                sides[side.ordinal()] = new FileEntry(sideName, sideBytes[0], sideSha256, lo, hi);
            }
            DtzCount[] counts = new DtzCount[2];
            for (int side = 0; side < 2; side++) counts[side] = DtzCount.of(codes, 2 * lo, 2 * hi, side, Dtz.RULE_PLIES);
            return new DtzPart(packed, sides[0], sides[1], counts);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The name of a DTZ file: {@code kqkr.dtz.tbl}, its compressed files {@code kqkr.dtz.w.cdtm} and {@code
     * kqkr.dtz.b.cdtm} ({@code side} the side to move stored, null for the packed file); a table of several parts
     * numbers them as its DTM parts, {@code krrrkq.dtz.00003.tbl}, {@code krrrkq.dtz.w.00003.cdtm}.
     */
    static String dtzName(Material material, Color side, int part, int parts, String suffix) {
        return folderName(material) + ".dtz" + (side == null ? "" : "." + side.fenLetter()) + (parts == 1 ? "" : String.format(".%05d", part)) + suffix;
    }

    /**
     * {@code partFiles}: the part files' entries; {@code parquetFiles}: the Parquet files'; {@code seed}: the seed's KBNK
     * file, or null; {@code dtz}: the DTZ file and figures, or null.
     */
    private static Manifest writeManifest(SolvedTable table, List<PartFiles> partFiles, List<FileEntry> parquetFiles, FileEntry seed,
                                          DtzWritten dtz, OutputFolder folder, Run run) throws IOException {
        Material material = table.material();
        long[][] entries = table.figures().entries(), plies = table.figures().positions();
        long rows = 0;
        for (int s = 0; s < 2; s++) for (long n : entries[s]) rows += n;
        List<Manifest.SideFigures> sides = new ArrayList<>();
        for (int s = 0; s < 2; s++) sides.add(sideFigures(entries[s], plies[s]));
        // else made without its rows (--no-parquet)
        Manifest.Parquet parquet = parquetFiles == null ? null : new Manifest.Parquet(PARQUET, rows, parquetFiles);
        List<PartFiles> byIndex = new ArrayList<>(partFiles);
        byIndex.sort(java.util.Comparator.comparingLong(f -> f.packed().firstIndex()));
        List<Manifest.SubTable> subs = TablePlan.exits(material).stream().map(sub -> new Manifest.SubTable(sub.name(), "../" + folderName(sub))).toList();
        Manifest.Made made = new Manifest.Made(run.projectVersion(), run.sparkVersion(), System.getProperty("java.version"), run.master(),
                run.partitions(), Math.round((System.nanoTime() - run.startNanos()) / 1e7) / 100.0);
        Manifest m = new Manifest(material.name(), table.index().size(), List.copyOf(sides), parquet, byIndex.stream().map(PartFiles::packed).toList(),
                byIndex.stream().map(PartFiles::compressed).toList(), seed, subs, made,
                dtz == null ? null : new Manifest.DtzFigures(dtz.files(), dtz.compressed(), dtz.sides()));
        try (OutputStream out = folder.create(Manifest.FILE)) {
            m.write(out);
        }
        return m;
    }

    /**
     * A side to move's figures from its counts by result (see {@link io.github.tablebase.table.TableFigures}) of canonical
     * positions ({@code entries}) and of all positions ({@code plies}).
     */
    private static Manifest.SideFigures sideFigures(long[] entries, long[] plies) {
        int longestWin = 0, longestLoss = 0;
        java.util.SortedMap<Integer, Long> winIn = new java.util.TreeMap<>(), lossIn = new java.util.TreeMap<>();
        for (int ply = 0; ply + 1 < plies.length; ply++) {
            long n = plies[ply + 1];
            if (n == 0) continue;
            int moves = (ply + 1) / 2;
            if (ply % 2 == 1) { longestWin = moves; winIn.put(moves, n); }
            else { longestLoss = moves; lossIn.put(moves, n); }
        }
        return new Manifest.SideFigures(resultCounts(entries), resultCounts(plies), longestWin, longestLoss, winIn, lossIn);
    }

    /** The wins, losses and draws of a side's count by result. */
    private static Manifest.Counts resultCounts(long[] plies) {
        long wins = 0, losses = 0;
        for (int ply = 0; ply + 1 < plies.length; ply++) if (ply % 2 == 1) wins += plies[ply + 1]; else losses += plies[ply + 1];
        return new Manifest.Counts(wins, losses, plies[Result.DRAW]);
    }

    /** Reads a manifest on any Hadoop file system. */
    static Manifest readManifest(org.apache.hadoop.fs.FileSystem fs, Path file) throws IOException {
        try (java.io.InputStream in = fs.open(file)) {
            return Manifest.read(in);
        }
    }

    /** What writes a file's bytes. */
    interface FileWriter {
        void write(OutputStream out) throws IOException;
    }

    /** Writes a file through a buffer and returns the SHA-256 of what was written. */
    static String writeHashed(OutputStream file, FileWriter writer) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (OutputStream out = new DigestOutputStream(new BufferedOutputStream(file), sha256)) {
            writer.write(out);
        }
        return HexFormat.of().formatHex(sha256.digest());
    }
}
