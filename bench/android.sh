#!/usr/bin/env bash
# Android round trips, ours vs @mobilenext/mobile-mcp: snapshot, screenshot (scaled and passed on) and tap
# against the same test device (FakeAdbd) through the same private real adb server, in one run, ratios
# printed. Needs adb, Node 20, a test-compiled tree (./mvnw -o test-compile) and network access once to
# install mobile-mcp into bench/android/node_modules. Usage: bash bench/android.sh [N=30]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-30}"
[ -d bench/android/node_modules/@mobilenext/mobile-mcp ] || \
  (cd bench/android && npm install --no-audit --no-fund --no-save @mobilenext/mobile-mcp@1.0.4 >&2)
classpath_file=target/bench-classpath.txt
if [[ ! -s "$classpath_file" || pom.xml -nt "$classpath_file" ]]; then
  ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >&2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp="target/classes:target/test-classes:$(cat "$classpath_file")"
javac -nowarn -d "$work/classes" -cp "$cp" bench/android/ObserveBench.java
before="$(uptime)"
java -cp "$work/classes:$cp" dev.lomicontrol.android.ObserveBench \
  "bench/android/node_modules/@mobilenext/mobile-mcp/lib/index.js" "$n"
printf 'uptime before: %s\nuptime after:  %s\nmachine: %s, %s\n' "$before" "$(uptime)" "$(uname -srm)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
