package io.github.tablebase.cli;

import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.generate.TableSolver;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a generate run will do, said before it starts: the tables to make or reuse in order, their entries, and
 * the time and heap they should take, from rates measured on this project's 2-core machine with KBNKN; {@code
 * heapPerIndex} is the heap a table needs an index at its peak, as its slices are kept; {@code dtz}, whether the run
 * also solves each table's DTZ ({@code --dtz}); {@code pace}, how many times that machine's time this one takes
 * ({@link MachinePace}; 1 where not measured).
 */
record RunPlan(List<Step> steps, double heapPerIndex, boolean dtz, double pace) {
    /**
     * Entries (index and side) solved and written a second per core, with their Parquet rows and best moves: the 16
     * pawnless 5-piece tables without a queen, 2.07 billion entries, in 673 s on 2 cores (1.54 million).
     */
    static final double ENTRIES_PER_CORE_SECOND = 1_500_000;
    /**
     * The same without the rows ({@code --no-parquet}): the 3-5 set's 14 pawn tables of its second sitting, 8.50
     * billion entries in 40 min 40 s on 2 cores (1.74 million; the pawnless tables before the engine's last changes
     * 1.58 million).
     */
    static final double ENTRIES_PER_CORE_SECOND_NO_ROWS = 1_700_000;
    /**
     * Entries solved a second per core, writing aside, init included: the 3-5 set's pawn tables solved in one task each
     * beside another table's writing, 9.56 billion entries in 3,841 s (2.49 million).
     */
    static final double SOLVED_PER_CORE_SECOND = 2_400_000;
    /**
     * Entries solved a second per core at 6 pieces, init included: the harmonic mean (the rate of the two made one after
     * the other) of the two made on 2 cores, nothing else running, 2,463,842,304 entries each, their smaller tables
     * reused: KRRRKQ (139 plies) in 388.6 s and KNNNKN (181 plies) in 485.6 s (2026-11-29).
     */
    static final double SOLVED_PER_CORE_SECOND_6 = 2_800_000;
    /**
     * Entries written a second per core at 6 pieces, after the solving: with the Parquet rows and best moves, KRRRKQ in
     * 548.1 s (2026-11-27); without ({@code --no-parquet}), KRRRKQ in 181.0 s and KNNNKN in 153.5 s (2026-11-29).
     */
    static final double WRITTEN_PER_CORE_SECOND_6 = 2_250_000, WRITTEN_PER_CORE_SECOND_6_NO_ROWS = 7_300_000;
    /**
     * Entries a second per core that a table's DTZ adds to its run (solved and both sides compressed): KQQKQ with its
     * smaller tables 131.1 s against 55.0 s on 2 cores (822,000), KBNKN 227.5 s against 94.4 s (977,000).
     */
    static final double DTZ_ENTRIES_PER_CORE_SECOND = 900_000;
    /** What a run's first table costs besides its entries: Spark's jobs, the writes' start, the JIT (KQK alone: about 2 s). */
    static final double SECONDS_PER_TABLE = 2;
    /**
     * What each other table costs besides its entries, beside the tables solving and writing with it: the 4-piece set
     * of 35 tables, 169.6 million entries, in 59.6 s (2026-12-02), 9.7 s more than its entries at the rate above.
     */
    static final double SECONDS_PER_TABLE_BESIDE = 0.25;
    /**
     * The heap a run's largest table needs at its peak, per index, beside Spark's own: the live data, as full GCs measure
     * it ({@code spark.tablebase.sampleLiveHeap}), KQQKQ 3.1 bytes and KRRKQ 3.4 over 8 partitions, KRRRKQ 2.9 over 32 (one
     * ply's slices, 2 bytes, since each partition's old slice goes as its new one is made; the copies of the tasks
     * running; the capture events and frontiers), rounded up; KRRRKQ was solved in a 4.7 GB heap, Spark's 512 MB and
     * this. A young GC's figure is higher (KRRKQ 7.7 in a 1 GB heap, 8.8 in 12 GB): it counts garbage that a
     * collection would free before the JVM ran out.
     */
    static final double HEAP_PER_INDEX = 3.5;
    /**
     * The same with the slices kept on the executors' disks between plies ({@code spark.tablebase.sliceStorage=DISK_ONLY}):
     * KQQKQ over 8 partitions 2.5 bytes an index live (3.3 at the peak after GC), KRRRKQ over 32 2.3 at the peak after
     * GC, rounded up.
     */
    static final double HEAP_PER_INDEX_SLICES_ON_DISK = 3;
    /**
     * The heap of the task that solves and writes a table's DTZ, per index: the codes, a short an entry (4 bytes), a
     * byte for the pawn levels and a bit an entry for each of two frontiers (0.5) while it solves, and the table's
     * solved result planes the export holds (2); its files are written a part at a time.
     */
    static final double DTZ_HEAP_PER_INDEX = 8;
    /** The heap Spark itself holds in a local run. */
    static final long SPARK_HEAP = 512L << 20;

    /** A table of the plan: made, or reused from its folder; made with its DTZ ({@code dtz}) or not, with its Parquet rows ({@code rows}) or not. */
    record Step(Material material, boolean reuse, long indexes, boolean dtz, boolean rows) {
        long entries() { return 2 * indexes; }

        /** The time to solve and write it beside other tables, its DTZ included, by the measured rates (their machine's pace). */
        double seconds(int cores) {
            double made = material.size() > 5
                    ? solveSeconds(cores) + entries() / ((rows ? WRITTEN_PER_CORE_SECOND_6 : WRITTEN_PER_CORE_SECOND_6_NO_ROWS) * cores)
                    : entries() / ((rows ? ENTRIES_PER_CORE_SECOND : ENTRIES_PER_CORE_SECOND_NO_ROWS) * cores);
            return SECONDS_PER_TABLE_BESIDE + made + (dtz ? entries() / (DTZ_ENTRIES_PER_CORE_SECOND * cores) : 0);
        }

        /** The time to solve it, by the measured rate. */
        double solveSeconds(int cores) { return entries() / ((material.size() > 5 ? SOLVED_PER_CORE_SECOND_6 : SOLVED_PER_CORE_SECOND) * cores); }
    }

    static RunPlan of(List<Material> order, Predicate<Material> present, Material asked) { return of(order, present, asked, false, false, true); }

    /**
     * The plan, its heap counted for slices kept on the executors' disks between plies where {@code slicesOnDisk}, and
     * for each table's DTZ where {@code dtz}; its time for tables written with their Parquet rows where {@code rows}.
     */
    static RunPlan of(List<Material> order, Predicate<Material> present, Material asked, boolean slicesOnDisk, boolean dtz, boolean rows) {
        List<Step> steps = new ArrayList<>();
        for (Material m : order)
            steps.add(new Step(m, !m.equals(asked) && present.test(m), new PositionIndex(m).size(), dtz, rows));
        return new RunPlan(steps, slicesOnDisk ? HEAP_PER_INDEX_SLICES_ON_DISK : HEAP_PER_INDEX, dtz, 1);
    }

    /** The same plan at this machine's {@code pace} ({@link MachinePace}). */
    RunPlan atPace(double pace) { return new RunPlan(steps, heapPerIndex, dtz, pace); }

    List<Step> toMake() { return steps.stream().filter(s -> !s.reuse()).toList(); }

    /** The run's time on this machine: its tables', the first one's start more, at the plan's pace. */
    double seconds(int cores) {
        List<Step> make = toMake();
        return make.isEmpty() ? 0 : pace * (SECONDS_PER_TABLE - SECONDS_PER_TABLE_BESIDE + make.stream().mapToDouble(s -> s.seconds(cores)).sum());
    }

    /**
     * The heap of a local run at its peak: its largest table to make and, with more than one core, the largest other
     * one that may solve beside it in one task; or, with DTZ, the task of the largest table that gets it, if more.
     */
    long localHeap(int cores) {
        if (toMake().isEmpty()) return SPARK_HEAP;
        Step largest = largest();
        long beside = cores < 2 ? 0 : toMake().stream().filter(s -> s != largest && TableSolver.fitsOneTask(s.material()))
                .mapToLong(Step::indexes).max().orElse(0);
        long dtzIndexes = toMake().stream().filter(Step::dtz).mapToLong(Step::indexes).max().orElse(0);
        return SPARK_HEAP + Math.max(tablesHeap() + (long) (heapPerIndex * beside), (long) (DTZ_HEAP_PER_INDEX * dtzIndexes));
    }

    /** The heap the largest table to make holds at its peak, over all executors. */
    long tablesHeap() {
        return (long) (heapPerIndex * toMake().stream().mapToLong(Step::indexes).max().orElse(0));
    }

    /** The plan in lines: a summary, then each table; {@code maxHeap} is the driver's in local mode, else the executors' in all. */
    List<String> lines(int cores, boolean local, long maxHeap) {
        List<Step> make = toMake();
        long entries = make.stream().mapToLong(Step::entries).sum();
        List<String> lines = new ArrayList<>();
        lines.add(String.format("plan: %d table%s to make (%,d entries), %d to reuse; about %s on %d core%s%s%s", make.size(), make.size() == 1 ? "" : "s",
                entries, steps.size() - make.size(), duration(seconds(cores)), cores, cores == 1 ? "" : "s",
                pace == 1 ? "" : String.format(" (this machine's pace: %.1f times the time of the rates' own)", pace),
                local ? String.format(", a heap of about %s at the peak (this driver has %s)", size(localHeap(cores)), size(maxHeap))
                        : String.format(", executors' heap of about %s in all at the peak (%s)", size(tablesHeap()),
                        maxHeap > 0 ? "the executors now registered have " + size(maxHeap) : "no executor registered yet")));
        for (Step s : steps)
            lines.add(String.format("  %-7s %-6s %,15d entries", s.material().name(), s.reuse() ? "reuse" : "make", s.entries()));
        return lines;
    }

    /** Why a local run cannot go on with this heap, or null. */
    String refusal(long maxHeap, int cores) {
        long need = localHeap(cores);
        if (need <= maxHeap) return null;
        return String.format("%s needs a heap of about %s in local mode (%.1f bytes an index at the peak%s, with the largest table"
                + " that may solve beside it%s), this driver has %s:"
                + " set DRIVER_MEMORY=%dg, or run it on a cluster", largest().material().name(), size(need), heapPerIndex, basis(),
                dtz ? String.format("; with --dtz, %.0f bytes an index in the task of a table's DTZ", DTZ_HEAP_PER_INDEX) : "", size(maxHeap), (need >> 30) + 1);
    }

    /** Why a cluster run cannot go on with the executors' heap in all ({@code executorsHeap}, 0 when none has registered yet: no refusal), or null. */
    String clusterRefusal(long executorsHeap) {
        long need = tablesHeap();
        if (executorsHeap == 0 || need <= executorsHeap) return null;
        return String.format("%s needs about %s of executor heap in all (%.1f bytes an index at the peak%s), the executors registered"
                + " have %s: add executors or give them more spark.executor.memory", largest().material().name(), size(need), heapPerIndex, basis(), size(executorsHeap));
    }

    /** Where the heap an index comes from, for the refusals. */
    private String basis() {
        return heapPerIndex == HEAP_PER_INDEX ? ", measured on KQQKQ, KRRKQ and KRRRKQ; slices on disk (sliceStorage=DISK_ONLY) need about " + HEAP_PER_INDEX_SLICES_ON_DISK
                : " with the slices on disk, measured on KQQKQ and KRRRKQ";
    }

    private Step largest() {
        return toMake().stream().max(java.util.Comparator.comparingLong(Step::indexes)).orElseThrow();
    }

    static String duration(double seconds) {
        if (seconds < 90) return Math.round(seconds) + " s";
        if (seconds < 5400) return Math.round(seconds / 60) + " min";
        return String.format("%.1f h", seconds / 3600);
    }

    static String size(long bytes) {
        return bytes < 1L << 30 ? (bytes >> 20) + " MB" : String.format("%.1f GB", bytes / (double) (1L << 30));
    }
}
