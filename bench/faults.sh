#!/usr/bin/env bash
# The broker fault suite (issue 8), one command from the repo root:
#   bash bench/faults.sh [--only=disk-full,read-only,fsync-failure,corrupt-page,corrupt-page-moved-aside,truncated-wal,second-broker] [--work-dir=DIR]
# Installs libfiu's tools (Debian package fiu-utils) when missing, compiles (main + test classes),
# resolves the test classpath and runs dev.lomicontrol.proof.fault.FaultBench: a real broker per
# fault with its data directory on the faulty medium, the real MCP helper and the console.
# Needs root for the tmpfs mounts (disk full, read-only); those faults are reported as skipped otherwise.
# Set LOMI_BUILD_DIR to build somewhere other than target/.
# One report line per fault goes to stdout and bench/results/faults-<timestamp>.txt; progress to stderr.
# Exit status 0 when every promise held, 1 otherwise (the work directory is then kept).
set -euo pipefail

cd "$(dirname "$0")/.."
repo="$(pwd)"
build="${LOMI_BUILD_DIR:-$repo/target}"

if ! command -v fiu-run >/dev/null || ! command -v fiu-ctrl >/dev/null; then
  echo "[faults] installing fiu-utils (libfiu) for the fsync fault ..." >&2
  if [[ $(id -u) -eq 0 ]]; then
    apt-get install -y fiu-utils >&2 || { apt-get update >&2 && apt-get install -y fiu-utils >&2; } || echo "[faults] could not install fiu-utils; the fsync fault will be skipped" >&2
  else
    sudo apt-get install -y fiu-utils >&2 || echo "[faults] could not install fiu-utils; the fsync fault will be skipped" >&2
  fi
fi

echo "[faults] compiling (mvnw test-compile into $build) ..." >&2
./mvnw -q -B -DskipTests -Dlomi.build.dir="$build" test-compile >&2

classpath_file="$build/bench-classpath.txt"
if [[ ! -s "$classpath_file" || pom.xml -nt "$classpath_file" ]]; then
  echo "[faults] resolving the test classpath ..." >&2
  ./mvnw -q -B -Dlomi.build.dir="$build" dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >&2
fi

# Run from a private copy of the compiled classes, so a build started meanwhile cannot pull
# classes out from under the child JVMs the suite starts.
snapshot="$(mktemp -d "${TMPDIR:-/tmp}/faults-bench.XXXXXX")"
trap 'rm -rf "$snapshot"' EXIT
cp -r "$build/classes" "$snapshot/classes"
cp -r "$build/test-classes" "$snapshot/test-classes"
dependencies="$(cat "$classpath_file")"

work_dir=""
for arg in "$@"; do
  [[ "$arg" == --work-dir=* ]] && work_dir="${arg#--work-dir=}"
done
scratch=0
if [[ -z "$work_dir" ]]; then
  work_dir="$(mktemp -d "${TMPDIR:-/tmp}/lomi-faults.XXXXXX")"
  scratch=1
  set -- "$@" "--work-dir=$work_dir"
fi

mkdir -p bench/results
results="bench/results/faults-$(date -u +%Y%m%d-%H%M%S).txt"
{
  echo "# broker fault suite, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg), uid $(id -u)"
  echo "# fiu: $(dpkg-query -W -f='${Package} ${Version}' fiu-utils 2>/dev/null || echo 'not installed')"
  echo "# code: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (with uncommitted changes)')"
} > "$results"

status=0
java -cp "$snapshot/test-classes:$snapshot/classes:$dependencies" \
  dev.lomicontrol.proof.fault.FaultBench "$@" | tee -a "$results" || status=$?
# a mount left behind by an interrupted run must not outlive it
# (grep finds none after a clean run: under pipefail its status 1 would end the script here)
{ grep -o " $work_dir/[^ ]*-mnt " /proc/mounts || true; } | while read -r mnt; do umount -l "$mnt" || true; done
echo "[faults] report written to $results" >&2
if [[ $status -eq 0 && $scratch -eq 1 ]]; then
  rm -rf "$work_dir"
elif [[ $status -ne 0 ]]; then
  echo "[faults] the work directory is kept: $work_dir" >&2
fi
exit $status
