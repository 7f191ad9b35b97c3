package io.github.tablebase;

import com.holdenkarau.spark.testing.JavaDatasetSuiteBase;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The one local Spark session of the test JVM (spark-testing-base's Dataset suite base, local[2, 4 attempts a task],
 * 2 shuffle partitions, no UI). Every Spark test takes it from {@link #get()}; it stops with the JVM.
 */
public final class SparkTestSession extends JavaDatasetSuiteBase {
    private static SparkTestSession instance;

    @Override public SparkConf conf() {
        return new SparkConf().setMaster("local[2,4]").setAppName("tablebase-tests")
                .set("spark.ui.enabled", "false")
                .set("spark.sql.shuffle.partitions", "2")
                .set("spark.driver.host", "127.0.0.1");
    }

    @Override public boolean enableHiveSupport() { return false; }

    public static synchronized SparkTestSession get() {
        if (instance == null) {
            instance = new SparkTestSession();
            instance.runBefore();
        }
        return instance;
    }

    public static SparkSession session() { return get().spark(); }

    public static JavaSparkContext context() { return get().jsc(); }
}
