package io.github.tablebase.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.GeneratedTables;
import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.probe.BlockCache;
import io.github.tablebase.probe.CompressedTable;
import io.github.tablebase.probe.IndexedTable;
import io.github.tablebase.probe.Manifest;
import io.github.tablebase.probe.Result;
import io.github.tablebase.probe.SampleCheck;
import io.github.tablebase.probe.Tablebase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Plies past what a result byte holds, through every file: with a byte lowered to 31 plies, KQKR (69 plies) and KRK
 * (32) are written with their later plies listed beside the bytes, in several part files, and every reader gives what
 * the tables written with whole bytes give: each entry of the packed and compressed files, the best moves, the
 * Parquet rows, the manifest's figures, and a probe checked against the rules on a sample.
 */
class LatePliesFilesTest {
    private static final int BYTE_PLIES = GeneratedTables.LATE_BYTE_PLIES;

    @Test
    void tablesWrittenWithLatePliesReadAsTablesWrittenWithWholeBytes() throws Exception {
        Path whole = GeneratedTables.folder("KQKR").getParent(), dir = GeneratedTables.latePliesKqkr();
        long lateKqkr = 0;
        for (String endgame : List.of("KQKR", "KRK", "KQK")) {
            Material material = Material.parse(endgame);
            Path a = whole.resolve(endgame.toLowerCase()), b = dir.resolve(endgame.toLowerCase());
            Manifest ma = Manifest.read(a.resolve(Manifest.FILE)), mb = Manifest.read(b.resolve(Manifest.FILE));
            assertEquals(ma.sides(), mb.sides(), endgame + ": positions, longest wins and histograms");

            IndexedTable pa = IndexedTable.open(files(a, ma.packedFiles())), pb = IndexedTable.open(files(b, mb.packedFiles()));
            long late = 0;
            for (long e = 0; e < 2 * pa.index().size(); e++) {
                int r = pa.result(e);
                assertEquals(r, pb.result(e), endgame + " entry " + e);
                if (r - 1 > BYTE_PLIES) late++;
            }
            if (endgame.equals("KQKR")) lateKqkr = late;
            long sizes = 0;
            for (Manifest.FileEntry part : mb.packedFiles()) {
                Path file = b.resolve(part.name());
                assertEquals(part.bytes(), Files.size(file), file.toString());
                sizes += Files.size(file) - IndexedTable.partSize(part.firstIndex(), part.endIndex());
            }
            assertEquals(late == 0, sizes == 0, endgame + ": " + late + " entries past " + BYTE_PLIES + " plies, " + sizes + " bytes listing them");
            assertArrayEquals(movePlane(a, ma), movePlane(b, mb), endgame + ": the best moves");

            // each compressed file's stored side (each writer's choice: the late plies' marker bytes compress otherwise) as its packed file
            for (Path folder : List.of(a, b)) {
                Manifest m = folder == a ? ma : mb;
                IndexedTable p = folder == a ? pa : pb;
                CompressedTable c = CompressedTable.open(files(folder, m.compressedFiles()), new BlockCache(1 << 24));
                int side = c.stores(Color.WHITE) ? 0 : 1;
                for (long i = 0; i < p.index().size(); i++) {
                    int r = p.result(2 * i + side);
                    if (r != Result.NONE && c.result(i) != CompressedTable.BY_EXITS) assertEquals(r, c.result(i), endgame + " index " + i);
                }
                c.close();
            }

            Dataset<Row> ra = SparkTestSession.session().read().parquet(a.resolve("parquet").toString());
            Dataset<Row> rb = SparkTestSession.session().read().parquet(b.resolve("parquet").toString());
            assertEquals(PositionRows.schema().asNullable(), rb.schema().asNullable(), endgame + ": the columns Spark reads from the files the tasks wrote");
            assertEquals(ra.count(), rb.count(), endgame);
            assertEquals(0, ra.except(rb).count(), endgame + ": the Parquet rows");
        }
        assertTrue(lateKqkr > 10_000, lateKqkr + " KQKR entries past " + BYTE_PLIES + " plies");

        try (Tablebase packed = Tablebase.open(List.of(dir), Tablebase.Check.SHA256, BlockCache.defaultBytes(), Tablebase.Source.PACKED);
             Tablebase compressed = Tablebase.open(List.of(dir), Tablebase.Check.SHA256, BlockCache.defaultBytes(), Tablebase.Source.COMPRESSED_FIRST)) {
            for (String endgame : List.of("KQKR", "KRK")) {
                SampleCheck.Report r = SampleCheck.run(packed, compressed, Material.parse(endgame), 20_000, 11);
                assertEquals(0, r.mismatches(), endgame + ": " + r.firstMismatch());
            }
        }
    }

    private static List<Path> files(Path folder, List<Manifest.FileEntry> listed) {
        return listed.stream().map(f -> folder.resolve(f.name())).toList();
    }

    /** The move planes of a table's packed parts, in index order. */
    private static byte[] movePlane(Path folder, Manifest manifest) throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Manifest.FileEntry part : manifest.packedFiles()) {
            long lo = part.firstIndex(), hi = part.endIndex();
            byte[] bytes = Files.readAllBytes(folder.resolve(part.name()));
            int planes = (int) IndexedTable.partSize(lo, hi), n = (int) (2 * (hi - lo));
            out.write(bytes, planes - n, n);
        }
        return out.toByteArray();
    }
}
