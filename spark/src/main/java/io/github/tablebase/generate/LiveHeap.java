package io.github.tablebase.generate;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The largest heap left after any garbage collection while it listens: the live data at its peak (the driver and,
 * in local mode, its executors), not the garbage a heap's peak use also counts.
 */
final class LiveHeap implements NotificationListener, AutoCloseable {
    /** Indexes below which the heap is mostly Spark's and the JVM's own, not the table's: no figure per index. */
    static final long PER_INDEX_FROM = 1L << 22;

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

    /**
     * The solve line's heap: the peak after any collection, and per index when the table is large enough for that
     * to say something of it; none when no collection ran while it solved.
     */
    static String figures(long peak, long indexes) {
        if (peak == 0) return "no garbage collection while it solved";
        String mb = String.format("peak live heap (after GC) %,d MB", peak >> 20);
        return indexes < PER_INDEX_FROM ? mb : mb + String.format(", %.1f bytes per index entry", (double) peak / indexes);
    }

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
