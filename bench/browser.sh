#!/usr/bin/env bash
# Browser benchmark, one command from the repo root: bash bench/browser.sh
# Starts a headless broker on a scratch data dir (YOLO on, one project), then runs
# bench/browser/browser-bench.mjs: lomi-control's browser tools vs @playwright/mcp (--isolated, same
# Chromium, same page) in one run. Needs chromium-headless-shell and Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
[ -d bench/browser/node_modules/@playwright/mcp ] || (cd bench/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund >&2)
./mvnw -q -B -DskipTests package >&2 # never a stale jar
jar="$repo/target/lomi-control.jar"
java="$(readlink -f "$(command -v java)")"
# the broker runs with the options the launcher gives `serve`
. bin/broker-jvm-options
work="$(mktemp -d "${TMPDIR:-/tmp}/lomi-browser-bench.XXXXXX")"
mkdir -p "$work/project" bench/results
# the browser handlers' debug timing (inside the broker, without the helper<->broker hop) goes into the report
"$java" "${BROKER_JVM_OPTIONS[@]}" -Dlogging.level.dev.lomicontrol.browser.tools=DEBUG -jar "$jar" serve --data-dir "$work/data" --headless 2>"$work/broker.err" &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do grep -q "admin socket" "$work/broker.err" 2>/dev/null && break; sleep 0.5; done
"$java" -jar "$jar" console --data-dir "$work/data" project add "$work/project" >&2
"$java" -jar "$jar" console --data-dir "$work/data" yolo on --confirm >&2
key="$(grep -o 'discovery-key [0-9a-f]*' "$work/broker.err" | tail -1 | cut -d' ' -f2)"
out="bench/results/browser-$(date -u +%Y%m%d-%H%M%S).md"
before="$(uptime)"
# the helper as MCP clients start it: the launcher (the fast layout with its CDS archive, target/helper)
(cd bench/browser && BROKER_LOG="$work/broker.err" node browser-bench.mjs "$repo/$out" -- "$repo/bin/lomi-control" \
  --mcp --discovery-file "$work/data/agent-control/discovery.json" --discovery-key "$key") || { tail -20 "$work/broker.err" >&2; exit 1; }
printf '\nuptime before: %s\nuptime after:  %s\nmachine: %s, %s\n' "$before" "$(uptime)" "$(uname -srm)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')" >>"$out"
echo "written: $out" >&2
