#!/usr/bin/env bash
# Submits the generation to YARN in cluster mode: the driver runs in the cluster, so --out and --work
# are HDFS (or S3) paths.
#   deploy/yarn/submit.sh --endgame KBNK --out hdfs:///tablebases/kbnk --work hdfs:///tmp/tablebase-work/kbnk
# Needs HADOOP_CONF_DIR (or YARN_CONF_DIR) and SPARK_HOME (Spark 3.5, Scala 2.12, Java 17 on the nodes).
# Build the application jar first: mvn -B -DskipTests package  (spark/target/spark-tablebase-app.jar; Spark is provided).
# spark.yarn.maxAppAttempts=2: when the driver's container dies, YARN starts it again and, with the same
# --work, it continues from the last saved ply.
set -euo pipefail
: "${SPARK_HOME:?point SPARK_HOME at a Spark 3.5 installation}"
: "${HADOOP_CONF_DIR:?point HADOOP_CONF_DIR at the cluster configuration}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

exec "$SPARK_HOME/bin/spark-submit" \
  --master yarn \
  --deploy-mode cluster \
  --name tablebase-generate \
  --class io.github.tablebase.cli.Generate \
  --driver-memory "${DRIVER_MEMORY:-2g}" \
  --executor-memory "${EXECUTOR_MEMORY:-4g}" \
  --executor-cores "${EXECUTOR_CORES:-2}" \
  --num-executors "${EXECUTORS:-8}" \
  --conf spark.yarn.maxAppAttempts=2 \
  --conf spark.task.maxFailures=8 \
  "$root/spark/target/spark-tablebase-app.jar" \
  --partitions "${PARTITIONS:-16}" "$@"
