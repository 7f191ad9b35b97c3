package io.github.tablebase;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local disk under a scheme of its own, {@code tbtest://}, that only a Hadoop configuration naming it
 * ({@code fs.tbtest.impl}) can open, the way {@code s3a://} needs its settings: code that builds a fresh
 * Configuration instead of the run's fails on it. It counts its open instances, so a test sees a leak.
 */
public final class SchemeFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "tbtest";
    public static final AtomicInteger OPEN = new AtomicInteger();
    private boolean open;

    /** Names this file system in a Hadoop configuration. */
    public static void register(Configuration hadoop) { hadoop.set("fs." + SCHEME + ".impl", SchemeFileSystem.class.getName()); }

    /** The {@code spark.hadoop.*} property that names it for a Spark run. */
    public static String sparkConf() { return "spark.hadoop.fs." + SCHEME + ".impl=" + SchemeFileSystem.class.getName(); }

    /** A local path as a URI of this scheme. */
    public static String uri(java.nio.file.Path local) { return SCHEME + "://" + local.toAbsolutePath(); }

    @Override public void initialize(URI uri, Configuration conf) throws IOException {
        super.initialize(uri, conf);
        open = true;
        OPEN.incrementAndGet();
    }

    @Override public URI getUri() { return URI.create(SCHEME + ":///"); }

    @Override public String getScheme() { return SCHEME; }

    @Override public void close() throws IOException {
        if (open) OPEN.decrementAndGet();
        open = false;
        super.close();
    }
}
