package io.github.tablebase.probe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional reads of a table's files: thread-safe on one channel, as lookups of several threads need. */
final class FileReads {
    private FileReads() {}

    /** Fills {@code buffer} from {@code position} of the file and flips it; a file that ends first is corrupt, {@code tooShort} says how. */
    static void readFully(FileChannel channel, ByteBuffer buffer, long position, String tooShort) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, at);
            if (n < 0) throw new CorruptTableException(tooShort);
            at += n;
        }
        buffer.flip();
    }
}
