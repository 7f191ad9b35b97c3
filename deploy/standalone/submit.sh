#!/usr/bin/env bash
# Submits the generation to a Spark standalone cluster (Spark 3.5, Scala 2.12, Java 17 on every node).
#   deploy/standalone/submit.sh spark://master-host:7077 --endgame KBNK --out /shared/tablebases/kbnk --work /shared/work/kbnk
# Build the application jar first: mvn -B -DskipTests package  (spark/target/spark-tablebase-app.jar; Spark is provided).
# --out and --work must be on storage every node and the driver reach (NFS, HDFS: hdfs://..., S3: s3a://...).
# Rerunning the same command after a crash continues from the last ply saved under --work.
set -euo pipefail
: "${SPARK_HOME:?point SPARK_HOME at a Spark 3.5 installation}"
master=${1:?give the master URL, e.g. spark://master-host:7077}; shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

exec "$SPARK_HOME/bin/spark-submit" \
  --master "$master" \
  --deploy-mode client \
  --name tablebase-generate \
  --class io.github.tablebase.cli.Generate \
  --driver-memory "${DRIVER_MEMORY:-2g}" \
  --executor-memory "${EXECUTOR_MEMORY:-2g}" \
  --total-executor-cores "${TOTAL_CORES:-8}" \
  --conf spark.task.maxFailures=8 \
  "$root/spark/target/spark-tablebase-app.jar" \
  --partitions "${PARTITIONS:-${TOTAL_CORES:-8}}" "$@"
