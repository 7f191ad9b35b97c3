package io.github.tablebase.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.tablebase.SparkTestSession;
import io.github.tablebase.chess.Color;
import io.github.tablebase.chess.Material;
import io.github.tablebase.chess.PositionIndex;
import io.github.tablebase.table.TableFigures;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** The calibration of a plan: real solves (the published longest wins), timed in a Spark job on an executor. */
class MachinePaceTest {
    @Test
    void theCalibrationSolvesKrkThenKrrkTwiceToTheirPublishedLongestWins() {
        List<String> solved = new ArrayList<>();
        KernelBench.solveInMemory(MachinePace.CALIBRATION, 2, (m, s) -> {
            TableFigures figures = TableFigures.of(new PositionIndex(m), 0, s.results().results(), s.results().late());
            solved.add(m.name() + " " + figures.longestWin(Color.WHITE));
        });
        assertEquals(List.of("KRK 16", "KRRK 7", "KRRK 7"), solved); // KRK mates in 16 at most, KRRK in 7
    }

    @Test
    void aSparkJobMeasuresThePaceAsTheSecondsOfTheCalibrationOverTheReference() {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SparkTestSession.session().sparkContext());
        double pace = MachinePace.measure(jsc);
        assertTrue(pace > 0 && Double.isFinite(pace), "pace " + pace);
        // the same work on this thread, warm as the job's: within 3 times, whatever else the machine runs
        double here = MachinePace.calibrationSeconds() / MachinePace.REFERENCE_SECONDS;
        assertTrue(pace < 3 * here && here < 3 * pace, pace + " in the job, " + here + " here");
    }
}
