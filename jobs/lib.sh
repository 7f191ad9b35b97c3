# Shared by the launchers in jobs/: builds the project when sources changed, then runs a main class
# with Spark's Java 17 flags. Sourced, not run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAR="$ROOT/spark/target/spark-tablebase.jar"
CLASSPATH_FILE="$ROOT/spark/target/classpath.txt"
PROBE_JAR="$ROOT/probe/target/tablebase-probe.jar"

build_if_needed() {
  local stale=0
  if [[ ! -f "$JAR" || ! -f "$CLASSPATH_FILE" || ! -f "$PROBE_JAR" ]]; then stale=1
  elif [[ -n "$(find "$ROOT"/{probe,spark}/src/main "$ROOT"/{,probe/,spark/}pom.xml -newer "$JAR" -print -quit)" ]]; then stale=1
  fi
  if (( stale )); then
    echo "building the project (mvn package) ..." >&2
    (cd "$ROOT" && mvn -q -B -Dstyle.color=never -DskipTests package >&2) # also writes spark/target/classpath.txt
  fi
}

# run_main CLASS ARGS...: driver heap from DRIVER_MEMORY (default 1g, Spark's own default driver memory).
# The parallel collector unless JAVA_OPTS names another: a batch job wants throughput, and on 2 cores G1's
# concurrent work takes a core from the solving (KBNK end to end: 16.1-16.6 s with G1, 14.7-14.9 s without).
run_main() {
  build_if_needed
  local opens gc="-XX:+UseParallelGC"
  opens=$(unzip -p "$JAR" tablebase/build.properties | sed -n 's/^jvm.options=//p')
  [[ "${JAVA_OPTS:-}" == *-XX:+Use*GC* ]] && gc=""
  # shellcheck disable=SC2086
  exec java -Xmx"${DRIVER_MEMORY:-1g}" $gc $opens ${JAVA_OPTS:-} \
    -Dlog4j.configurationFile="$ROOT/jobs/log4j2.properties" \
    -cp "$JAR:$PROBE_JAR:$(cat "$CLASSPATH_FILE")" "$@"
}

# run_probe CLASS ARGS...: a front door of the probe library, on its own jar alone: no Spark, Hadoop or Scala.
run_probe() {
  build_if_needed
  # shellcheck disable=SC2086
  exec java -Xmx"${DRIVER_MEMORY:-1g}" ${JAVA_OPTS:-} -cp "$PROBE_JAR" "$@"
}
