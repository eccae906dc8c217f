#!/usr/bin/env bash
# The ledger benchmark, one command from the repo root:  bash bench/ledger.sh [workDir] [--ops=N] [--rounds=N] [--levels=1,4,16,32]
# Compiles (main + test classes), resolves the test classpath once, runs dev.lomicontrol.bench.LedgerBenchmark.
# The table goes to stdout and to bench/results/ledger-<timestamp>.md; ledger logs and progress go to stderr.
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

exec java -Dbench.repo="$repo" \
  -cp "target/test-classes:target/classes:$(cat "$classpath_file")" \
  dev.lomicontrol.bench.LedgerBenchmark "$@"
