-- Where the defending rook holds out longest in KQKR, in Spark SQL (the queries of kqkr_rook_defence.ipynb).
-- Run it with jobs/sql --table out/kqkr --file notebooks/kqkr_rook_defence.sql, which registers the views kqkr (one row per canonical position, standing
-- for `positions` positions) and kqkr_positions (every position, one row each).
-- The test suite (NotebooksTest) runs every statement here against a freshly generated table.

-- Results for each side to move, counted over every position (each canonical row stands for `positions` positions).
SELECT stm, result, sum(positions) AS positions, round(100 * sum(positions) / sum(sum(positions)) OVER (PARTITION BY stm), 2) AS share_pct
FROM kqkr GROUP BY stm, result ORDER BY stm, result;

-- Where the defending rook holds longest: mean DTM of White's wins by rook square (White to move), laid out as a board.
SELECT substr(br, 2, 1) AS rank,
       round(avg(CASE WHEN substr(br, 1, 1) = 'a' THEN dtm END), 1) AS a,
       round(avg(CASE WHEN substr(br, 1, 1) = 'b' THEN dtm END), 1) AS b,
       round(avg(CASE WHEN substr(br, 1, 1) = 'c' THEN dtm END), 1) AS c,
       round(avg(CASE WHEN substr(br, 1, 1) = 'd' THEN dtm END), 1) AS d,
       round(avg(CASE WHEN substr(br, 1, 1) = 'e' THEN dtm END), 1) AS e,
       round(avg(CASE WHEN substr(br, 1, 1) = 'f' THEN dtm END), 1) AS f,
       round(avg(CASE WHEN substr(br, 1, 1) = 'g' THEN dtm END), 1) AS g,
       round(avg(CASE WHEN substr(br, 1, 1) = 'h' THEN dtm END), 1) AS h
FROM kqkr_positions WHERE stm = 'w' AND result = 'win'
GROUP BY rank ORDER BY rank DESC;

-- The rook squares where White wins least often and slowest (White to move).
SELECT br, round(100 * avg(IF(result = 'win', 1D, 0D)), 2) AS white_wins_pct, round(avg(IF(result = 'win', dtm, NULL)), 2) AS mean_dtm
FROM kqkr_positions WHERE stm = 'w' GROUP BY br ORDER BY white_wins_pct, mean_dtm DESC LIMIT 10;

-- A rook close to its king defends longer: mean DTM by the distance between them (White to move, White wins).
SELECT greatest(abs(ascii(br) - ascii(bk)), abs(cast(substr(br, 2, 1) AS INT) - cast(substr(bk, 2, 1) AS INT))) AS rook_king_distance,
       round(avg(dtm), 2) AS mean_dtm, count(*) AS positions
FROM kqkr_positions WHERE stm = 'w' AND result = 'win' GROUP BY rook_king_distance ORDER BY rook_king_distance;

-- The deepest wins, with the best move (the longest is 35 moves).
SELECT fen, dtm, best_move, positions FROM kqkr WHERE stm = 'w' AND result = 'win' ORDER BY dtm DESC, key LIMIT 10;

-- When Black to move wins: the rook skewers or forks the queen (or gives a stalemate trap), by DTM.
SELECT dtm, sum(positions) AS positions FROM kqkr WHERE stm = 'b' AND result = 'win' GROUP BY dtm ORDER BY dtm;
