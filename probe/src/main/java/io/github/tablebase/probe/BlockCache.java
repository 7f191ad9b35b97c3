package io.github.tablebase.probe;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The decompressed blocks of compressed tables, within a budget of bytes: a block decompressed by a lookup (whole,
 * or as far as the lookup needed) stays until newer blocks push it out, first in first out. A lookup reads its
 * block's slot without a lock; admitting and evicting take this object's lock. A block array keeps its bytes once
 * in a slot, but for a marked entry's, which a lookup may change once to the ply it found (see {@code
 * CompressedTable}), so a lookup that still holds an evicted block reads it whole.
 */
public final class BlockCache {
    /** The default budget: 256 MB, or a quarter of the heap when that is less. */
    public static long defaultBytes() { return Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4); }

    private record Held(AtomicReferenceArray<byte[]> slots, int block, int bytes) {}

    /** A block decoded in part ({@code CompressedTable}'s), kept so that a lookup further into it goes on from there. */
    interface PartialBlock {
        /** The bytes it holds: its block's, twice (the bytes decoded, and its decoder's window). */
        int bytes();

        /** Lets it go, decoding it to its end first where its table so chooses; called without this cache's lock. */
        void letGo();
    }

    /** The least number of blocks decoded in part kept, whatever their bytes. */
    static final int LEAST_PARTIAL_BLOCKS = 16;

    private final long budget;
    private final ArrayDeque<Held> order = new ArrayDeque<>();
    private long used;
    private final ArrayDeque<PartialBlock> partial = new ArrayDeque<>();
    private long partialBytes;

    /** A cache of at most {@code budget} bytes of blocks (the last block admitted stays even when it alone is larger). */
    public BlockCache(long budget) {
        if (budget < 0) throw new IllegalArgumentException("a cache of " + budget + " bytes");
        this.budget = budget;
    }

    public long budget() { return budget; }

    /** The bytes of blocks held now. */
    public synchronized long used() { return used; }

    /**
     * Puts a decompressed block (or its first chunks) in its slot, unless another thread put as much there first (that
     * one is returned), and evicts the oldest blocks beyond the budget. A longer array replaces a shorter one; the
     * bytes it adds are held as one more entry of the order, so that the count stays the sum of what is held.
     */
    synchronized byte[] admit(AtomicReferenceArray<byte[]> slots, int block, byte[] data) {
        byte[] present = slots.get(block);
        if (present != null && present.length >= data.length) return present;
        int added = data.length - (present == null ? 0 : present.length);
        slots.set(block, data);
        order.add(new Held(slots, block, added));
        used += added;
        while (used > budget && order.size() > 1) {
            Held oldest = order.poll();
            oldest.slots().set(oldest.block(), null);
            used -= oldest.bytes();
        }
        return data;
    }

    /**
     * Keeps {@code p} among the blocks decoded in part, those of every table this cache serves within an eighth of its
     * budget ({@link #LEAST_PARTIAL_BLOCKS} at least: a set's tables share it, where a budget a table would let a
     * whole set's lookups hold gigabytes); returns those it lets go to make room, oldest first, for the caller to
     * {@link PartialBlock#letGo} outside this lock.
     */
    synchronized java.util.List<PartialBlock> keepPartial(PartialBlock p) {
        partial.add(p);
        partialBytes += p.bytes();
        java.util.List<PartialBlock> gone = new java.util.ArrayList<>();
        while (partialBytes > budget / 8 && partial.size() > LEAST_PARTIAL_BLOCKS) {
            PartialBlock oldest = partial.poll();
            partialBytes -= oldest.bytes();
            gone.add(oldest);
        }
        return gone;
    }

    /** The bytes the blocks decoded in part hold now. */
    synchronized long partialBytes() { return partialBytes; }

    /** Forgets the blocks decoded in part that {@code which} names (a table closed). */
    synchronized void forgetPartial(java.util.function.Predicate<PartialBlock> which) {
        partial.removeIf(p -> {
            if (!which.test(p)) return false;
            partialBytes -= p.bytes();
            return true;
        });
    }

    /** Drops every block of {@code slots} (a table closed). */
    synchronized void drop(AtomicReferenceArray<byte[]> slots) {
        order.removeIf(held -> {
            if (held.slots() != slots) return false;
            used -= held.bytes();
            return true;
        });
        for (int k = 0; k < slots.length(); k++) slots.set(k, null);
    }
}
