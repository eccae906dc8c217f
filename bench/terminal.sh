#!/usr/bin/env bash
# The terminal throughput benchmark, one command from the repo root:
#   bash bench/terminal.sh [workDir] [--mb=200] [--rounds=3] [--results=dir]
# Compiles (main + test classes), resolves the test classpath, runs dev.lomicontrol.bench.TerminalBenchmark.
# Set LOMI_BUILD_DIR to build somewhere other than target/ (e.g. while others build in parallel).
# The report goes to stdout and to bench/results/terminal-<timestamp>.md; progress goes to stderr.
set -euo pipefail

cd "$(dirname "$0")/.."
repo="$(pwd)"
build="${LOMI_BUILD_DIR:-$repo/target}"

echo "[bench] compiling (mvnw test-compile into $build) ..." >&2
./mvnw -q -B -DskipTests -Dlomi.build.dir="$build" test-compile >&2

classpath_file="$build/bench-classpath.txt"
if [[ ! -s "$classpath_file" || pom.xml -nt "$classpath_file" ]]; then
  echo "[bench] resolving the test classpath ..." >&2
  ./mvnw -q -B -Dlomi.build.dir="$build" dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >&2
fi

# Run from a private copy of the compiled classes, so a build started meanwhile cannot pull
# classes out from under the running benchmark.
snapshot="$(mktemp -d "${TMPDIR:-/tmp}/terminal-bench.XXXXXX")"
trap 'rm -rf "$snapshot"' EXIT
cp -r "$build/classes" "$snapshot/classes"
cp -r "$build/test-classes" "$snapshot/test-classes"
dependencies="$(cat "$classpath_file")"

java -Dbench.repo="$repo" \
  -cp "$snapshot/test-classes:$snapshot/classes:$dependencies" \
  dev.lomicontrol.bench.TerminalBenchmark "$@"
