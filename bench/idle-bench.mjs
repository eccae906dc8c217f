// Broker idle cost: N real helpers (`lomi-control --mcp`) connected to one broker, T terminals
// open (idle bash), then the broker's own CPU time and memory are sampled from /proc for a while.
// Usage: node bench/idle-bench.mjs <results.md> <brokerPid> <sessions> <terminals> <seconds> -- <helper command...>
// With LOMI_IDLE_WAITING=1 (issue 20) every session holds a waiting call all through the idle phase:
// lomi_events_read {waitMs:25000} (even sessions) or lomi_terminal_read at the end of its terminal's
// output {waitMs:25000} (odd sessions), sent again as soon as it answers; nothing happens, so each waits
// its full 25 s. The broker's thread count is sampled before and during. The measurement starts after
// LOMI_IDLE_WARMUP seconds (default 60) of waiting.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const [out, brokerPidText, sessionsText, terminalsText, secondsText, sep, ...helper] = process.argv.slice(2);
if (sep !== '--' || helper.length === 0) throw new Error('usage: idle-bench.mjs out.md brokerPid sessions terminals seconds -- helper...');
const brokerPid = Number(brokerPidText);
const SESSIONS = Number(sessionsText);
const TERMINALS = Number(terminalsText);
const SECONDS = Number(secondsText);
const TICK = 100; // USER_HZ on Linux

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
  const call = async (name, args) => {
    const reply = await request('tools/call', { name, arguments: args });
    const envelope = reply.result?.structuredContent;
    if (reply.error || reply.result?.isError) throw new Error(`${name}: ${JSON.stringify(reply).slice(0, 400)}`);
    return envelope.data ?? envelope;
  };
  return { child, request, call };
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

/** CPU seconds per thread group (thread name with digits folded), since `since` when given. */
function threadCpu(pid, since) {
  const groups = new Map();
  const raw = new Map();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try { stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8'); } catch { continue; }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, 'N');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / TICK;
    raw.set(task, cpu);
    const used = cpu - (since?.raw.get(task) ?? 0);
    groups.set(name, (groups.get(name) ?? 0) + used);
  }
  return { raw, groups };
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)[1]);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024, threads: Number(/Threads:\s+(\d+)/.exec(status)[1]) };
}

function children(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch { return []; }
}

const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'idle-bench', version: '1' } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const WAITING = process.env.LOMI_IDLE_WAITING === '1';

const clients = [];
const tConnect = Date.now();
for (let i = 0; i < SESSIONS; i++) {
  const s = start(helper[0], helper.slice(1));
  await s.request('initialize', init);
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  clients.push(s);
}
for (const s of clients) {
  let phase = '';
  for (let i = 0; i < 1200 && phase !== 'connected'; i++) {
    phase = (await s.call('lomi_status', {})).phase;
    if (phase !== 'connected') await sleep(100);
  }
  if (phase !== 'connected') throw new Error('a helper never connected');
  s.workspaceId = (await s.call('lomi_workspace_list', { limit: 1 })).workspaces[0].workspaceId;
  s.epoch = (await s.call('lomi_connect', { workspaceId: s.workspaceId })).retryEpoch;
}
const connectSeconds = (Date.now() - tConnect) / 1000;
let made = 0;
for (let t = 0; t < TERMINALS; t++) {
  const s = clients[t % SESSIONS];
  for (let attempt = 0; ; attempt++) {
    const revision = (await s.call('lomi_panel_list', { workspaceId: s.workspaceId })).domainRevision;
    const op = await s.call('lomi_terminal_create', { workspaceId: s.workspaceId, expectedRevision: revision, retryEpoch: s.epoch,
      requestKey: `idle-${t}-${attempt}` });
    if (op.state === 'succeeded') { made++; s.terminal ??= op.result; break; }
    if (attempt > 5) throw new Error('terminal_create: ' + JSON.stringify(op).slice(0, 300));
  }
}
await sleep(5000); // let the shells print their prompts and settle
const threadsIdle = memory(brokerPid).threads;
let waitsAnswered = 0;
let stopping = false;
const waiters = [];
if (WAITING) {
  for (const [i, s] of clients.entries()) {
    waiters.push((async () => {
      if (i % 2 === 0 || !s.terminal) {
        const cursor = (await s.call('lomi_events_read', { workspaceId: s.workspaceId, limit: 500 })).nextCursor;
        while (!stopping) { await s.call('lomi_events_read', { workspaceId: s.workspaceId, cursor, waitMs: 25000 }); waitsAnswered++; }
      } else {
        const target = { workspaceId: s.workspaceId, panelId: s.terminal.panelId, terminalSessionId: s.terminal.terminalSessionId };
        let cursor = '0';
        for (let page; !(page = await s.call('lomi_terminal_read', { ...target, cursor, maxBytes: 65536 })).end;) cursor = page.nextCursor;
        cursor = (await s.call('lomi_terminal_read', { ...target, cursor, maxBytes: 65536 })).nextCursor;
        while (!stopping) { await s.call('lomi_terminal_read', { ...target, cursor, waitMs: 25000 }); waitsAnswered++; }
      }
    })());
  }
  // every session is in its first wait; LOMI_IDLE_WARMUP seconds (default 60) of waiting before the measurement
  await sleep(1000 * Number(process.env.LOMI_IDLE_WARMUP ?? 60));
}
const before = cpuSeconds(brokerPid);
const threadsBefore = threadCpu(brokerPid);
const shellsBefore = children(brokerPid).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
const t0 = process.hrtime.bigint();
let peak = memory(brokerPid);
let threadsPeak = peak.threads;
for (let waited = 0; waited < SECONDS; waited += 10) {
  await sleep(Math.min(10, SECONDS - waited) * 1000);
  const m = memory(brokerPid);
  if (m.rss > peak.rss) peak = m;
  threadsPeak = Math.max(threadsPeak, m.threads);
}
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const used = cpuSeconds(brokerPid) - before;
const byThread = threadCpu(brokerPid, threadsBefore);
const shells = children(brokerPid).reduce((sum, pid) => sum + cpuSeconds(pid), 0) - shellsBefore;
const helpersCpu = clients.reduce((sum, s) => sum + cpuSeconds(s.child.pid), 0);
const helperRss = clients.map((s) => memory(s.child.pid).rss);
const end = memory(brokerPid);
const percent = (100 * used) / wall;
const lines = [
  `## Broker idle cost — ${SESSIONS} sessions${WAITING ? ', each holding a waiting call (waitMs 25000)' : ''}, ${made} terminals, ${wall.toFixed(0)} s`,
  '',
  `date ${new Date().toISOString()}, ${os.cpus().length} CPUs (${os.cpus()[0].model}), load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`,
  '',
  '| figure | value | goal |',
  '|---|---|---|',
  `| broker CPU while idle (user+system / wall) | ${percent.toFixed(3)} % of one core (${used.toFixed(2)} s in ${wall.toFixed(0)} s) | < 1 % → ${percent < 1 ? 'PASS' : 'MISS'} |`,
  `| the idle shells' CPU (children of the broker) | ${shells.toFixed(2)} s | — |`,
  `| broker RSS at the end / peak during the idle phase | ${end.rss.toFixed(1)} MiB / ${peak.rss.toFixed(1)} MiB (VmHWM ${end.hwm.toFixed(1)} MiB), ${end.threads} threads | — |`,
  `| helper RSS (each) | median ${helperRss.sort((a, b) => a - b)[Math.floor(helperRss.length / 2)].toFixed(1)} MiB, max ${Math.max(...helperRss).toFixed(1)} MiB | — |`,
  `| all helpers' CPU since start (connect + idle) | ${helpersCpu.toFixed(2)} s | — |`,
  `| time to connect ${SESSIONS} helpers | ${connectSeconds.toFixed(1)} s | — |`,
  ...(WAITING ? [`| broker threads: idle before the waits / peak while ${SESSIONS} calls wait | ${threadsIdle} / ${threadsPeak} | no growth beyond the 16 connection threads |`,
    `| waiting calls answered at the end of their 25 s wait (warm-up included: ${process.env.LOMI_IDLE_WARMUP ?? 60} s before the measurement) | ${waitsAnswered} | — |`] : []),
  '',
  `Broker CPU by thread (digits folded; the JVM's own threads included): ${[...byThread.groups].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).slice(0, 8)
    .map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ')}`,
  '',
];
writeFileSync(out, lines.join('\n'));
console.log(lines.join('\n'));
stopping = true;
for (const s of clients) s.child.kill('SIGTERM');
process.exit(percent < 1 ? 0 : 1);
