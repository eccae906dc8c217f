#!/usr/bin/env bash
# Spring Data JDBC vs the hand-written SQL it replaced, on one store file (ADR 0012):
#   bash bench/jdbc.sh [--ops=20000] [--rounds=3]
# Compiles (main + test classes), resolves the test classpath, runs dev.lomicontrol.bench.StoreJdbcBenchmark.
set -euo pipefail

cd "$(dirname "$0")/.."

echo "[bench] compiling (mvnw test-compile) ..." >&2
./mvnw -q -B -o -DskipTests test-compile >&2

classpath_file=target/bench-classpath.txt
if [[ ! -s "$classpath_file" || pom.xml -nt "$classpath_file" ]]; then
  echo "[bench] resolving the test classpath ..." >&2
  ./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >&2
fi

snapshot="$(mktemp -d "${TMPDIR:-/tmp}/jdbc-bench.XXXXXX")"
trap 'rm -rf "$snapshot"' EXIT
cp -r target/classes "$snapshot/classes"
cp -r target/test-classes "$snapshot/test-classes"

java -cp "$snapshot/test-classes:$snapshot/classes:$(cat "$classpath_file")" dev.lomicontrol.bench.StoreJdbcBenchmark "$@"
