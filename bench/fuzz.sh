#!/usr/bin/env bash
# The fuzz suite at full size, one command from the repo root:
#   bash bench/fuzz.sh [--messages=100000] [--frames=10000] [--seed=N] [--include-known-bugs] [--results=bench/results]
# Runs HelperFuzzTests (the seeded runs) and BrokerSocketFuzzTests through Maven with large sizes,
# prints their FUZZ report lines and writes them with the machine facts to bench/results/fuzz-<timestamp>.md.
# Set LOMI_BUILD_DIR to build somewhere other than target/fuzz-build (e.g. while others build in parallel).
# Exit status: Maven's (non-zero when any fuzz failure was found; the report lines still print).
set -uo pipefail

cd "$(dirname "$0")/.."
repo="$(pwd)"
build="${LOMI_BUILD_DIR:-$repo/target/fuzz-build}"
messages=100000
frames=10000
seed="$(( (RANDOM << 30) ^ (RANDOM << 15) ^ RANDOM ))"
known=false
results="bench/results"
for arg in "$@"; do
  case "$arg" in
    --messages=*) messages="${arg#*=}" ;;
    --frames=*) frames="${arg#*=}" ;;
    --seed=*) seed="${arg#*=}" ;;
    --include-known-bugs) known=true ;;
    --results=*) results="${arg#*=}" ;;
    *) echo "usage: bash bench/fuzz.sh [--messages=N] [--frames=N] [--seed=N] [--include-known-bugs] [--results=DIR]" >&2; exit 64 ;;
  esac
done

rm -rf "$build/surefire-reports"
started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
start_s="$(date +%s)"
echo "[fuzz] messages=$messages frames=$frames seed=$seed includeKnownBugs=$known build=$build" >&2
./mvnw -B -o test -Dlomi.build.dir="$build" \
  -Dtest='HelperFuzzTests#hostileLines*+mutatedToolCalls*,BrokerSocketFuzzTests' -Dsurefire.failIfNoSpecifiedTests=false \
  -Dlomi.fuzz.messages="$messages" -Dlomi.fuzz.frames="$frames" -Dlomi.fuzz.seed="$seed" -Dlomi.fuzz.includeKnownBugs="$known" -Dlomi.fuzz.fullJit=true >&2
status=$?
elapsed=$(( $(date +%s) - start_s ))

lines="$(grep -h '^FUZZ ' "$build"/surefire-reports/*-output.txt 2>/dev/null | sort)"
echo "$lines"
echo "[fuzz] maven exit status $status after ${elapsed}s" >&2

mkdir -p "$results"
out="$results/fuzz-$(date -u +%Y%m%d-%H%M%S).md"
{
  echo "## Fuzz suite — $started"
  echo
  echo "Command: \`bash bench/fuzz.sh --messages=$messages --frames=$frames --seed=$seed$([[ $known == true ]] && echo ' --include-known-bugs')\`"
  echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr), $(java -version 2>&1 | head -1)"
  echo "Code: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); wall time ${elapsed}s; Maven exit status $status"
  echo
  echo '```'
  echo "$lines"
  echo '```'
} > "$out"
echo "written: $out" >&2
exit "$status"
