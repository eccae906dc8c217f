// Many agents on one broker (issue 44): N real helpers (`lomi-control --mcp`, as MCP clients start them) connected
// to one broker at once; the broker's idle cost with all N connected and idle, then every helper reads one file
// in a loop (one call at a time, as an agent does) for a while: calls/s, p50/p99 latency, errors, broker RSS and
// threads, the helpers' total RSS.
// Usage: node bench/agents-bench.mjs <results.md> <brokerPid> <N> <seconds> <project> -- <helper command...>
// LOMI_AGENTS_BATCH (default 16): helpers started together (each batch connects before the next starts);
// LOMI_AGENTS_IDLE (default 30): seconds of the idle measurement; LOMI_AGENTS_PACE_MS (default 0): each helper
// waits this long after each answer before its next call (0: back to back, the CPUs saturate; an agent's model
// turn takes seconds, so a paced loop shows what the number of connections alone does to a call's latency).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const [out, brokerPidText, countText, secondsText, project, sep, ...helper] = process.argv.slice(2);
if (sep !== '--' || helper.length === 0) throw new Error('usage: agents-bench.mjs out.md brokerPid N seconds project -- helper...');
const brokerPid = Number(brokerPidText);
const N = Number(countText);
const SECONDS = Number(secondsText);
const BATCH = Number(process.env.LOMI_AGENTS_BATCH ?? 16);
const IDLE = Number(process.env.LOMI_AGENTS_IDLE ?? 30);
const PACE = Number(process.env.LOMI_AGENTS_PACE_MS ?? 0);
const TICK = 100; // USER_HZ
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start() {
  const child = spawn(helper[0], helper.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
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
    if (reply.error || reply.result?.isError) throw new Error(`${name}: ${JSON.stringify(reply).slice(0, 300)}`);
    const envelope = reply.result.structuredContent;
    return envelope.data ?? envelope;
  };
  return { child, request, call };
}

function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)[1]);
  return { rss: kib('VmRSS') / 1024, threads: Number(/Threads:\s+(\d+)/.exec(status)[1]) };
}

/** Busy and total jiffies of the whole machine (every CPU), from /proc/stat. */
function machine() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agents-bench', version: '1' } };
const clients = [];
const tConnect = Date.now();
for (let first = 0; first < N; first += BATCH) {
  const batch = [];
  for (let i = first; i < Math.min(N, first + BATCH); i++) {
    const s = start();
    batch.push(s);
    clients.push(s);
  }
  await Promise.all(batch.map(async (s) => {
    await s.request('initialize', init);
    s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    let status = {};
    for (let i = 0; i < 1200 && status.phase !== 'connected'; i++) {
      status = await s.call('lomi_status', {});
      if (status.phase !== 'connected') await sleep(100);
    }
    if (status.phase !== 'connected') throw new Error(`a helper never connected: ${status.phase} ${status.detail}`);
    s.workspaceId = (await s.call('lomi_workspace_list', { limit: 1 })).workspaces[0].workspaceId;
  }));
}
const connectSeconds = (Date.now() - tConnect) / 1000;
const phases = await Promise.all(clients.map(async (s) => (await s.call('lomi_status', {})).phase));
const connected = phases.filter((p) => p === 'connected').length;
console.error(`${connected} of ${N} helpers connected in ${connectSeconds.toFixed(1)} s`);

// idle: every helper connected, nobody calls
await sleep(10000);
const idleCpu0 = cpuSeconds(brokerPid);
const idleT0 = Date.now();
await sleep(IDLE * 1000);
const idleCpu = (cpuSeconds(brokerPid) - idleCpu0) / ((Date.now() - idleT0) / 1000);
const idleMemory = memory(brokerPid);

// load: every helper reads the file in a loop
const latencies = [];
let errors = 0;
let stop = false;
let peak = memory(brokerPid);
const machine0 = machine();
const loadCpu0 = cpuSeconds(brokerPid);
const t0 = process.hrtime.bigint();
const loops = clients.map(async (s) => {
  while (!stop) {
    const started = process.hrtime.bigint();
    try {
      await s.call('lomi_files_read', { workspaceId: s.workspaceId, relativePath: 'notes.txt' });
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    } catch (e) {
      errors++;
      if (errors <= 3) console.error(String(e));
    }
    if (PACE > 0) await sleep(PACE);
  }
});
for (let waited = 0; waited < SECONDS; waited += 2) {
  await sleep(2000);
  const now = memory(brokerPid);
  peak = { rss: Math.max(peak.rss, now.rss), threads: Math.max(peak.threads, now.threads) };
}
stop = true;
await Promise.all(loops);
const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
const loadCpu = (cpuSeconds(brokerPid) - loadCpu0) / elapsed;
const machine1 = machine();
const machineBusy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total);
let helpersRss = 0;
for (const s of clients) helpersRss += memory(s.child.pid).rss;
const stillConnected = (await Promise.all(clients.map(async (s) => (await s.call('lomi_status', {})).phase)))
  .filter((p) => p === 'connected').length;
for (const s of clients) s.child.stdin.end();

latencies.sort((a, b) => a - b);
const pct = (p) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN;
const row = {
  paceMs: PACE, agents: N, connected, stillConnected, connectSeconds, callsPerSecond: latencies.length / elapsed,
  p50: pct(0.5), p99: pct(0.99), errors, idleCpuPercent: idleCpu * 100, idleRss: idleMemory.rss,
  idleThreads: idleMemory.threads, peakRss: peak.rss, peakThreads: peak.threads, loadCpuPercent: loadCpu * 100,
  helpersRss, machineBusyPercent: machineBusy * 100,
};
const text = `# Many agents on one broker: ${N} helpers${PACE > 0 ? `, each pausing ${PACE} ms after each answer` : ''} (${new Date().toISOString()})

Machine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; load before
${process.env.LOAD_BEFORE ?? '?'}; whole machine busy ${row.machineBusyPercent.toFixed(0)} % during the read loops
(broker, helpers, this driver and everything else).

| agents | connected (after loops) | connect s | calls/s | p50 ms | p99 ms | errors | broker idle CPU | broker RSS idle / peak MiB | broker threads idle / peak | broker CPU under load | helpers' RSS total (each) MiB |
|---|---|---|---|---|---|---|---|---|---|---|---|
| ${N} | ${connected} (${stillConnected}) | ${connectSeconds.toFixed(1)} | ${row.callsPerSecond.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${errors} | ${row.idleCpuPercent.toFixed(2)} % of a core | ${row.idleRss.toFixed(0)} / ${row.peakRss.toFixed(0)} | ${row.idleThreads} / ${row.peakThreads} | ${row.loadCpuPercent.toFixed(0)} % | ${helpersRss.toFixed(0)} (${(helpersRss / N).toFixed(0)}) |
`;
writeFileSync(out, text);
console.log(text);
console.log(JSON.stringify(row));
process.exit(0);
