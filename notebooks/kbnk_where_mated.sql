-- Where the Black king gets mated in KBNK, in Spark SQL (the queries of kbnk_where_mated.ipynb).
-- Run it with jobs/sql --table out/kbnk --file notebooks/kbnk_where_mated.sql, which registers the views kbnk (one row per canonical position, standing
-- for `positions` positions) and kbnk_positions (every position, one row each).
-- The test suite (NotebooksTest) runs every statement here against a freshly generated table.

-- Checkmate squares of the Black king, both bishop colours.
SELECT bk, count(*) AS checkmates FROM kbnk_positions WHERE stm = 'b' AND dtm = 0 GROUP BY bk ORDER BY checkmates DESC, bk;

-- Checkmates with a light-square bishop: the light corners a8 and h1 hold the most.
SELECT bk, count(*) AS checkmates
FROM kbnk_positions WHERE stm = 'b' AND dtm = 0 AND (ascii(wb) + cast(substr(wb, 2, 1) AS INT)) % 2 = 1
GROUP BY bk ORDER BY checkmates DESC, bk;

-- Mean DTM by Black king square (White to move, light-square bishop), laid out as a board.
SELECT substr(bk, 2, 1) AS rank,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'a' THEN dtm END), 1) AS a,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'b' THEN dtm END), 1) AS b,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'c' THEN dtm END), 1) AS c,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'd' THEN dtm END), 1) AS d,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'e' THEN dtm END), 1) AS e,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'f' THEN dtm END), 1) AS f,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'g' THEN dtm END), 1) AS g,
       round(avg(CASE WHEN substr(bk, 1, 1) = 'h' THEN dtm END), 1) AS h
FROM kbnk_positions WHERE stm = 'w' AND result = 'win' AND (ascii(wb) + cast(substr(wb, 2, 1) AS INT)) % 2 = 1
GROUP BY rank ORDER BY rank DESC;

-- Where White's king stands when it mates.
SELECT wk, count(*) AS checkmates FROM kbnk_positions WHERE stm = 'b' AND dtm = 0 GROUP BY wk ORDER BY checkmates DESC, wk LIMIT 12;

-- How far from the nearest corner the Black king is, by depth (White to move).
SELECT dtm,
       round(avg(least(
           greatest(abs(ascii(bk) - ascii('a')), abs(cast(substr(bk, 2, 1) AS INT) - 1)),
           greatest(abs(ascii(bk) - ascii('h')), abs(cast(substr(bk, 2, 1) AS INT) - 1)),
           greatest(abs(ascii(bk) - ascii('a')), abs(cast(substr(bk, 2, 1) AS INT) - 8)),
           greatest(abs(ascii(bk) - ascii('h')), abs(cast(substr(bk, 2, 1) AS INT) - 8)))), 2) AS mean_corner_distance
FROM kbnk_positions WHERE stm = 'w' AND result = 'win' GROUP BY dtm ORDER BY dtm;
