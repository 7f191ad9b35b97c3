package tablebase.output;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import tablebase.chess.PositionIndex;

/**
 * Writes a slice's {@link PositionRows} as one Parquet file, in the task that found its best moves: the Parquet
 * library's own writer, no Spark SQL job, zstd and the format's version 2 encodings (the sorted keys, the sides and
 * the position counts delta-encoded, the plies and moves in dictionaries and run lengths; Spark's own writer would put
 * the sides and counts in dictionaries too), and the Spark schema in the footer, so that Spark reads the columns with
 * the types of {@link PositionRows#schema}.
 */
final class ParquetRows {
    private ParquetRows() {}

    /** The file name of slice {@code k}'s rows. */
    static String fileName(int k) { return String.format("part-%05d.zstd.parquet", k); }

    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message spark_schema {
              required int64 key;
              required int32 side (INTEGER(8,true));
              optional int32 ply (INTEGER(16,true));
              optional int32 move (INTEGER(16,true));
              required int32 positions (INTEGER(8,true));
            }""");

    /** The footer's key for the Spark schema, as Spark's own writer stores it. */
    private static final String SPARK_SCHEMA = "org.apache.spark.sql.parquet.row.metadata";

    /** Writes the rows of a slice's results and best moves into {@code out} and returns the bytes written. */
    static long write(PositionIndex index, TableExport.BestMoves b, Configuration hadoop, OutputStream out) throws IOException {
        StreamFile file = new StreamFile(out);
        Row row = new Row();
        try (ParquetWriter<Row> writer = new Builder(file)
                .withConf(hadoop)
                .withCompressionCodec(CompressionCodecName.ZSTD)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withDictionaryEncoding("key", false) // a small table's keys all fit a dictionary: 8 bytes each, where deltas take bits
                // a side or a count of positions, of two or four values, takes a bit or two as a delta: a dictionary's lookup
                // a value costs more time than its bytes save (KQKR's rows 11 % faster, 1 % larger)
                .withDictionaryEncoding("side", false)
                .withDictionaryEncoding("positions", false)
                .build()) {
            PositionRows.forEach(index, b.lo(), b.results(), b.late(), b.moves(), (key, side, ply, move, positions) -> {
                row.key = key;
                row.side = side;
                row.ply = ply;
                row.move = move;
                row.positions = positions;
                writer.write(row);
            });
        }
        return file.position;
    }

    /** One row, reused: the writer consumes it before the next. */
    private static final class Row {
        long key;
        int side, ply, move, positions;
    }

    private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
        Builder(OutputFile file) { super(file); }

        @Override protected Builder self() { return this; }

        @Override protected WriteSupport<Row> getWriteSupport(Configuration conf) { return new RowWriteSupport(); }
    }

    private static final class RowWriteSupport extends WriteSupport<Row> {
        private RecordConsumer consumer;

        @Override public WriteContext init(Configuration configuration) {
            return new WriteContext(SCHEMA, Map.of(SPARK_SCHEMA, PositionRows.schema().json()));
        }

        @Override public void prepareForWrite(RecordConsumer recordConsumer) { consumer = recordConsumer; }

        @Override public void write(Row row) {
            consumer.startMessage();
            consumer.startField("key", 0);
            consumer.addLong(row.key);
            consumer.endField("key", 0);
            field("side", 1, row.side);
            if (row.ply >= 0) field("ply", 2, row.ply);
            if (row.move >= 0) field("move", 3, row.move);
            field("positions", 4, row.positions);
            consumer.endMessage();
        }

        private void field(String name, int at, int value) {
            consumer.startField(name, at);
            consumer.addInteger(value);
            consumer.endField(name, at);
        }
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
