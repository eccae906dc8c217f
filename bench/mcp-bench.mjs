// Side-by-side MCP stdio benchmark: lomi-control's helper vs the official Node filesystem server.
// Usage: node bench/mcp-bench.mjs <results.md> <fs-root> -- <helper command...>
// One run, same machine, rounds interleaved (ours, node, ours, node, …); per round:
//   * spawn → initialize answer (SPAWNS spawns per server), and spawn → tools/list answer in the same spawns,
//   * CALLS tools/call round trips after 30 warm-up calls: the same 2,000-line file read through
//     helper → mTLS → broker (`lomi_files_read`, one page of 8192 UTF-16 units) vs
//     `read_text_file` with `head` = the lines of that page; and `lomi_status`, answered by the helper,
//   * peak RSS of the server process (VmHWM) after the read series.
// The figure of each measure is the median over ROUNDS of the per-round p50/p99.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const [out, fsRoot, sep, ...helper] = process.argv.slice(2);
if (sep !== '--' || helper.length === 0) throw new Error('usage: mcp-bench.mjs out.md fsRoot -- helper...');
const require = createRequire(path.resolve('interop/package.json'));
const fsServer = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const SPAWNS = Number(process.env.SPAWNS ?? 10);
const CALLS = Number(process.env.CALLS ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const LINES = 2000;
const PAGE = 8192; // lomi_files_read's largest page, in UTF-16 units

function start(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  const waiting = new Map();
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let i; (i = buffer.indexOf('\n')) >= 0;) {
      const line = buffer.slice(0, i); buffer = buffer.slice(i + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      const resolve = waiting.get(msg.id);
      if (resolve) { waiting.delete(msg.id); resolve(msg); }
    }
  });
  let next = 1;
  const request = (method, params) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  return { child, request };
}

const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

/** Spawn → initialize answer; `.list`: spawn → the answer to tools/list, sent as clients do once initialize is answered. */
async function initializeTimes(command, args) {
  const times = [];
  times.list = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t0 = process.hrtime.bigint();
    const s = start(command, args);
    await s.request('initialize', init);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const listed = await s.request('tools/list', {});
    times.list.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!(listed.result?.tools?.length > 0)) throw new Error(`no tools listed: ${JSON.stringify(listed).slice(0, 200)}`);
    s.child.kill('SIGKILL');
    await new Promise((resolve) => s.child.once('exit', resolve));
  }
  return times;
}

const BROKER_PID = Number(process.env.BROKER_PID ?? 0);
/** utime + stime of a process in ms (USER_HZ 100). */
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8'); const x = f.slice(f.lastIndexOf(')') + 2).split(' '); return (Number(x[11]) + Number(x[12])) * 10; };

async function series(s, call, check) {
  for (let i = 0; i < 30; i++) await s.request('tools/call', call); // warm-up
  const cpu0 = [cpuMs(s.child.pid), BROKER_PID ? cpuMs(BROKER_PID) : 0];
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = process.hrtime.bigint();
    const reply = await s.request('tools/call', call);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (reply.error || reply.result?.isError) throw new Error(JSON.stringify(reply).slice(0, 300));
    if (check && i === 0) check(reply.result);
  }
  times.cpu = { server: (cpuMs(s.child.pid) - cpu0[0]) / CALLS, broker: BROKER_PID ? (cpuMs(BROKER_PID) - cpu0[1]) / CALLS : NaN };
  return times;
}

const peakRss = (pid) => /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1] / 1024;
const pct = (xs, p) => { const a = [...xs].sort((x, y) => x - y); return a[Math.min(a.length - 1, Math.floor(p * a.length))]; };
const median = (xs) => pct(xs, 0.5);
const fmt = (x) => x.toFixed(2);

async function connected(s) {
  for (let i = 0; i < 600; i++) {
    const r = await s.request('tools/call', { name: 'lomi_status', arguments: {} });
    if (r.result.structuredContent.data.phase === 'connected') return;
    await new Promise((r2) => setTimeout(r2, 100));
  }
  throw new Error('helper never connected (is YOLO on?)');
}

// 2,000 lines of 40 characters; the page lomi_files_read returns (8192 units) is the first 200 lines minus 8 units.
const relativePath = 'bench-2000.txt';
const file = path.join(fsRoot, relativePath);
let text = '';
for (let i = 0; i < LINES; i++) text += `line ${String(i).padStart(5, '0')} of the benchmark file .....`.slice(0, 40) + '\n';
writeFileSync(file, text);
const headLines = Math.ceil(PAGE / 41);

/** A new helper, initialized and connected to the broker, and the read call of the page through it. */
async function oursSession() {
  const s = start(helper[0], helper.slice(1));
  await s.request('initialize', init);
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  await connected(s);
  const list = await s.request('tools/call', { name: 'lomi_workspace_list', arguments: {} });
  const workspaceId = list.result.structuredContent.data.workspaces[0].workspaceId;
  return { s, readPage: { name: 'lomi_files_read', arguments: { workspaceId, relativePath, maxChars: PAGE } } };
}

async function oursRound() {
  const { s, readPage } = await oursSession();
  const read = await series(s, readPage, (result) => {
    const page = result.structuredContent.data;
    if (!text.startsWith(page.text) || page.text.length !== PAGE) throw new Error(`unexpected page: ${JSON.stringify(page).slice(0, 200)}`);
  });
  const rss = peakRss(s.child.pid);
  const status = await series(s, { name: 'lomi_status', arguments: {} });
  s.child.kill('SIGKILL');
  return { read, status, rss };
}

async function nodeRound() {
  const s = start('node', [fsServer, fsRoot]);
  await s.request('initialize', init);
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  const read = await series(s, { name: 'read_text_file', arguments: { path: file, head: headLines } }, (result) => {
    const got = result.structuredContent?.content ?? result.content[0].text;
    if (!text.startsWith(got.slice(0, PAGE))) throw new Error('unexpected node page');
  });
  const rss = peakRss(s.child.pid);
  s.child.kill('SIGKILL');
  return { read, rss };
}

// The broker is a daemon that serves every agent session of the day, each through a new helper and a new connection
// (enrollment, pairing check, TLS handshake), and its JIT settles only after it has seen several of them: the code each
// new connection runs deoptimises compiled code of the call path (docs/BENCHMARKS.md). The benchmark starts it fresh,
// so before the rounds BROKER_WARMUP_SESSIONS helper sessions read the page BROKER_WARMUP times in all (not measured),
// and the rounds meet a broker that has served agents before. BROKER_WARMUP_SESSIONS=1 is the single long session of
// the 2026-12-02/03 runs; BROKER_WARMUP=0 measures a new broker's first calls instead.
const BROKER_WARMUP = Number(process.env.BROKER_WARMUP ?? 2000);
const BROKER_WARMUP_SESSIONS = Math.max(1, Number(process.env.BROKER_WARMUP_SESSIONS ?? 10));
for (let session = 0; BROKER_WARMUP > 0 && session < BROKER_WARMUP_SESSIONS; session++) {
  const { s, readPage } = await oursSession();
  const reads = Math.floor(BROKER_WARMUP / BROKER_WARMUP_SESSIONS) + (session < BROKER_WARMUP % BROKER_WARMUP_SESSIONS ? 1 : 0);
  for (let i = 0; i < reads; i++) await s.request('tools/call', readPage);
  s.child.kill('SIGKILL');
  await new Promise((resolve) => s.child.once('exit', resolve));
}

const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const oursInit = await initializeTimes(helper[0], helper.slice(1));
  const nodeInit = await initializeTimes('node', [fsServer, fsRoot]);
  const ours = await oursRound();
  const node = await nodeRound();
  rounds.push({ oursInit, nodeInit, ours, node });
}

const m = (f) => median(rounds.map(f));
const figures = [
  ['spawn → initialize answer, p50 (ms)', m((r) => median(r.oursInit)), m((r) => median(r.nodeInit)), 0.5],
  ['call p50: `lomi_files_read` (helper → broker) vs `read_text_file` (ms)', m((r) => pct(r.ours.read, 0.5)), m((r) => pct(r.node.read, 0.5)), 1],
  ['call p99: the same (ms)', m((r) => pct(r.ours.read, 0.99)), m((r) => pct(r.node.read, 0.99)), 1],
  ['peak RSS of the server process (MiB)', m((r) => r.ours.rss), m((r) => r.node.rss), 1],
];
let md = `## MCP stdio benchmark ${new Date().toISOString()}\n\n`;
md += `Machine: ${os.cpus().length} × ${os.cpus()[0].model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.release()}; node ${process.version}; `;
md += `load average before: ${process.env.LOAD_BEFORE ?? '?'}, after: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}. `;
md += `${ROUNDS} interleaved rounds (median of the per-round figures); per round ${SPAWNS} spawns per server and ${CALLS} calls per series after 30 warm-up calls; `;
md += BROKER_WARMUP > 0 ? `before the rounds the broker served ${BROKER_WARMUP} reads to ${BROKER_WARMUP_SESSIONS} helper session(s) (a daemon that has served agents before; each round's helper is new). ` : 'the broker was new (BROKER_WARMUP=0: its first calls, JIT warm-up included). ';
md += `Helper: \`${helper.join(' ')}\`.\n\n`;
md += '| measure | lomi-control | node fs server | ratio | goal |\n|---|---:|---:|---:|---:|\n';
for (const [name, ours, node, goal] of figures) {
  md += `| ${name} | ${fmt(ours)} | ${fmt(node)} | ${(ours / node).toFixed(2)}× | ≤ ${goal}× ${ours / node <= goal ? '**met**' : '**missed**'} |\n`;
}
md += `| spawn → tools/list answer, p50 (ms; sent once initialize is answered) | ${fmt(m((r) => median(r.oursInit.list)))} | ${fmt(m((r) => median(r.nodeInit.list)))} | ${(m((r) => median(r.oursInit.list)) / m((r) => median(r.nodeInit.list))).toFixed(2)}× | — |\n`;
md += `| call p50 / p99: \`lomi_status\` (answered by the helper) (ms) | ${fmt(m((r) => pct(r.ours.status, 0.5)))} / ${fmt(m((r) => pct(r.ours.status, 0.99)))} | — | — | — |\n\n`;
md += `CPU per read call (median of rounds; load-independent): lomi-control helper ${fmt(m((r) => r.ours.read.cpu.server))} ms + broker ${fmt(m((r) => r.ours.read.cpu.broker))} ms; node fs server ${fmt(m((r) => r.node.read.cpu.server))} ms.\n\n`;
md += 'Per round (p50 / p99 ms; RSS MiB):\n\n| round | init ours | init node | read ours | read node | status ours | RSS ours | RSS node |\n|---|---|---|---|---|---|---|---|\n';
rounds.forEach((r, i) => {
  md += `| ${i + 1} | ${fmt(median(r.oursInit))} | ${fmt(median(r.nodeInit))} | ${fmt(pct(r.ours.read, 0.5))} / ${fmt(pct(r.ours.read, 0.99))} | `
    + `${fmt(pct(r.node.read, 0.5))} / ${fmt(pct(r.node.read, 0.99))} | ${fmt(pct(r.ours.status, 0.5))} / ${fmt(pct(r.ours.status, 0.99))} | `
    + `${r.ours.rss.toFixed(0)} | ${r.node.rss.toFixed(0)} |\n`;
});
writeFileSync(out, md);
console.log(md);
