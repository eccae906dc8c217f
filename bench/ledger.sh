#!/usr/bin/env bash
# The ledger benchmark, one command from the repo root:
#   bash bench/ledger.sh [workDir] [--ops=2000] [--rounds=3] [--slices=4] [--levels=1,4,16,32] [--warmup=settled|1..8] [--results=dir]
# Compiles (main + test classes), resolves the test classpath, runs dev.lomicontrol.bench.LedgerBenchmark.
# The report goes to stdout and to bench/results/ledger-<timestamp>.md; ledger logs and progress go to stderr.
set -euo pipefail

cd "$(dirname "$0")/.."
repo="$(pwd)"

echo "[bench] compiling (mvnw test-compile) ..." >&2
./mvnw -q -B -DskipTests test-compile >&2

classpath_file=target/bench-classpath.txt
if [[ ! -s "$classpath_file" || pom.xml -nt "$classpath_file" ]]; then
  echo "[bench] resolving the test classpath ..." >&2
  ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >&2
fi

# Run from a private copy of the compiled classes, so a build started meanwhile (mvn clean, another
# test-compile) cannot pull classes out from under the running benchmark.
snapshot="$(mktemp -d "${TMPDIR:-/tmp}/ledger-bench.XXXXXX")"
trap 'rm -rf "$snapshot"' EXIT
cp -r target/classes "$snapshot/classes"
cp -r target/test-classes "$snapshot/test-classes"
dependencies="$(cat "$classpath_file")"

java -Dbench.repo="$repo" \
  -cp "$snapshot/test-classes:$snapshot/classes:$dependencies" \
  dev.lomicontrol.bench.LedgerBenchmark "$@"
