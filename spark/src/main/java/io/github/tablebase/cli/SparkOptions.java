package io.github.tablebase.cli;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/** The Spark options the Spark front doors share: {@code --master} and {@code --conf key=value}. */
final class SparkOptions {
    private SparkOptions() {}

    /** Spark properties: --conf pairs, then --master (default local[*] when nothing else set one). */
    static SparkConf conf(Args args, String appName) {
        SparkConf conf = new SparkConf().setAppName(appName);
        conf.setIfMissing("spark.ui.enabled", "false");
        for (String pair : args.all("--conf")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) throw new Args.UsageException("--conf takes key=value, not '" + pair + "'");
            conf.set(pair.substring(0, eq), pair.substring(eq + 1));
        }
        if (args.has("--master")) conf.setMaster(checkedMaster(args.get("--master", null)));
        conf.setIfMissing("spark.master", "local[*]");
        // locally the driver's heap is sized for the slices of two plies (the plan's bytes an index): with Spark's
        // default 60 % for storage a 6-piece table's slices went to disk and back every ply (KRRRKQ: 6.7 GB a ply)
        if (conf.get("spark.master").startsWith("local")) conf.setIfMissing("spark.memory.fraction", "0.8");
        return conf;
    }

    /** The masters Spark knows: local ones, a standalone cluster, YARN, Kubernetes, Mesos. */
    private static final java.util.regex.Pattern MASTER = java.util.regex.Pattern.compile(
            "local|local\\[(\\*|\\d+)(,\\d+)?]|local-cluster\\[\\d+,\\d+,\\d+]|spark://.+|yarn|k8s://.+|mesos://.+");

    /** A master Spark would refuse with a stack trace, refused first in one line. */
    private static String checkedMaster(String master) {
        if (!MASTER.matcher(master).matches())
            throw new Args.UsageException("--master takes local[N], spark://HOST:PORT, yarn or k8s://URL, not '" + master + "'");
        return master;
    }

    /**
     * The Hadoop settings of a run before its session starts, as Spark makes them: every {@code spark.hadoop.*}
     * property without its prefix (file systems, credentials), so outputs are checked where the session will write.
     */
    static Configuration hadoop(Args args) {
        Configuration hadoop = new Configuration();
        for (Tuple2<String, String> p : conf(args, "").getAll())
            if (p._1().startsWith("spark.hadoop.")) hadoop.set(p._1().substring("spark.hadoop.".length()), p._2());
        return hadoop;
    }

    /** The work to do with a session. */
    interface SessionWork {
        int run(SparkSession spark) throws Exception;
    }

    /**
     * Runs {@code work} in a session built from the options; a session that was already active (tests,
     * notebooks) is used and left running, one started here is stopped.
     */
    static int withSession(Args args, String appName, SessionWork work) throws Exception {
        boolean ownSession = SparkSession.getActiveSession().isEmpty();
        SparkConf conf = conf(args, appName);
        // a session already active keeps its own settings after the run: each --conf is the run's alone
        java.util.Map<String, scala.Option<String>> before = new java.util.HashMap<>();
        if (!ownSession)
            for (String pair : args.all("--conf")) {
                String key = pair.substring(0, pair.indexOf('='));
                before.put(key, SparkSession.getActiveSession().get().conf().getOption(key));
            }
        SparkSession spark;
        try {
            spark = SparkSession.builder().config(conf).getOrCreate();
        } catch (Exception e) { // a master Spark cannot parse or reach, a setting it refuses: one line, not its stack trace
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new IllegalArgumentException("Spark did not start with master " + conf.get("spark.master") + ": " + why);
        }
        try {
            return work.run(spark);
        } finally {
            if (ownSession) spark.stop();
            else before.forEach((key, value) -> restore(spark, key, value));
        }
    }

    /** Sets {@code key} back to {@code value} in {@code spark}'s settings, or unsets it; a key Spark will not change at run time was not changed. */
    static void restore(SparkSession spark, String key, scala.Option<String> value) {
        try {
            if (value.isDefined()) spark.conf().set(key, value.get());
            else spark.conf().unset(key);
        } catch (Exception e) { // Spark's AnalysisException, undeclared
            // a static or core setting: the existing session ignored it
        }
    }
}
