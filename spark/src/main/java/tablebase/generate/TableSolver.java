package tablebase.generate;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import tablebase.chess.Material;
import tablebase.chess.MoveGenerator;
import tablebase.chess.PositionIndex;
import tablebase.table.SolvedTable;

/**
 * The engine: retrograde analysis of one table on Spark, given the smaller tables its captures and promotions lead to.
 * The table is an RDD of {@link TableSlice}s, one per partition, each a range of whole king pairs of the
 * {@link PositionIndex}, one byte of result and one of moves left per position and side to move, updated in place.
 * Each ply is a join of the frontier's un-moves with the solved set: the un-moves of the pieces other than the
 * kings keep the king pair and stay in their partition; the kings' un-moves are shuffled, as batches of
 * {@code long} keys, to the partition that owns their king pair. Odd plies find wins, even plies losses; it
 * stops when a ply decides nothing and no capture result lies ahead. What is left is a draw.
 */
public final class TableSolver {
    /** The most pieces a table may have: a partition's arrays and the results of a table stay within int range. */
    public static final int MAX_PIECES = 5;
    private final JavaSparkContext jsc;
    private final int partitions;
    private final Consumer<String> progress;
    private final long entriesPerPartition;
    private final boolean sampleLiveHeap;

    /**
     * A table gets at most {@code partitions} partitions and at least {@code entriesPerPartition} entries in each:
     * a table small enough for one partition is solved in one task, every ply without a shuffle, since a Spark
     * stage per ply would cost more than the ply's work.
     */
    public TableSolver(JavaSparkContext jsc, int partitions, long entriesPerPartition, Consumer<String> progress) {
        this.jsc = jsc;
        this.partitions = partitions;
        if (entriesPerPartition < 1) throw new IllegalArgumentException("entries per partition must be positive, not " + entriesPerPartition);
        this.entriesPerPartition = entriesPerPartition;
        this.progress = progress;
        this.sampleLiveHeap = jsc.getConf().getBoolean(SAMPLE_LIVE_HEAP, false);
    }

    /**
     * The Spark property that makes a table's solving sample its live heap with a full collection after init, every
     * tenth ply and at the hand-off (a benchmark's measure: each costs a full GC).
     */
    public static final String SAMPLE_LIVE_HEAP = "spark.tablebase.sampleLiveHeap";

    /** The default fewest entries (index and side) in a partition: a table of up to 2^24 is solved in one task. */
    public static final long ENTRIES_PER_PARTITION = 1L << 24;

    public TableSolver(JavaSparkContext jsc, int partitions, Consumer<String> progress) {
        this(jsc, partitions, ENTRIES_PER_PARTITION, progress);
    }

    /** Why the engine cannot make this material, or null when it can. */
    public static String unsupportedReason(Material material) {
        if (material.size() < 3) return material.name() + " is two bare kings, a draw: there is nothing to generate";
        if (material.size() > MAX_PIECES)
            return material.name() + " has " + material.size() + " pieces; the engine makes endgames of up to " + MAX_PIECES;
        return null;
    }

    /** Partition {@code p} owns the king pairs from {@code first[p]} to {@code first[p + 1] - 1}. */
    static int[] firstKingPairs(int parts, int kingPairs) {
        return IntStream.rangeClosed(0, parts).map(p -> (int) (((long) p * kingPairs + parts - 1) / parts)).toArray();
    }

    /** Un-move batches go to the partition their key names. */
    static final class ToPartition extends Partitioner {
        private final int parts;

        ToPartition(int parts) { this.parts = parts; }

        @Override public int numPartitions() { return parts; }

        @Override public int getPartition(Object key) { return (Integer) key; }

        @Override public boolean equals(Object o) { return o instanceof ToPartition t && t.parts == parts; }

        @Override public int hashCode() { return parts; }
    }

    /** Solves {@code material}; {@code smaller} holds every table one capture away (bare kings excepted). */
    public SolvedTable solve(Material material, Map<Material, SolvedTable> smaller) throws IOException {
        return solve(material, smaller, null);
    }

    /**
     * Solves {@code material}, saving each ply's slices under {@code workDir} (any Hadoop filesystem path, or null
     * for none) and continuing from the last ply saved there. A table solved in one task saves nothing: it takes
     * seconds. The caller deletes the table's work folder ({@link WorkFolder#deleteTable}) once its outputs are written.
     */
    public SolvedTable solve(Material material, Map<Material, SolvedTable> smaller, String workDir) throws IOException {
        long start = System.nanoTime();
        LiveHeap heap = new LiveHeap(sampleLiveHeap);
        PositionIndex index = new PositionIndex(material);
        MoveGenerator gen = new MoveGenerator(material);
        SmallerTables subs = new SmallerTables(jsc, material, smaller);
        int partitions = (int) Math.max(1, Math.min(this.partitions, 2 * index.size() / entriesPerPartition));
        int[] first = firstKingPairs(partitions, index.kingPairs());
        int[] partitionOfKingPair = new int[index.kingPairs()];
        for (int p = 0; p < partitions; p++) for (int kp = first[p]; kp < first[p + 1]; kp++) partitionOfKingPair[kp] = p;
        long rest = index.restSize();
        List<Integer> ids = IntStream.range(0, partitions).boxed().toList();
        WorkFolder work = workDir == null || partitions == 1 ? null : WorkFolder.open(WorkFolder.ofTable(workDir, material), material, partitions, jsc.hadoopConfiguration());
        int resumeAt = work == null ? -1 : work.lastLevel();
        KeptSlices kept = new KeptSlices(jsc, material, partitions, progress);
        JavaRDD<TableSlice> slices = kept.keep(resumeAt >= 0 ? work.load(jsc, WorkFolder.TABLE_SLICES, resumeAt)
                : jsc.parallelize(ids, partitions).map(p -> TableSlice.init(index, gen, subs, first[p] * rest, first[p + 1] * rest)));
        if (resumeAt >= 0) progress.accept(String.format("%s: resuming from ply %d saved in %s", material.name(), resumeAt, work.location()));
        long frontier = frontier(slices); // the first job over the slices makes and keeps them
        int lastEvent = slices.map(TableSlice::lastEventPly).reduce(Math::max);
        heap.sample();
        if (resumeAt < 0)
            progress.accept(String.format("%s: %,d entries, moves, captures and promotions (%d other tables) in %.1f s; ply  0: %,d checkmates",
                    material.name(), 2 * index.size(), subs.count(), (System.nanoTime() - start) / 1e9, frontier));

        if (partitions == 1) {
            long[] found = slices.map(s -> s.solveAlone(index, gen)).first();
            for (int q = 1; q < found.length; q++)
                progress.accept(String.format("%s: ply %2d: %,d %s  (one task)", material.name(), q, found[q], q % 2 == 1 ? "wins" : "losses"));
        } else {
            slices = solvePlies(material, index, gen, slices, partitions, partitionOfKingPair, frontier, lastEvent, work, resumeAt + 1, heap, kept);
        }
        heap.sample();
        slices.foreach(TableSlice::finish);
        byte[] results = new byte[Math.toIntExact(2 * index.size())];
        int at = 0;
        for (Iterator<byte[]> parts = slices.map(s -> s.result).toLocalIterator(); parts.hasNext(); ) { // a partition at a time
            byte[] part = parts.next();
            System.arraycopy(part, 0, results, at, part.length);
            at += part.length;
        }
        kept.requireKept(); // a slice made again for the jobs above would be one without the plies a single task solved
        heap.sample();
        slices.unpersist(false);
        subs.release();
        double seconds = (System.nanoTime() - start) / 1e9;
        SolvedTable table = new SolvedTable(material, results, seconds);
        long positions = table.positions();
        long peak = heap.peak(), sampled = heap.sampled();
        heap.close();
        progress.accept(String.format("%s: solved %,d positions in %.1f s, %,.0f positions a second; peak live heap (after GC) %,d MB, %.1f bytes per index entry%s",
                material.name(), positions, seconds, positions / seconds, peak >> 20, (double) peak / index.size(),
                sampleLiveHeap ? String.format("; live heap by full GCs %,d MB, %.1f bytes per index entry", sampled >> 20, (double) sampled / index.size()) : ""));
        return table;
    }

    /** The plies over the partitions, each a Spark stage that shuffles the kings' un-moves; returns the last slices, kept. */
    private JavaRDD<TableSlice> solvePlies(Material material, PositionIndex index, MoveGenerator gen, JavaRDD<TableSlice> slices, int partitions,
                                           int[] partitionOfKingPair, long frontier, int lastEvent, WorkFolder work, int firstPly, LiveHeap heap,
                                           KeptSlices kept) throws IOException {
        ShuffleMeter meter = new ShuffleMeter(jsc.sc());
        try {
            int failures = 0;
            for (int q = Math.max(firstPly, 1); frontier > 0 || q <= lastEvent; q++) {
                long plyStart = System.nanoTime();
                ShuffleMeter.Reading before = meter.read();
                int ply = q;
                JavaRDD<TableSlice> next = KeptSlices.keptInPlace(slices.zipPartitions(
                        slices.mapPartitionsToPair(own -> own.next().kingUnmoves(ply - 1, index, gen, partitionOfKingPair))
                                .partitionBy(new ToPartition(partitions)).values(),
                        (own, kingKeys) -> {
                            TableSlice s = own.next();
                            s.apply(ply, index, gen, kingKeys);
                            return List.of(s).iterator();
                        }));
                try {
                    frontier = frontier(next);
                    kept.check(q);
                    if (work != null) {
                        work.save(next, WorkFolder.TABLE_SLICES, q);
                        work.finish(q, Map.of("endgame", material.name(), "ply", q));
                    }
                    failures = 0;
                } catch (Exception e) { // SparkException, checked, comes through Scala undeclared
                    // an executor lost with its slices: they are updated in place, so go back to the last ply saved
                    int saved = work == null ? -1 : work.lastLevel();
                    if (saved < 0 || ++failures > 3) throw e;
                    progress.accept(String.format("%s: ply %d failed (%s); continuing from ply %d saved in %s", material.name(), q,
                            e.getMessage() == null ? e : e.getMessage().lines().findFirst().orElse(""), saved, work.location()));
                    next.unpersist(false);
                    slices.unpersist(false);
                    slices = kept.keep(work.load(jsc, WorkFolder.TABLE_SLICES, saved));
                    frontier = frontier(slices);
                    q = saved;
                    continue;
                }
                slices.unpersist(false);
                slices = next;
                if (q % 10 == 0) heap.sample();
                ShuffleMeter.Reading moved = meter.read().minus(before);
                progress.accept(String.format("%s: ply %2d: %,d %s  (%.2f s, shuffled %,d bytes)", material.name(), q, frontier,
                        q % 2 == 1 ? "wins" : "losses", (System.nanoTime() - plyStart) / 1e9, moved.bytes()));
            }
            return slices;
        } finally {
            meter.close();
        }
    }

    private static long frontier(JavaRDD<TableSlice> slices) {
        return slices.map(s -> (long) s.frontierSize).reduce(Long::sum);
    }

    /**
     * The slices kept in Spark's memory as objects, which each ply updates in place, and a watch on them: slices
     * Spark could not keep (no room in its storage memory, or an executor lost) are made again from their source
     * (init or a saved ply) and every ply since replayed, so that a ply costs more each time. Once is an executor
     * lost; two plies in a row is too little memory, and the run stops with that message instead of slowing to a crawl.
     */
    static final class KeptSlices {
        private final JavaSparkContext jsc;
        private final Material material;
        private final int partitions;
        private final Consumer<String> progress;
        private final LongAccumulator made;
        private long expected;
        private int lastReplay = -2;

        KeptSlices(JavaSparkContext jsc, Material material, int partitions, Consumer<String> progress) {
            this.jsc = jsc;
            this.material = material;
            this.partitions = partitions;
            this.progress = progress;
            this.made = jsc.sc().longAccumulator(material.name() + " slices made");
        }

        /** The slices of a source, counted as they are made, and kept once the next job makes them. */
        JavaRDD<TableSlice> keep(JavaRDD<TableSlice> source) {
            expected = made.value() + partitions; // counted from here: a source is made when a job first needs it
            LongAccumulator count = made;
            return keptInPlace(source.map(s -> {
                count.add(1);
                return s;
            }));
        }

        static JavaRDD<TableSlice> keptInPlace(JavaRDD<TableSlice> slices) {
            return slices.persist(StorageLevel.MEMORY_ONLY());
        }

        /** After ply {@code q}'s first job: were slices made again? */
        void check(int q) throws IOException {
            long again = made.value() - expected;
            if (again <= 0) return;
            expected = made.value();
            if (lastReplay == q - 1)
                throw new SlicesNotKeptException(String.format("%s: Spark could not keep the table's slices in memory (made again at plies %d and %d; "
                        + "%,d MB of storage memory): each ply would replay every earlier one. %s", material.name(), q - 1, q, storageMemory() >> 20, MORE_MEMORY));
            lastReplay = q;
            progress.accept(String.format("%s: ply %d: slices Spark did not keep (an executor lost, or too little memory) were made again, %d times over %d partitions",
                    material.name(), q, again, partitions));
        }

        /** Throws when any slice was made again since the last check, as when the results were read. */
        void requireKept() throws IOException {
            long again = made.value() - expected;
            if (again > 0)
                throw new SlicesNotKeptException(String.format("%s: Spark could not keep the table's slices in memory until its results were read "
                        + "(made again %d times over %d partitions; %,d MB of storage memory). %s", material.name(), again, partitions, storageMemory() >> 20, MORE_MEMORY));
        }

        private static final String MORE_MEMORY = "Give Spark more memory: DRIVER_MEMORY in local mode, spark.executor.memory on a cluster";

        private long storageMemory() {
            long bytes = 0;
            for (scala.Tuple2<Object, Object> executor : scala.collection.JavaConverters.mapAsJavaMap(jsc.sc().getExecutorMemoryStatus()).values())
                bytes += (Long) executor._1();
            return bytes;
        }
    }

    /** The table's slices did not stay in Spark's memory: the run cannot go on at a sane speed. */
    public static final class SlicesNotKeptException extends IOException {
        SlicesNotKeptException(String message) { super(message); }
    }

    /**
     * The largest heap left after any garbage collection while it listens: the live data at its peak (the driver and,
     * in local mode, its executors), not the garbage a heap's peak use also counts.
     */
    static final class LiveHeap implements NotificationListener, AutoCloseable {
        private final AtomicLong peak = new AtomicLong();
        private final boolean sampling;
        private long sampled;

        LiveHeap(boolean sampling) {
            this.sampling = sampling;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
                if (gc instanceof NotificationEmitter emitter) emitter.addNotificationListener(this, null, null);
        }

        @Override public void handleNotification(Notification notification, Object handback) {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) return;
            GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo();
            long used = info.getMemoryUsageAfterGc().values().stream().mapToLong(MemoryUsage::getUsed).sum();
            peak.accumulateAndGet(used, Math::max);
        }

        long peak() { return peak.get(); }

        /**
         * With sampling on, a full collection and the heap left after it: the live data at this point, none of the
         * garbage that a young collection leaves in the old generation (and so counts in {@link #peak}).
         */
        void sample() {
            if (!sampling) return;
            System.gc();
            sampled = Math.max(sampled, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }

        /** The largest live heap sampled, 0 without sampling. */
        long sampled() { return sampled; }

        @Override public void close() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                try {
                    if (gc instanceof NotificationEmitter emitter) emitter.removeNotificationListener(this);
                } catch (ListenerNotFoundException e) {
                    // not listening there
                }
            }
        }
    }
}
