-- Mate-depth statistics over the KBNK Parquet export, in Spark SQL.
-- Register the table first, e.g. in spark-sql or a notebook:
--   CREATE TEMPORARY VIEW kbnk USING parquet OPTIONS (path 'out/kbnk/parquet');
-- Every statement here is run against a freshly generated table by the test suite (KbnkTableTest).

-- Positions per side to move and their longest mate.
SELECT stm, count(*) AS positions, max(dtm) AS max_dtm, round(avg(dtm), 2) AS mean_dtm
FROM kbnk GROUP BY stm ORDER BY stm;

-- The DTM histogram, White to move.
SELECT dtm, count(*) AS positions FROM kbnk WHERE stm = 'w' GROUP BY dtm ORDER BY dtm;

-- Where the Black king is checkmated (always on the edge of the board).
SELECT bk, count(*) AS checkmates FROM kbnk WHERE stm = 'b' AND dtm = 0 GROUP BY bk ORDER BY checkmates DESC, bk;

-- The deepest positions.
SELECT fen, best_move FROM kbnk WHERE stm = 'w' AND dtm = 33 ORDER BY key LIMIT 10;

-- Which White piece makes the best move, by depth.
SELECT dtm,
       sum(CASE WHEN substr(best_move, 1, 2) = wk THEN 1 ELSE 0 END) AS king,
       sum(CASE WHEN substr(best_move, 1, 2) = wb THEN 1 ELSE 0 END) AS bishop,
       sum(CASE WHEN substr(best_move, 1, 2) = wn THEN 1 ELSE 0 END) AS knight
FROM kbnk WHERE stm = 'w' GROUP BY dtm ORDER BY dtm;
