#!/usr/bin/env bash
# MCP stdio benchmark, one command from the repo root: bash bench/mcp.sh
# Starts a headless broker on a scratch data dir (YOLO on, one project), then runs
# bench/mcp-bench.mjs: lomi-control --mcp vs @modelcontextprotocol/server-filesystem, same run, reading the
# same 2,000-line file; prints the four ratios (initialize, call p50, call p99, peak RSS) with their goals.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
[ -d interop/node_modules/@modelcontextprotocol/server-filesystem ] || (cd interop && npm ci --no-audit --no-fund >&2)
./mvnw -q -B -DskipTests package >&2
jar="$repo/target/lomi-control.jar"
java="$(readlink -f "$(command -v java)")"
# the broker runs with the options the launcher gives `serve` (LOMI_BROKER_BENCH_OPTS appends more, for experiments)
. bin/broker-jvm-options
work="$(mktemp -d "${TMPDIR:-/tmp}/lomi-mcp-bench.XXXXXX")"
mkdir -p "$work/project" bench/results
"$java" "${BROKER_JVM_OPTIONS[@]}" ${LOMI_BROKER_BENCH_OPTS:-} -jar "$jar" serve --data-dir "$work/data" --headless 2>"$work/broker.err" &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do grep -q "admin socket" "$work/broker.err" 2>/dev/null && break; sleep 0.5; done
"$java" -jar "$jar" console --data-dir "$work/data" project add "$work/project" >&2
"$java" -jar "$jar" console --data-dir "$work/data" yolo on --confirm >&2
key="$(grep -o 'discovery-key [0-9a-f]*' "$work/broker.err" | tail -1 | cut -d' ' -f2)"
out="bench/results/mcp-$(date -u +%Y%m%d-%H%M%S).md"
# the helper as MCP clients start it: the launcher, which runs the fast layout with its CDS archive (target/helper)
BROKER_PID="$broker" LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)" node bench/mcp-bench.mjs "$out" "$work/project" -- "$repo/bin/lomi-control" \
  --mcp --discovery-file "$work/data/agent-control/discovery.json" --discovery-key "$key"
echo "written: $out" >&2
