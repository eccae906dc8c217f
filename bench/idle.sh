#!/usr/bin/env bash
# Broker idle cost, one command from the repo root: bash bench/idle.sh [seconds=600] [sessions=16] [terminals=32] [waiting=0]
# waiting=1 (issue 20): every session holds a waiting call (waitMs 25000) all through the idle phase.
# A headless broker on a scratch data dir (YOLO on, one project), N real helpers connected, T idle
# terminals; then the broker's CPU time and RSS are read from /proc for `seconds`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"; sessions="${2:-16}"; terminals="${3:-32}"; waiting="${4:-0}"
# Set LOMI_BUILD_DIR to build somewhere other than target/ (e.g. while others build in parallel).
build="${LOMI_BUILD_DIR:-$(pwd)/target}"
./mvnw -q -B -Dmaven.test.skip=true -Dlomi.build.dir="$build" package >&2
jar="$build/lomi-control.jar"
java="$(readlink -f "$(command -v java)")"
# the broker runs with the options the launcher gives `serve` (LOMI_BROKER_BENCH_OPTS appends more, for experiments)
. bin/broker-jvm-options
work="$(mktemp -d "${TMPDIR:-/tmp}/lomi-idle-bench.XXXXXX")"
mkdir -p "$work/project" "$work/home" bench/results
HOME="$work/home" "$java" "${BROKER_JVM_OPTIONS[@]}" ${LOMI_BROKER_BENCH_OPTS:-} -jar "$jar" serve --data-dir "$work/data" --headless 2>"$work/broker.err" &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 600); do grep -q "admin socket" "$work/broker.err" 2>/dev/null && break; sleep 0.5; done
"$java" -jar "$jar" console --data-dir "$work/data" project add "$work/project" >&2
"$java" -jar "$jar" console --data-dir "$work/data" yolo on --confirm >&2
key="$(grep -o 'discovery-key [0-9a-f]*' "$work/broker.err" | tail -1 | cut -d' ' -f2)"
out="bench/results/idle-$(date -u +%Y%m%d-%H%M%S).md"
LOMI_IDLE_WAITING="$waiting" node bench/idle-bench.mjs "$out" "$broker" "$sessions" "$terminals" "$seconds" -- "$java" -XX:TieredStopAtLevel=1 -Xshare:auto -jar "$jar" \
  --mcp --discovery-file "$work/data/agent-control/discovery.json" --discovery-key "$key"
echo "written: $out" >&2
