# Shared by the launchers in jobs/: builds the project when sources changed, then runs a main class
# with Spark's Java 17 flags. Sourced, not run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAR="$ROOT/spark/target/spark-tablebase.jar"
CLASSPATH_FILE="$ROOT/spark/target/classpath.txt"
PROBE_JAR="$ROOT/probe/target/tablebase-probe.jar"

# help_if_asked SCRIPT ARGS...: with --help or -h among ARGS, prints SCRIPT's opening comment (what it does, its
# usage) on standard output and exits 0, as the Java commands do.
help_if_asked() {
  local script=$1 arg; shift
  for arg in "$@"; do
    if [[ $arg == --help || $arg == -h ]]; then
      sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$script"
      exit 0
    fi
  done
}

build_if_needed() {
  local stale=0
  if [[ ! -f "$JAR" || ! -f "$CLASSPATH_FILE" || ! -f "$PROBE_JAR" ]]; then stale=1
  elif [[ -n "$(find "$ROOT"/{probe,spark}/src/main "$ROOT"/{,probe/,spark/}pom.xml -newer "$JAR" -print -quit)" ]]; then stale=1
  fi
  if (( stale )); then
    echo "building the project (mvn package) ..." >&2
    # also writes spark/target/classpath.txt; Maven's console prints colour resets even when quiet: they go
    (cd "$ROOT" && mvn -q -B -Dstyle.color=never -DskipTests package 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d' >&2)
  fi
}

# run_main CLASS ARGS...: driver heap from DRIVER_MEMORY, by default half the machine's memory: in local mode
# the driver's heap holds the whole table, and Spark's 1g default sends a 5-piece table's cached plies to
# recomputation.
# G1 unless JAVA_OPTS names another collector: each ply's copy of the state bytes is a humongous array, which G1
# frees at its next young collection (faster and a smaller peak heap than the parallel collector: docs/figures.md).
run_main() {
  build_if_needed
  bind_locally_if_local "$@"
  local opens gc="-XX:+UseG1GC" classpath
  opens=$(unzip -p "$JAR" tablebase/build.properties | sed -n 's/^jvm.options=//p')
  [[ "${JAVA_OPTS:-}" == *-XX:+Use*GC* ]] && gc=""
  classpath="$JAR:$PROBE_JAR:$(cat "$CLASSPATH_FILE")"
  archive_classes_if_needed "$classpath" "$opens"
  # shellcheck disable=SC2086
  local heap="-XX:MaxRAMPercentage=50"
  [[ -n "${DRIVER_MEMORY:-}" ]] && heap="-Xmx$DRIVER_MEMORY"
  exec java $heap $gc $opens ${JAVA_OPTS:-} \
    -XX:SharedArchiveFile="$CLASS_ARCHIVE" $QUIET_CDS \
    -Dlog4j.configurationFile="$ROOT/jobs/log4j2.properties" \
    -cp "$classpath" "$@"
}

# A run on local Spark binds to 127.0.0.1 unless SPARK_LOCAL_IP says otherwise: on a machine whose name
# resolves to the loopback address, Spark would warn on every run that it picked another interface.
bind_locally_if_local() {
  local master="local[*]"
  while (( $# )); do
    [[ "$1" == --master && $# -gt 1 ]] && master=$2
    shift
  done
  [[ "$master" == local* && -z "${SPARK_LOCAL_IP:-}" ]] && export SPARK_LOCAL_IP=127.0.0.1
  return 0
}

# The classes a Spark run loads, archived once per build with the JDK's class data sharing: Spark's
# thousands of classes are then mapped in at start instead of read and verified (a fifth of a small table's
# run). Made by a short run (KQK) into a temporary file, then renamed; a missing or stale archive only costs the time it would have saved (the JVM checks the
# jars it was made from and says nothing: QUIET_CDS).
CLASS_ARCHIVE="$ROOT/spark/target/spark-tablebase.jsa"
QUIET_CDS="-Xlog:cds=off -Xlog:cds+dynamic=off"
archive_classes_if_needed() {
  local classpath=$1 opens=$2 tmp
  [[ -f "$CLASS_ARCHIVE" && "$CLASS_ARCHIVE" -nt "$JAR" && "$CLASS_ARCHIVE" -nt "$PROBE_JAR" ]] && return 0
  echo "archiving the classes a run loads, once per build (class data sharing) ..." >&2
  tmp=$(mktemp -d)
  # shellcheck disable=SC2086
  if java -Xmx1g -XX:+UseG1GC $opens -XX:ArchiveClassesAtExit="$tmp/classes.jsa" $QUIET_CDS \
      -Dlog4j.configurationFile="$ROOT/jobs/log4j2.properties" -cp "$classpath" \
      io.github.tablebase.cli.Generate --endgame KQK --out "$tmp/kqk" --partitions 1 >/dev/null 2>&1 && [[ -s "$tmp/classes.jsa" ]]; then
    mv -f "$tmp/classes.jsa" "$CLASS_ARCHIVE"
  fi
  rm -rf "$tmp"
}

# run_probe CLASS ARGS...: a front door of the probe library, on its own jar alone: no Spark, Hadoop or Scala.
run_probe() {
  build_if_needed
  probe_java "$@"
}

# probe_java CLASS ARGS...: the probe's JVM, with the flags of the array PROBE_FLAGS where it is set. Its heap:
# DRIVER_MEMORY, else PROBE_HEAP (a launcher's default: the server's), else 1g. The heap on transparent huge pages
# where the kernel lends them on request: a cold probe fills fresh memory with decoded blocks, a page fault each
# 4 KB otherwise.
probe_java() {
  local pages="" heap="${PROBE_HEAP:--Xmx1g}"
  [[ -n "${DRIVER_MEMORY:-}" ]] && heap="-Xmx$DRIVER_MEMORY"
  grep -qs '\[always\]\|\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled && pages="-XX:+UseTransparentHugePages"
  # shellcheck disable=SC2086
  exec java $heap $pages ${JAVA_OPTS:-} ${PROBE_FLAGS[@]+"${PROBE_FLAGS[@]}"} -cp "$PROBE_JAR" "$@"
}

# run_probe_archived CLASS ARGS...: run_probe with the classes a probe loads archived (class data sharing, as
# for Spark above), for a probe whose start counts (KQQKQ, start to answer: 202 to 222 ms against 233 to 256):
# the first successful run of a build archives them at its exit into a temporary file, then renamed; the
# runs after it map them in.
PROBE_ARCHIVE="$ROOT/probe/target/tablebase-probe.jsa"
run_probe_archived() {
  build_if_needed
  if [[ -f "$PROBE_ARCHIVE" && "$PROBE_ARCHIVE" -nt "$PROBE_JAR" ]]; then
    # shellcheck disable=SC2206
    PROBE_FLAGS=(-XX:SharedArchiveFile="$PROBE_ARCHIVE" $QUIET_CDS)
    probe_java "$@"
  fi
  local tmp rc=0
  tmp=$(mktemp -d)
  # shellcheck disable=SC2206
  (PROBE_FLAGS=(-XX:ArchiveClassesAtExit="$tmp/classes.jsa" $QUIET_CDS); probe_java "$@") || rc=$?
  if (( rc == 0 )) && [[ -s "$tmp/classes.jsa" ]]; then mv -f "$tmp/classes.jsa" "$PROBE_ARCHIVE" 2>/dev/null || true; fi
  rm -rf "$tmp"
  return "$rc"
}
