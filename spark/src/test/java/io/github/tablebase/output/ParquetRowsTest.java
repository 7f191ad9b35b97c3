package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.table.Successors;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A part's rows cut into many row groups read back as the same rows as the table's export wrote. */
class ParquetRowsTest {
    @Test
    void rowsInManyRowGroupsAreTheRowsTheExportWrote(@TempDir Path dir) throws Exception {
        Path kqkr = GeneratedTables.folder("KQKR"), root = kqkr.getParent();
        Material material = Material.parse("KQKR");
        PositionIndex index = new PositionIndex(material);
        Map<Material, IndexedTable> smaller = GeneratedTables.smallerPackedTables(root, material);
        IndexedTable packed = IndexedTable.open(kqkr.resolve("kqkr.tbl"));
        TableExport.BestMoves b = TableExport.bestMoves(new Successors(material, packed.resultPlane(), smaller), index, 0, index.size(), CompressedTable.strongerSide(material),
                null);
        Path file = dir.resolve("rows.parquet");
        Configuration hadoop = new Configuration();
        try (OutputStream out = Files.newOutputStream(file)) {
            ParquetRows.write(index, b, null, hadoop, out, 1); // a row group each time the writer looks at its size
        }
        int groups;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), hadoop))) {
            groups = reader.getRowGroups().size();
        }
        Dataset<Row> many = SparkTestSession.session().read().parquet(file.toString());
        Dataset<Row> exported = SparkTestSession.session().read().parquet(kqkr.resolve(TableExport.PARQUET).toString());
        long rows = exported.count();
        assertTrue(groups > 10, groups + " row groups");
        assertEquals(rows, many.count());
        assertEquals(exported.schema(), many.schema());
        assertEquals(0, many.except(exported).count());
        assertEquals(0, exported.except(many).count());
    }
}
