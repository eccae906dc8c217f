// Side-by-side browser benchmark: lomi-control's browser tools vs @playwright/mcp, both driving the
// same headless Chromium binary on the same local page, in one run.
// Usage: node bench/browser/browser-bench.mjs <results.md> -- <lomi-control helper command...>
// Measures round trips (median, p90) of: open of a new page (lomi: lomi_browser_open of an approved origin;
// playwright: browser_tabs {action:"new", url}), navigate, snapshot, click. The page is served here.
// With BROKER_LOG (the broker's stderr with dev.lomicontrol.browser.tools at DEBUG) it also reports the
// time spent inside the broker's browser handlers, apart from the helper↔broker hop.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const [out, sep, ...helper] = process.argv.slice(2);
if (sep !== '--' || helper.length === 0) throw new Error('usage: browser-bench.mjs out.md -- helper...');
const N = Number(process.env.ROUNDS ?? 20);
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium-headless-shell';
const page = readFileSync(new URL('../../src/test/resources/browser/index.html', import.meta.url));
const frame = readFileSync(new URL('../../src/test/resources/browser/frame.html', import.meta.url));
const server = createServer((req, res) => {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(req.url.startsWith('/frame.html') ? frame : req.url === '/' ? page : 'ok');
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const site = `http://127.0.0.1:${server.address().port}`;

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: s[Math.floor(s.length / 2)], p90: s[Math.floor(s.length * 0.9)] }; };
async function connect(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: 'ignore' });
  const client = new Client({ name: 'browser-bench', version: '1' });
  await client.connect(transport);
  await client.listTools();
  return client;
}
const sc = (r) => r.structuredContent;

// --- lomi-control
const lomi = await connect(helper[0], helper.slice(1), {});
const call = async (name, a) => { const s = sc(await lomi.callTool({ name, arguments: a })); if (s.status !== 'ok') throw new Error(name + ' ' + JSON.stringify(s)); return s.data; };
for (let i = 0; ; i++) { const s = sc(await lomi.callTool({ name: 'lomi_status', arguments: {} })); if (s.data.phase === 'connected') break; if (i > 600) throw new Error('not connected'); await new Promise((r) => setTimeout(r, 100)); }
const ws = await call('lomi_workspace_list', {});
const workspaceId = ws.workspaces[0].workspaceId;
const retryEpoch = (await call('lomi_connect', { workspaceId })).retryEpoch;
let key = 0;
const lomiTimes = { open: [], openCall: [], navigate: [], snapshot: [], click: [] };
let lastOpenCall = 0;
async function open() {
  const revision = (await call('lomi_panel_list', { workspaceId })).domainRevision;
  const t0 = process.hrtime.bigint();
  let opened = await call('lomi_browser_open', { workspaceId, url: site + '/', expectedRevision: revision, retryEpoch, requestKey: `o-${++key}` });
  while (opened.state !== 'succeeded') { if (!['queued', 'running', 'awaiting_user'].includes(opened.state)) throw new Error(JSON.stringify(opened)); opened = await call('lomi_operation_get', { operationId: opened.operationId }); }
  lastOpenCall = ms(t0);
  return opened.result;
}
const a = await open(); // starts this connection's Chromium; it stays open, so later opens measure a new page, not a new process
const targetA = { workspaceId, panelId: a.panelId, browserGeneration: a.browserGeneration };
async function lomiRound(i) {
  let t0 = process.hrtime.bigint();
  const b = await open();
  const tOpen = ms(t0);
  const tOpenCall = lastOpenCall;
  await call('lomi_panel_close', { workspaceId, panelId: b.panelId, browserGeneration: b.browserGeneration,
    expectedRevision: (await call('lomi_panel_list', { workspaceId })).domainRevision, retryEpoch, requestKey: `x-${++key}` });
  t0 = process.hrtime.bigint();
  const nav = await call('lomi_browser_navigate', { ...targetA, leaseId: a.leaseId, url: site + '/', retryEpoch, requestKey: `n-${++key}` });
  const tNav = ms(t0);
  if (nav.state !== 'succeeded') throw new Error(JSON.stringify(nav));
  t0 = process.hrtime.bigint();
  const snap = await call('lomi_browser_snapshot', targetA);
  const tSnap = ms(t0);
  const greet = snap.elements.find((e) => e.role === 'button' && e.name === 'Greet').elementRef;
  t0 = process.hrtime.bigint();
  const clicked = await call('lomi_browser_click', { ...targetA, navigationId: snap.navigationId, snapshotId: snap.snapshotId, elementRef: greet, leaseId: a.leaseId, retryEpoch, requestKey: `c-${++key}` });
  const tClick = ms(t0);
  if (clicked.state !== 'succeeded') throw new Error(JSON.stringify(clicked));
  if (i > 0) { lomiTimes.open.push(tOpen); lomiTimes.openCall.push(tOpenCall); lomiTimes.navigate.push(tNav); lomiTimes.snapshot.push(tSnap); lomiTimes.click.push(tClick); }
}

// --- @playwright/mcp on the same Chromium
const require = createRequire(import.meta.url);
const cli = path.join(path.dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js');
const pwOutput = mkdtempSync(path.join(os.tmpdir(), 'playwright-mcp-'));
const pw = await connect(process.execPath, [cli, '--executable-path', chromium, '--headless', '--isolated', '--no-sandbox', '--output-dir', pwOutput], {});
const pwCall = async (name, a) => { const r = await pw.callTool({ name, arguments: a }); if (r.isError) throw new Error(name + ' ' + JSON.stringify(r.content)); return r.content.map((c) => c.text ?? '').join('\n'); };
const pwTimes = { open: [], navigate: [], snapshot: [], click: [] };
async function pwRound(i) {
  // a new tab and a navigation in it: what lomi_browser_open does (a new page); then the tab closes again (not timed, as lomi's panel close)
  let t0 = process.hrtime.bigint();
  await pwCall('browser_tabs', { action: 'new', url: site + '/' }); // 0.0.83: a new tab navigated in one call
  const tNewTab = ms(t0);
  await pwCall('browser_tabs', { action: 'close' });
  t0 = process.hrtime.bigint();
  await pwCall('browser_navigate', { url: site + '/' });
  const tOpen = ms(t0);
  t0 = process.hrtime.bigint();
  const text = await pwCall('browser_snapshot', {});
  const tSnap = ms(t0);
  const ref = /button "Greet" \[ref=([^\]]+)\]/.exec(text)?.[1];
  if (!ref) throw new Error('no Greet ref in ' + text.slice(0, 400));
  t0 = process.hrtime.bigint();
  await pwCall('browser_click', { element: 'Greet button', target: ref });
  const tClick = ms(t0);
  if (i > 0) { pwTimes.open.push(tNewTab); pwTimes.navigate.push(tOpen); pwTimes.snapshot.push(tSnap); pwTimes.click.push(tClick); }
}
// interleaved (a lomi round, then a Playwright round), so that a change of the machine's load falls on both alike
for (let i = 0; i <= N; i++) {
  await lomiRound(i);
  await pwRound(i);
}
await lomi.close();
await pw.close();
rmSync(pwOutput, { recursive: true, force: true });
server.close();

// --- inside the broker: the browser handlers' own timing (debug log of dev.lomicontrol.browser.tools), without the helper↔broker hop
const broker = { snapshot: [], snapshotPage: [], snapshotAnswer: [], open: [], openPage: [], openNavigate: [], openPanel: [], navigate: [], click: [] };
if (process.env.BROKER_LOG) {
  const lines = readFileSync(process.env.BROKER_LOG, 'utf8').split('\n').filter((l) => l.includes(' timing '));
  const num = (l, k) => Number(new RegExp(`${k}=([0-9.]+)`).exec(l)?.[1]);
  for (const l of lines) {
    if (l.includes(' snapshot: ')) { broker.snapshot.push(num(l, 'handler')); broker.snapshotPage.push(num(l, 'page')); broker.snapshotAnswer.push(num(l, 'answer')); }
    else if (l.includes('timing open: ')) broker.open.push(num(l, 'handler'));
    else if (l.includes(' open: page=')) { broker.openPage.push(num(l, 'page')); broker.openNavigate.push(num(l, 'navigate')); broker.openPanel.push(num(l, 'panel')); }
    else if (l.includes('timing navigate: ')) broker.navigate.push(num(l, 'handler'));
    else if (l.includes('timing lomi_browser_click: ')) broker.click.push(num(l, 'handler'));
  }
  for (const k of Object.keys(broker)) broker[k] = broker[k].slice(-N); // the measured rounds (the warm-up and the first open are earlier)
}


const pairs = [
  ['open of a new page (lomi: lomi_panel_list for expectedRevision + lomi_browser_open; playwright: browser_tabs {action:"new", url})', 'open', 'open'],
  ['open of a new page, lomi_browser_open call alone (no revision read) vs browser_tabs {action:"new", url}', 'openCall', 'open'],
  ['old pairing: open (lomi_panel_list + lomi_browser_open) vs browser_navigate of Playwright\'s open page', 'open', 'navigate'],
  ['navigate (lomi_browser_navigate vs browser_navigate)', 'navigate', 'navigate'],
  ['snapshot', 'snapshot', 'snapshot'],
  ['click', 'click', 'click'],
];
const rows = pairs.map(([text, l, p]) => {
  const a = stats(lomiTimes[l]); const b = stats(pwTimes[p]);
  return `| ${text} | ${a.median.toFixed(1)} / ${a.p90.toFixed(1)} | ${b.median.toFixed(1)} / ${b.p90.toFixed(1)} | ${(a.median / b.median).toFixed(2)}× |`;
});
const inside = Object.entries(broker).filter(([, xs]) => xs.length > 0).map(([k, xs]) => { const s = stats(xs); return `| ${k} | ${s.median.toFixed(2)} / ${s.p90.toFixed(2)} |`; });
const report = `# Browser benchmark ${new Date().toISOString()}\n\n${os.cpus().length} CPUs, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${N} rounds after one warm-up; same Chromium (${chromium}), same page on 127.0.0.1.\n\n`
  + `| round trip (ms, median / p90) | lomi-control | @playwright/mcp 0.0.83 | ratio |\n|---|---|---|---|\n${rows.join('\n')}\n\n`
  + `lomi open = lomi_browser_open of an approved origin (a durable receipt, a new page and panel in the connection's running Chromium, load awaited); lomi navigate = lomi_browser_navigate (durable, load awaited); playwright navigate = browser_navigate of its current page; playwright new page = browser_tabs {action:"new", url} (a new tab navigated in one call; closed again between rounds, untimed, as lomi's panel).\n`
  + `lomi click = a durable operation (receipt reserved and settled in SQLite with synchronous=FULL); playwright click = a trusted input event plus its settle wait.\n`
  + (inside.length ? `\nInside the broker (its browser handlers' debug timing, ms, median / p90; the rest of a lomi round trip is the helper, the helper↔broker hop and the MCP client):\n\n| handler part | ms |\n|---|---|\n${inside.join('\n')}\n` : '');
writeFileSync(out, report);
console.log(report);
