#!/usr/bin/env bash
# Many agents on one broker (issue 44), one command from the repo root: bash bench/agents.sh N [seconds=60]
# A headless broker on a scratch data dir (YOLO on, one project with a 2,000-line file) with the options the
# launcher gives `serve`; N real helpers started as MCP clients start them (bin/lomi-control --mcp), 16 at a time,
# all connected at once; the broker's CPU, RSS and threads with all N idle for 30 s; then every helper reads the
# file in a loop for `seconds`: calls/s, p50/p99, errors, broker RSS/threads, the helpers' total RSS.
# lomi.control.max-connections is raised to N when N > 256 (LOMI_BROKER_BENCH_OPTS appends more broker options).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
agents="${1:?usage: bash bench/agents.sh N [seconds]}"; seconds="${2:-60}"
# Set LOMI_AGENTS_SKIP_BUILD=1 to run what target/ holds (e.g. several N in a row).
[ "${LOMI_AGENTS_SKIP_BUILD:-0}" = 1 ] || ./mvnw -q -B -DskipTests package >&2
jar="$repo/target/lomi-control.jar"
java="$(readlink -f "$(command -v java)")"
. bin/broker-jvm-options
work="$(mktemp -d "${TMPDIR:-/tmp}/lomi-agents-bench.XXXXXX")"
mkdir -p "$work/project" "$work/home" bench/results
seq 1 2000 | sed 's/^/a line of the file read by every agent: /' > "$work/project/notes.txt"
cap=()
[ "$agents" -le 256 ] || cap=(-Dlomi.control.max-connections="$agents")
HOME="$work/home" "$java" "${BROKER_JVM_OPTIONS[@]}" "${cap[@]}" ${LOMI_BROKER_BENCH_OPTS:-} -jar "$jar" serve --data-dir "$work/data" --headless 2>"$work/broker.err" &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 240); do grep -q "admin socket" "$work/broker.err" 2>/dev/null && break; sleep 0.5; done
"$java" -jar "$jar" console --data-dir "$work/data" project add "$work/project" >&2
"$java" -jar "$jar" console --data-dir "$work/data" yolo on --confirm >&2
key="$(grep -o 'discovery-key [0-9a-f]*' "$work/broker.err" | tail -1 | cut -d' ' -f2)"
out="bench/results/agents-$agents-$(date -u +%Y%m%d-%H%M%S).md"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)" node bench/agents-bench.mjs "$out" "$broker" "$agents" "$seconds" "$work/project" -- \
  "$repo/bin/lomi-control" --mcp --discovery-file "$work/data/agent-control/discovery.json" --discovery-key "$key"
if grep -q "broker_full" "$work/broker.err"; then echo "WARNING: the broker refused connections (broker_full)" >&2; fi
echo "written: $out" >&2
