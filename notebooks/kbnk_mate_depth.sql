-- Mate-depth statistics over the KBNK Parquet export, in Spark SQL (the queries of kbnk_mate_depth.ipynb).
-- Run it with jobs/sql --table out/kbnk --file notebooks/kbnk_mate_depth.sql, which registers the views kbnk (one row per canonical position, standing
-- for `positions` positions) and kbnk_positions (every position, one row each).
-- The test suite (NotebooksTest) runs every statement here against a freshly generated table.

-- Positions per side to move, with the longest and the mean distance to mate.
SELECT stm, result, sum(positions) AS positions, max(dtm) AS max_dtm, round(sum(dtm * positions) / sum(positions), 2) AS mean_dtm
FROM kbnk GROUP BY stm, result ORDER BY stm, result;

-- The DTM histogram of both sides.
SELECT dtm,
       sum(CASE WHEN stm = 'w' THEN positions ELSE 0 END) AS white_to_move,
       sum(CASE WHEN stm = 'b' THEN positions ELSE 0 END) AS black_to_move
FROM kbnk WHERE result != 'draw' GROUP BY dtm ORDER BY dtm;

-- The deepest positions: White to move, mate in 33.
SELECT fen, best_move, positions FROM kbnk WHERE stm = 'w' AND dtm = (SELECT max(dtm) FROM kbnk WHERE stm = 'w') ORDER BY key LIMIT 10;

-- Which White piece makes the best move, by depth.
SELECT dtm,
       sum(CASE WHEN substr(best_move, 1, 2) = wk THEN positions ELSE 0 END) AS king,
       sum(CASE WHEN substr(best_move, 1, 2) = wb THEN positions ELSE 0 END) AS bishop,
       sum(CASE WHEN substr(best_move, 1, 2) = wn THEN positions ELSE 0 END) AS knight
FROM kbnk WHERE stm = 'w' AND result = 'win' GROUP BY dtm ORDER BY dtm;

-- The two bishop colours are mirror images: the same counts and depths.
SELECT CASE WHEN (ascii(wb) + cast(substr(wb, 2, 1) AS INT)) % 2 = 1 THEN 'light' ELSE 'dark' END AS bishop,
       stm, count(*) AS positions, max(dtm) AS max_dtm, round(avg(dtm), 3) AS mean_dtm
FROM kbnk_positions WHERE result != 'draw' GROUP BY 1, stm ORDER BY stm, bishop;
