// Side-by-side MCP stdio benchmark: lomi-control's helper vs the official Node filesystem server.
// Usage: node bench/mcp-bench.mjs <results.md> <fs-root> -- <helper command...>
// Measures (same run, same machine): spawn → initialize response (N spawns), tools/call round
// trips (median, p99) and peak RSS of the server process (VmHWM).
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

async function initializeTimes(command, args) {
  const times = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t0 = process.hrtime.bigint();
    const s = start(command, args);
    await s.request('initialize', init);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    s.child.kill('SIGKILL');
  }
  return times;
}

async function roundTrips(command, args, call, ready) {
  const s = start(command, args);
  await s.request('initialize', init);
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  if (ready) await ready(s);
  for (let i = 0; i < 30; i++) await s.request('tools/call', call); // warm-up
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = process.hrtime.bigint();
    const reply = await s.request('tools/call', call);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (reply.error || reply.result?.isError) throw new Error(JSON.stringify(reply).slice(0, 300));
  }
  const rss = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${s.child.pid}/status`, 'utf8'))[1] / 1024;
  s.child.kill('SIGKILL');
  return { times, rss };
}

const pct = (xs, p) => { const a = [...xs].sort((x, y) => x - y); return a[Math.min(a.length - 1, Math.floor(p * a.length))]; };
const fmt = (x) => x.toFixed(2);

async function waitConnected(s) {
  for (let i = 0; i < 600; i++) {
    const r = await s.request('tools/call', { name: 'lomi_status', arguments: {} });
    if (r.result.structuredContent.data.phase === 'connected') return;
    await new Promise((r2) => setTimeout(r2, 100));
  }
  throw new Error('helper never connected (is YOLO on?)');
}

const [hc, ...ha] = helper;
const fsArgs = [fsServer, fsRoot];
const file = path.join(fsRoot, 'bench.txt');
writeFileSync(file, 'hello from the benchmark\n');

const ours = await initializeTimes(hc, ha);
const node = await initializeTimes('node', fsArgs);
const status = await roundTrips(hc, ha, { name: 'lomi_status', arguments: {} }, waitConnected);
const list = await roundTrips(hc, ha, { name: 'lomi_workspace_list', arguments: {} }, waitConnected);
const read = await roundTrips('node', fsArgs, { name: 'read_text_file', arguments: { path: file } });

const rows = [
  ['spawn → initialize (ms)', ours, node],
  ['tools/call: lomi_status (helper) vs read_text_file (ms)', status.times, read.times],
  ['tools/call: lomi_workspace_list (helper → broker) vs read_text_file (ms)', list.times, read.times],
];
let md = `## MCP stdio benchmark ${new Date().toISOString()}\n\n`;
md += `Machine: ${os.cpus().length} × ${os.cpus()[0].model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.release()}; node ${process.version}. `;
md += `${SPAWNS} spawns per server; ${CALLS} calls per series after 30 warm-up calls.\n\n`;
md += '| measure | lomi-control p50 | node fs p50 | ratio p50 | lomi-control p99 | node fs p99 | ratio p99 |\n|---|---:|---:|---:|---:|---:|---:|\n';
for (const [name, a, b] of rows) {
  md += `| ${name} | ${fmt(pct(a, 0.5))} | ${fmt(pct(b, 0.5))} | ${(pct(a, 0.5) / pct(b, 0.5)).toFixed(2)}× | ${fmt(pct(a, 0.99))} | ${fmt(pct(b, 0.99))} | ${(pct(a, 0.99) / pct(b, 0.99)).toFixed(2)}× |\n`;
}
md += `| peak RSS (MiB) | ${list.rss.toFixed(0)} | ${read.rss.toFixed(0)} | ${(list.rss / read.rss).toFixed(2)}× | | | |\n\n`;
md += `Goals: initialize ≤ 0.5× node → ${pct(ours, 0.5) <= 0.5 * pct(node, 0.5) ? 'PASS' : 'MISS'}; `;
md += `call p50/p99 ≤ node → ${pct(list.times, 0.5) <= pct(read.times, 0.5) && pct(list.times, 0.99) <= pct(read.times, 0.99) ? 'PASS' : 'MISS'} (workspace_list through the broker).\n`;
writeFileSync(out, md);
console.log(md);
