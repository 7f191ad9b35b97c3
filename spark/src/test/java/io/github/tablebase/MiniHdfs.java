package io.github.tablebase;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS in the test's JVM (Hadoop's own mini cluster: a namenode and two datanodes on 127.0.0.1, their
 * blocks under {@code base}), which other processes reach by its {@code hdfs://} URI as they would a cluster's.
 */
public final class MiniHdfs implements AutoCloseable {
    private final MiniDFSCluster cluster;

    private MiniHdfs(MiniDFSCluster cluster) { this.cluster = cluster; }

    public static MiniHdfs start(Path base) throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toAbsolutePath().toString());
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(2).build();
        cluster.waitActive();
        return new MiniHdfs(cluster);
    }

    /** {@code path} (absolute, in HDFS) as the URI a command line takes. */
    public String uri(String path) { return cluster.getURI().toString() + path; }

    public FileSystem fileSystem() throws IOException { return cluster.getFileSystem(); }

    /** A file's bytes, read through HDFS. */
    public byte[] read(String path) throws IOException {
        try (InputStream in = fileSystem().open(new org.apache.hadoop.fs.Path(path))) {
            return in.readAllBytes();
        }
    }

    public boolean exists(String path) throws IOException { return fileSystem().exists(new org.apache.hadoop.fs.Path(path)); }

    @Override
    public void close() { cluster.shutdown(true); }
}
