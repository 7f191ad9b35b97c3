package io.github.tablebase.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How an executor reaches a table's files: a local file as it is, any other file system's copied once to its disk. */
class TableFilesTest {
    /** The local disk seen through a file system that is not a local one, as HDFS or S3 would be. */
    public static final class Remote extends FilterFileSystem {
        public Remote() { super(new RawLocalFileSystem()); }

        @Override public void initialize(URI name, Configuration conf) throws IOException {
            fs.initialize(URI.create("file:///"), conf);
            setConf(conf);
        }

        @Override public URI getUri() { return URI.create("tbremote:///"); }

        @Override public String getScheme() { return "tbremote"; }

        @Override public org.apache.hadoop.fs.Path makeQualified(org.apache.hadoop.fs.Path path) { return path.makeQualified(getUri(), getWorkingDirectory()); }

        @Override protected void checkPath(org.apache.hadoop.fs.Path path) {}

        private static org.apache.hadoop.fs.Path local(org.apache.hadoop.fs.Path p) { return new org.apache.hadoop.fs.Path("file", null, p.toUri().getPath()); }

        @Override public org.apache.hadoop.fs.FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException { return fs.open(local(f), bufferSize); }

        @Override public org.apache.hadoop.fs.FileStatus getFileStatus(org.apache.hadoop.fs.Path f) throws IOException {
            org.apache.hadoop.fs.FileStatus s = fs.getFileStatus(local(f));
            s.setPath(f.makeQualified(getUri(), getWorkingDirectory()));
            return s;
        }
    }

    @Test
    void aLocalFileIsUsedWhereItIsAndARemoteOneIsCopiedOnce(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kqk.tbl");
        byte[] bytes = new byte[100_000];
        new java.util.Random(3).nextBytes(bytes);
        Files.write(file, bytes);
        Configuration hadoop = new Configuration();
        hadoop.set("fs.tbremote.impl", Remote.class.getName());
        hadoop.setBoolean("fs.tbremote.impl.disable.cache", true);
        assertEquals(file, TableFiles.local(new org.apache.hadoop.fs.Path(file.toUri()), hadoop));

        org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path("tbremote://" + file.toAbsolutePath());
        Path copy = TableFiles.local(remote, hadoop);
        assertNotEquals(file, copy);
        assertArrayEquals(bytes, Files.readAllBytes(copy));
        assertEquals(copy, TableFiles.local(remote, hadoop), "copied once");
    }
}
