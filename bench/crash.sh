#!/usr/bin/env bash
# The broker crash suite (issue 8), long version, one command from the repo root:
#   bash bench/crash.sh [--rounds=200] [--seed=N] [--max-kill-delay-ms=800] [--wait-ms=0] [--work-dir=DIR]
# --wait-ms=5000 (issue 20) sends every work item and poll with that waitMs, so calls wait when the broker is killed.
# Compiles (main + test classes), resolves the test classpath, runs dev.lomicontrol.proof.crash.CrashBench:
# a real broker SIGKILLed and restarted N times under a scripted MCP client (see bench/README.md).
# Set LOMI_BUILD_DIR to build somewhere other than target/ (e.g. while others build in parallel).
# The report goes to stdout and to bench/results/crash-<timestamp>.txt; progress goes to stderr.
# Exit status 0 when every promise held, 1 otherwise (the scratch directory is then kept).
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
# classes out from under the running suite (it starts hundreds of child JVMs on this classpath).
snapshot="$(mktemp -d "${TMPDIR:-/tmp}/crash-bench.XXXXXX")"
trap 'rm -rf "$snapshot"' EXIT
cp -r "$build/classes" "$snapshot/classes"
cp -r "$build/test-classes" "$snapshot/test-classes"
dependencies="$(cat "$classpath_file")"

work_dir=""
scratch=0
for arg in "$@"; do
  [[ "$arg" == --work-dir=* ]] && work_dir="${arg#--work-dir=}"
done
if [[ -z "$work_dir" ]]; then
  work_dir="$(mktemp -d "${TMPDIR:-/tmp}/lomi-crash.XXXXXX")"
  scratch=1
  set -- "$@" "--work-dir=$work_dir"
fi

mkdir -p bench/results
results="bench/results/crash-$(date -u +%Y%m%d-%H%M%S).txt"
{
  echo "# broker crash suite, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# code: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (with uncommitted changes)')"
} > "$results"

status=0
java -Dbench.repo="$repo" \
  -cp "$snapshot/test-classes:$snapshot/classes:$dependencies" \
  dev.lomicontrol.proof.crash.CrashBench "$@" | tee -a "$results" || status=$?
echo "[bench] report written to $results" >&2
if [[ $status -eq 0 && $scratch -eq 1 ]]; then
  rm -rf "$work_dir"
elif [[ $status -ne 0 ]]; then
  echo "[bench] the work directory is kept: $work_dir" >&2
fi
exit $status
