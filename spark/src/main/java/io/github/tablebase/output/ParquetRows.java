package io.github.tablebase.output;

import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.Dtz;
import io.github.tablebase.probe.EntryResults;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Writes a part's {@link PositionRows} as one Parquet file, in the task that found its best moves: the Parquet
 * library's own column writers, no Spark SQL job, zstd and the format's version 2 encodings (the sorted keys, their squares, the
 * sides and the position counts delta-encoded, the plies and moves in dictionaries and run lengths; Spark's own writer would put
 * the sides and counts in dictionaries too), and the Spark schema in the footer, so that Spark reads the columns with
 * the types of {@link PositionRows#schema}.
 */
final class ParquetRows {
    private ParquetRows() {}

    /** The file name of part {@code k}'s rows. */
    static String fileName(int k) { return String.format("part-%05d.zstd.parquet", k); }

    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message spark_schema {
              required int64 key;
              required int64 squares;
              required int32 side (INTEGER(8,true));
              optional int32 ply (INTEGER(16,true));
              optional int32 move (INTEGER(16,true));
              required int32 positions (INTEGER(8,true));
              optional int32 dtz (INTEGER(16,true));
              optional int32 wdl (INTEGER(8,true));
            }""");

    /** The footer's key for the Spark schema, as Spark's own writer stores it. */
    private static final String SPARK_SCHEMA = "org.apache.spark.sql.parquet.row.metadata";

    /** The row group's size at which the writer starts another, as Parquet's own writer's default. */
    private static final long ROW_GROUP_BYTES = ParquetWriter.DEFAULT_BLOCK_SIZE;

    /** How many rows pass between two looks at the buffered size (each sums every column's). */
    private static final int ROWS_BETWEEN_SIZE_CHECKS = 1 << 16;

    /**
     * Writes the rows of a part's results and best moves into {@code out} and returns the bytes written. Each row goes
     * straight to the columns' writers: a record consumer's field names, validation and levels cost more than the
     * encoding itself.
     */
    static long write(PositionIndex index, TableExport.BestMoves b, EntryResults dtz, Configuration hadoop, OutputStream out) throws IOException {
        return write(index, b, dtz, hadoop, out, ROW_GROUP_BYTES);
    }

    /**
     * {@link #write(PositionIndex, TableExport.BestMoves, EntryResults, Configuration, OutputStream)}, a row group ended
     * once it holds {@code rowGroupBytes}; {@code dtz}, the table's {@link Dtz} codes by entry, or null.
     */
    static long write(PositionIndex index, TableExport.BestMoves b, EntryResults dtz, Configuration hadoop, OutputStream out, long rowGroupBytes)
            throws IOException {
        StreamFile file = new StreamFile(out);
        ParquetProperties properties = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withDictionaryEncoding("key", false) // a small table's keys all fit a dictionary: 8 bytes each, where deltas take bits
                .withDictionaryEncoding("squares", false) // in key order, most rows move one piece a square or two: deltas
                // a side or a count of positions, of two or four values, takes a bit or two as a delta: a dictionary's lookup
                // a value costs more time than its bytes save (KQKR's rows 11 % faster, 1 % larger)
                .withDictionaryEncoding("side", false)
                .withDictionaryEncoding("positions", false)
                .build();
        CodecFactory codecs = new CodecFactory(hadoop, properties.getPageSizeThreshold());
        ParquetFileWriter writer = new ParquetFileWriter(file, SCHEMA, ParquetFileWriter.Mode.CREATE, rowGroupBytes, 0);
        writer.start();
        RowGroup group = new RowGroup(properties, codecs.getCompressor(CompressionCodecName.ZSTD));
        try {
            PositionRows.forEach(index, b.lo(), b.results(), b.late(), b.moves(), dtz, (key, squares, side, ply, move, positions, code) -> {
                group.add(key, squares, side, ply, move, positions, code);
                if (group.rows % ROWS_BETWEEN_SIZE_CHECKS == 0 && group.store.getBufferedSize() >= rowGroupBytes) group.flushTo(writer);
            });
            if (group.rows > 0) group.flushTo(writer);
            writer.end(Map.of(SPARK_SCHEMA, PositionRows.schema().json()));
        } finally {
            group.close();
            codecs.release();
        }
        return file.position;
    }

    /** The row group being written: its columns' writers over the compressed pages it holds until it is flushed. */
    private static final class RowGroup {
        private final ParquetProperties properties;
        private final CodecFactory.BytesCompressor compressor;
        private ColumnChunkPageWriteStore pages;
        ColumnWriteStore store;
        private ColumnWriter key, squares, side, ply, move, positions, dtz, wdl;
        long rows;

        RowGroup(ParquetProperties properties, CodecFactory.BytesCompressor compressor) {
            this.properties = properties;
            this.compressor = compressor;
            open();
        }

        private void open() {
            pages = new ColumnChunkPageWriteStore(compressor, SCHEMA, properties.getAllocator(), properties.getColumnIndexTruncateLength());
            store = properties.newColumnWriteStore(SCHEMA, pages);
            key = column(0);
            squares = column(1);
            side = column(2);
            ply = column(3);
            move = column(4);
            positions = column(5);
            dtz = column(6);
            wdl = column(7);
            rows = 0;
        }

        private ColumnWriter column(int at) { return store.getColumnWriter(SCHEMA.getColumns().get(at)); }

        /**
         * One row: {@code ply} or {@code move} -1 for none (a null, at definition level 0 of the optional column), {@code
         * code} a {@link Dtz} code ({@link Dtz#NONE}: null DTZ and WDL).
         */
        void add(long key, long squares, int side, int ply, int move, int positions, int code) {
            this.key.write(key, 0, 0);
            this.squares.write(squares, 0, 0);
            this.side.write(side, 0, 0);
            if (ply >= 0) this.ply.write(ply, 0, 1);
            else this.ply.writeNull(0, 0);
            if (move >= 0) this.move.write(move, 0, 1);
            else this.move.writeNull(0, 0);
            this.positions.write(positions, 0, 0);
            if (code == Dtz.NONE) {
                dtz.writeNull(0, 0);
                wdl.writeNull(0, 0);
            } else {
                dtz.write(Dtz.signed(code), 0, 1);
                wdl.write(Dtz.wdl(code, Dtz.RULE_PLIES), 0, 1);
            }
            store.endRecord();
            rows++;
        }

        /** Writes the group's pages into {@code writer} as one row group, and starts the next. */
        void flushTo(ParquetFileWriter writer) throws IOException {
            store.flush();
            writer.startBlock(rows);
            pages.flushToFileWriter(writer);
            writer.endBlock();
            close();
            open();
        }

        void close() { store.close(); }
    }

    /** The stream a task writes aside into, as the Parquet writer's file: it counts, and leaves closing to its owner. */
    private static final class StreamFile implements OutputFile {
        private final OutputStream out;
        long position;

        StreamFile(OutputStream out) { this.out = out; }

        @Override public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                @Override public long getPos() { return position; }

                @Override public void write(int b) throws IOException {
                    out.write(b);
                    position++;
                }

                @Override public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    position += len;
                }

                @Override public void flush() throws IOException { out.flush(); }

                @Override public void close() throws IOException { out.flush(); }
            };
        }

        @Override public PositionOutputStream createOrOverwrite(long blockSizeHint) { return create(blockSizeHint); }

        @Override public boolean supportsBlockSize() { return false; }

        @Override public long defaultBlockSize() { return 0; }
    }
}
