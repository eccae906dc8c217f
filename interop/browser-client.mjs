// The browser flow through the real helper with the official TypeScript SDK client 1.32.x.
// The SDK validates every structuredContent against the tool's published outputSchema (callTool throws otherwise).
// Usage: LOMI_TEST_SITE=http://127.0.0.1:PORT node browser-client.mjs <helper command> [args...]
// Protocol with the Java test: "PAIRING <id>", then "DECISION <operationId>" (the admin approves the origin), then "RESULT <json>".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { helperCommand, structured } from './common.mjs';

const site = process.env.LOMI_TEST_SITE;
const { command, args } = helperCommand();
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'interop-browser', version: '1.0.0' });
await client.connect(transport);
const tools = (await client.listTools()).tools;
const browserTools = tools.filter((t) => t.name.startsWith('lomi_browser_')).map((t) => t.name);
if (browserTools.length !== 12) throw new Error('expected 12 browser tools, got ' + browserTools);
let calls = 0;
const raw = async (name, a) => { calls++; return client.callTool({ name, arguments: a }); };
const ok = async (name, a) => {
  const s = structured(await raw(name, a));
  if (s.status !== 'ok') throw new Error(`${name} ${JSON.stringify(a)} -> ${JSON.stringify(s)}`);
  return s.data;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out: ' + what);
    await sleep(100);
  }
}

const status = await until('pairing', async () => { const s = structured(await raw('lomi_status', {})); return s.data.phase === 'pairing_required' && s.data.pairingRequestId ? s : null; });
console.log(`PAIRING ${status.data.pairingRequestId}`);
await until('connected', async () => structured(await raw('lomi_status', {})).data.phase === 'connected');
const list = await ok('lomi_workspace_list', {});
const workspaceId = list.workspaces[0].workspaceId;
const retryEpoch = (await ok('lomi_connect', { workspaceId })).retryEpoch;
let key = 0;
const durable = (a) => ({ ...a, retryEpoch, requestKey: `k-${++key}` });

const waiting = await ok('lomi_browser_open', durable({ workspaceId, url: site + '/', expectedRevision: list.domainRevision }));
if (waiting.state !== 'awaiting_user') throw new Error('open did not wait for the admin: ' + JSON.stringify(waiting));
console.log(`DECISION ${waiting.operationId}`);
const opened = await until('open approved', async () => { const o = await ok('lomi_operation_get', { operationId: waiting.operationId }); return o.state === 'succeeded' ? o : (['awaiting_user', 'queued', 'running'].includes(o.state) ? null : Promise.reject(new Error(JSON.stringify(o)))); });
const b = opened.result;
const target = { workspaceId, panelId: b.panelId, browserGeneration: b.browserGeneration };
const find = (snap, role, name) => { const e = snap.elements.find((x) => x.role === role && x.name === name); if (!e) throw new Error(`no ${role} ${name}`); return e; };
const act = (snap, a) => durable({ ...target, navigationId: snap.navigationId, snapshotId: snap.snapshotId, leaseId: b.leaseId, ...a });

let snap = await ok('lomi_browser_snapshot', { ...target, maxBytes: 65536 });
const filled = await ok('lomi_browser_fill', act(snap, { elementRef: find(snap, 'textbox', 'Name').elementRef, text: 'Grace Hopper' }));
if (filled.state !== 'succeeded' || filled.result.valueLength !== 12) throw new Error('fill ' + JSON.stringify(filled));
snap = await ok('lomi_browser_snapshot', { ...target, maxBytes: 65536 });
if (JSON.stringify(snap).includes('Grace Hopper')) throw new Error('a form value leaked into the snapshot');
const clickArgs = act(snap, { elementRef: find(snap, 'button', 'Greet').elementRef });
const click1 = await ok('lomi_browser_click', clickArgs);
const click2 = await ok('lomi_browser_click', clickArgs);
if (click1.operationId !== click2.operationId || click1.state !== 'succeeded') throw new Error('retried click ' + JSON.stringify([click1, click2]));
const waited = await ok('lomi_browser_wait', { ...target, condition: { type: 'text', text: 'Hello, Grace Hopper' } });
if (!waited.matched) throw new Error('wait ' + JSON.stringify(waited));
snap = waited.snapshot;
const pressed = await ok('lomi_browser_key', act(snap, { elementRef: find(snap, 'textbox', 'Keys').elementRef, key: 'Enter' }));
if (pressed.state !== 'succeeded') throw new Error('key ' + JSON.stringify(pressed));
const scrolled = await ok('lomi_browser_scroll', act(snap, { deltaX: 0, deltaY: 300 }));
if (scrolled.result.scrollPosition.y !== 300) throw new Error('scroll ' + JSON.stringify(scrolled));
const stale = structured(await raw('lomi_browser_click', act({ ...snap, snapshotId: 'snp-0000000000000000' }, { elementRef: 'e1' })));
if (stale.code !== 'STALE_SNAPSHOT') throw new Error('stale ' + JSON.stringify(stale));
const logs = await ok('lomi_browser_logs', { ...target, logKind: 'console' });
if (!JSON.stringify(logs.entries).includes('boom from the page')) throw new Error('logs ' + JSON.stringify(logs));
const shot = await raw('lomi_browser_screenshot', { ...target, navigationId: snap.navigationId, maxWidth: 800 });
const image = shot.content.find((c) => c.type === 'image');
if (!image || image.mimeType !== 'image/png' || !Buffer.from(image.data, 'base64').subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
  throw new Error('no PNG image block');
}
const artifactId = structured(shot).data.artifact.id;
const read = await raw('lomi_artifact_read', { workspaceId, artifactId });
if (!read.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')) throw new Error('artifact_read without the image block');
const revision = (await ok('lomi_panel_list', { workspaceId })).domainRevision;
const downloaded = await ok('lomi_browser_download', durable({ ...target, navigationId: snap.navigationId, url: site + '/file.bin', expectedRevision: revision }));
if (downloaded.state !== 'succeeded') throw new Error('download ' + JSON.stringify(downloaded));
const redirected = await ok('lomi_browser_navigate', durable({ ...target, leaseId: b.leaseId, url: site + '/redirect?to=' + encodeURIComponent(process.env.LOMI_OTHER_SITE + '/other.html') }));
if (redirected.state !== 'failed' || redirected.errorCode !== 'SCOPE_DENIED') throw new Error('redirect ' + JSON.stringify(redirected));
const panels = await ok('lomi_panel_list', { workspaceId });
const panel = panels.panels.find((p) => p.panelId === b.panelId);
console.log('RESULT ' + JSON.stringify({ protocolVersion: transport._protocolVersion, calls, browserTools: browserTools.length, generation: b.browserGeneration,
  panelGeneration: panel.browserGeneration, imageBytes: Buffer.from(image.data, 'base64').length, downloadSha256: downloaded.result.artifact.sha256 }));
await client.close();
