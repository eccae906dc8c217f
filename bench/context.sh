#!/usr/bin/env bash
# What a task costs the model: the bytes the real Claude Code CLI sends its model over one scripted
# task, with lomi-control beside the anchor for that task in the same run — Desktop Commander for
# the terminal task (run two commands, read their output), @playwright/mcp for the browser task
# (open a page, snapshot, click, snapshot; and the same with the fewest calls each server's answers
# allow: open, click, read the click's answer — both answer the page after an action). The "model" is bench/context/model.mjs on 127.0.0.1: it
# answers each request with the task's next tool call, taking ids and revisions from the tool
# results it was sent, and records every request's size. lomi-control runs registered as a user
# would (`console client register claude-code`) with the default toolsets and with just the
# task's toolset. Claude Code's tool search is off (ENABLE_TOOL_SEARCH=false): every request
# carries every tool, as behind gateways, Vertex and Bedrock.
#
# usage: bench/context.sh [--runs=N]   (default 3; prints a table and the ratios)
# needs: Java 17, Node 20 + npm (installs bench/context/package-lock.json), git,
#        chromium-headless-shell, bubblewrap (the terminal sandbox); a built jar (built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=3
for arg in "$@"; do
    case "$arg" in
        --runs=*) RUNS="${arg#--runs=}" ;;
        *) echo "usage: bench/context.sh [--runs=N]" >&2; exit 2 ;;
    esac
done
CHROMIUM=/usr/bin/chromium-headless-shell
[ -x "$CHROMIUM" ] || { echo "needs $CHROMIUM: apt-get install -y chromium-headless-shell" >&2; exit 1; }
command -v bwrap >/dev/null || { echo "needs bwrap: apt-get install -y bubblewrap" >&2; exit 1; }
[ -f target/lomi-control.jar ] && [ -d target/helper ] || ./mvnw -B -q package -DskipTests
if [ ! -d bench/context/node_modules/@anthropic-ai/claude-code ]; then
    (cd bench/context && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null)
fi
BIN=$ROOT/bench/context/node_modules/.bin

SCRATCH=$(mktemp -d /tmp/lomi-context.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$SCRATCH"
}
trap cleanup EXIT
export HOME=$SCRATCH/home XDG_RUNTIME_DIR=$SCRATCH/run XDG_CONFIG_HOME=$SCRATCH/home/.config
export XDG_STATE_HOME=$SCRATCH/home/.local/state XDG_DATA_HOME=$SCRATCH/home/.local/share
mkdir -p "$HOME/src/app" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
git -C "$HOME/src/app" init -q && echo "hello" >"$HOME/src/app/README.md"
RESULTS=$SCRATCH/results.jsonl

bin/lomi-control serve --headless >"$SCRATCH/broker.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 300); do
    bin/lomi-control console status >/dev/null 2>&1 && break
    sleep 0.2
done
bin/lomi-control console status >/dev/null || { cat "$SCRATCH/broker.log" >&2; exit 1; }
bin/lomi-control console project add "$HOME/src/app" >/dev/null
bin/lomi-control console yolo on --confirm >/dev/null # pairing and the page's origin approved at once

node bench/context/page.mjs >"$SCRATCH/url" &
PIDS+=($!)
for _ in $(seq 50); do [ -s "$SCRATCH/url" ] && break; sleep 0.1; done
export BENCH_PAGE_URL
BENCH_PAGE_URL=$(cat "$SCRATCH/url")

cat >"$SCRATCH/dc.json" <<EOF
{"mcpServers":{"desktop-commander":{"command":"$BIN/desktop-commander","args":[]}}}
EOF
cat >"$SCRATCH/pw.json" <<EOF
{"mcpServers":{"playwright":{"command":"$BIN/playwright-mcp","args":["--headless","--isolated","--no-sandbox","--executable-path","$CHROMIUM"]}}}
EOF

# run LABEL TASK PROMPT CLAUDE-ARGS...: one task; appends its requests to $RESULTS
run() {
    local label=$1 task=$2 prompt=$3
    shift 3
    local record=$SCRATCH/$label.jsonl port
    rm -f "$record" "$SCRATCH/port"
    node bench/context/model.mjs "$task" "$record" >"$SCRATCH/port" &
    local model=$!
    for _ in $(seq 50); do [ -s "$SCRATCH/port" ] && break; sleep 0.1; done
    port=$(cat "$SCRATCH/port")
    (cd "$HOME/src/app" && ENABLE_TOOL_SEARCH=false ANTHROPIC_BASE_URL=http://127.0.0.1:$port \
        ANTHROPIC_API_KEY=sk-bench CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
        DISABLE_AUTOUPDATER=1 timeout 300 "$BIN/claude" -p "$prompt" "$@" --output-format json \
        >"$SCRATCH/$label.out" 2>"$SCRATCH/$label.err") || true
    kill "$model" 2>/dev/null || true
    python3 - "$label" "$record" "$SCRATCH/$label.out" >>"$RESULTS" <<'EOF'
import json, os, sys
label, record, out = sys.argv[1:]
rows = [json.loads(line) for line in open(record)] if os.path.exists(record) else []
main = [r for r in rows if r["main"]]
try:
    answer = json.load(open(out)).get("result") or ""
except Exception:
    answer = "(no answer)"
print(json.dumps({"label": label, "requests": len(main), "bytes": sum(r["requestBytes"] for r in main),
    "sideRequests": len(rows) - len(main), "sideBytes": sum(r["requestBytes"] for r in rows if not r["main"]),
    "mcpToolBytes": main[0]["mcpToolBytes"] if main else 0, "mcpTools": main[0]["mcpTools"] if main else 0,
    "ok": bool(answer) and not answer.startswith(("failed", "script error", "not seen")), "answer": answer[:200]}))
EOF
}

TERMINAL_PROMPT="Run the two commands and report their output."
BROWSER_PROMPT="Open the page, snapshot it, press Count and snapshot it again."
ANSWERS_PROMPT="Open the page, press Count and say what the page shows then."
for round in $(seq "$RUNS"); do
    run "dc-terminal" dc-terminal "$TERMINAL_PROMPT" --mcp-config "$SCRATCH/dc.json" --strict-mcp-config \
        --allowedTools mcp__desktop-commander
    run "pw-browser" pw-browser "$BROWSER_PROMPT" --mcp-config "$SCRATCH/pw.json" --strict-mcp-config \
        --allowedTools mcp__playwright
    bin/lomi-control console client register claude-code >/dev/null
    run "lomi-terminal (default registration)" lomi-terminal "$TERMINAL_PROMPT" --allowedTools mcp__lomi-control
    run "lomi-browser (default registration)" lomi-browser "$BROWSER_PROMPT" --allowedTools mcp__lomi-control
    bin/lomi-control console client register claude-code --toolsets terminal >/dev/null
    run "lomi-terminal (--toolsets terminal)" lomi-terminal "$TERMINAL_PROMPT" --allowedTools mcp__lomi-control
    bin/lomi-control console client register claude-code --toolsets browser >/dev/null
    run "lomi-browser (--toolsets browser)" lomi-browser "$BROWSER_PROMPT" --allowedTools mcp__lomi-control
    run "lomi-browser-answers (--toolsets browser)" lomi-browser-answers "$ANSWERS_PROMPT" --allowedTools mcp__lomi-control
    run "pw-browser-answers" pw-browser-answers "$ANSWERS_PROMPT" --mcp-config "$SCRATCH/pw.json" --strict-mcp-config \
        --allowedTools mcp__playwright
    echo "round $round of $RUNS done" >&2
done

python3 - "$RESULTS" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["label"], []).append(r)
def median(label, key):
    return statistics.median(r[key] for r in by[label])
print(f"{'task, server':40} {'runs':>4} {'ok':>3} {'requests':>8} {'MCP tools':>9} {'tool B/request':>14} {'task bytes (median)':>20} {'min-max':>17}")
for label, runs in by.items():
    totals = [r["bytes"] for r in runs]
    print(f"{label:40} {len(runs):>4} {sum(r['ok'] for r in runs):>3} {median(label, 'requests'):>8} {runs[0]['mcpTools']:>9} "
          f"{runs[0]['mcpToolBytes']:>14,} {statistics.median(totals):>20,.0f} {min(totals):>8,}-{max(totals):<8,}")
failed = [r for r in rows if not r["ok"]]
for r in failed:
    print(f"NOT OK: {r['label']}: {r['answer']}")
print()
for task, anchor in (("terminal", "dc-terminal"), ("browser", "pw-browser"), ("browser-answers", "pw-browser-answers")):
    for suffix in ("(default registration)", f"(--toolsets {task.split('-')[0]})"):
        label = f"lomi-{task} {suffix}"
        if label in by and anchor in by:
            print(f"ratio {label} / {anchor}: {median(label, 'bytes') / median(anchor, 'bytes'):.2f}x")
EOF
