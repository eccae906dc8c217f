// A scripted "model" on 127.0.0.1 that real agent CLIs talk to instead of their provider, so a
// test can drive Claude Code, Codex and Gemini CLI through real MCP tool calls to lomi-control.
//
// Usage: node scripted-model.mjs --record FILE.jsonl [--task terminal|editor|git] [--think-ms 1000]
// Prints "PORT <n>" on stdout once it listens (port 0: the system chooses), then serves until killed.
//
// Wire formats (one task script, three encoders):
//   Anthropic Messages  POST /v1/messages[?beta=true] (stream: SSE), /v1/messages/count_tokens
//   OpenAI Responses    POST /v1/responses (SSE)
//   Gemini              POST /v1beta/models/<m>:generateContent | :streamGenerateContent?alt=sse | :countTokens
//
// Each request is decoded into the conversation so far: the prompt and the list of tool calls the
// model made with the results the CLI sent back (parsed from the request, never remembered here).
// The task picks the next call from that, as a model would: a task is chosen by "lomi-task:NAME" in
// the prompt (else --task), the editor task's file by "lomi-file:PATH" (default notes.txt). Tools a
// CLI lists by name only (Claude Code's deferred MCP tools) are loaded first with its ToolSearch. A
// request that carries no lomi tool (a CLI's side request: a title, a summary, a routing or
// next-speaker check) gets a plain answer (JSON built from the schema when the CLI asks for JSON).
//
// Every request is appended to the record as one JSON line: {seq, at, method, path, api, role
// (task | side | count_tokens), task, bytes, tools: {count, bytes, lomiCount, lomiBytes, names},
// history (the lomi tools called so far), answer, body}. "bytes" is the request body as received;
// tool "bytes" are the tool definitions the CLI sent, each re-serialised as compact JSON (a Codex
// namespace counts whole).
import { createServer } from 'node:http';
import { appendFileSync } from 'node:fs';

const options = parseArgs(process.argv.slice(2));
const RECORD = options.record;
const DEFAULT_TASK = options.task ?? 'terminal';
const THINK_MS = Number(options['think-ms'] ?? 1000);
const MODEL = 'scripted-model';
let seq = 0;

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) throw new Error('unexpected argument ' + argv[i]);
    out[argv[i].slice(2)] = argv[++i];
  }
  if (!out.record) throw new Error('usage: node scripted-model.mjs --record FILE.jsonl [--task NAME] [--think-ms MS]');
  return out;
}

// ---------------------------------------------------------------------------------------------
// The tasks. history: [{tool, args, result}] in call order (result: the parsed {status, data|code}
// JSON the tool answered, or {text} when it was not JSON). Each returns the next step:
//   {call: tool, args, thinkMs?}  or  {text}
// ---------------------------------------------------------------------------------------------

const TERMINAL_COMMAND = 'echo lomi-$((6*7))';
const EDIT_FIND = 'world';
const EDIT_REPLACE = 'lomi-edited';
const WAIT_MS = 20000;
const PAIRING_POLLS = 30;

const TASKS = { terminal: terminalTask, editor: editorTask, git: gitTask };
/** The tools each task may call: what the model loads first when a CLI defers tool definitions. */
const NEEDS = {
  terminal: ['lomi_status', 'lomi_diagnostics', 'lomi_workspace_list', 'lomi_connect', 'lomi_terminal_create', 'lomi_terminal_run', 'lomi_operation_get'],
  editor: ['lomi_status', 'lomi_diagnostics', 'lomi_workspace_list', 'lomi_connect', 'lomi_files_read', 'lomi_editor_open', 'lomi_editor_apply_edits',
    'lomi_editor_save', 'lomi_operation_get'],
  git: ['lomi_status', 'lomi_diagnostics', 'lomi_workspace_list', 'lomi_git_status'],
};

function last(history, tool) {
  for (let i = history.length - 1; i >= 0; i--) if (history[i].tool === tool) return history[i];
  return null;
}

function count(history, tool) {
  return history.filter((h) => h.tool === tool).length;
}

function call(tool, args, thinkMs) {
  return { call: tool, args, thinkMs };
}

/** The latest domainRevision any answer carried (list, or an operation's result). */
function domainRevision(history) {
  for (let i = history.length - 1; i >= 0; i--) {
    const d = history[i].result?.data;
    const revision = d?.result?.domainRevision ?? d?.domainRevision;
    if (typeof revision === 'string') return revision;
  }
  return null;
}

function failure(entry) {
  const r = entry.result;
  if (r.status === 'error') return `${entry.tool} failed: ${r.code} ${r.message ?? ''}`.trim();
  if (r.status !== 'ok') return `${entry.tool} answered something I cannot read: ${JSON.stringify(r).slice(0, 300)}`;
  const state = r.data?.state;
  if (r.data?.kind === 'operation' && state !== 'succeeded' && state !== 'running' && state !== 'queued') {
    return `${entry.tool} ended ${state}: ${r.data.errorCode ?? ''}`;
  }
  return null;
}

/** Status until connected (waiting for the admin), the workspace, and (when asked) a connection. */
function connected(history, withConnection) {
  const checks = history.filter((h) => h.tool === 'lomi_status' || h.tool === 'lomi_diagnostics');
  if (checks.length === 0) return { next: call('lomi_status', {}) };
  const phase = checks[checks.length - 1].result.data?.phase;
  if (phase !== 'connected') {
    if (checks.length >= PAIRING_POLLS) return { next: { text: `not connected: ${phase}` } };
    // waiting for the admin to approve the pairing: look again after a while, longer each time, and
    // not with the same call twice in a row (Gemini CLI stops a run that repeats one call 5 times)
    const thinkMs = Math.min(THINK_MS * 2 ** (checks.length - 1), 8 * THINK_MS);
    return { next: call(checks.length % 2 === 1 ? 'lomi_diagnostics' : 'lomi_status', {}, thinkMs) };
  }
  const list = last(history, 'lomi_workspace_list');
  if (!list) return { next: call('lomi_workspace_list', {}) };
  if (failure(list)) return { next: { text: failure(list) } };
  const workspace = list.result.data.workspaces[0];
  if (!workspace) return { next: { text: 'no workspace is shared with me' } };
  const workspaceId = workspace.workspaceId;
  if (!withConnection) return { workspaceId };
  const connection = last(history, 'lomi_connect');
  if (!connection) return { next: call('lomi_connect', { workspaceId }) };
  if (failure(connection)) return { next: { text: failure(connection) } };
  return { workspaceId, retryEpoch: connection.result.data.retryEpoch };
}

/** The step after an operation call: its failure as text, a wait while it runs, or null when it settled. */
function settle(history, entry) {
  if (failure(entry)) return { text: failure(entry) };
  const wait = last(history, 'lomi_operation_get');
  const op = wait && history.indexOf(wait) > history.indexOf(entry) ? wait : entry;
  if (op !== entry && failure(op)) return { text: failure(op) };
  const state = op.result.data.state;
  if (state === 'succeeded') return null;
  return call('lomi_operation_get', { operationId: op.result.data.operationId, waitMs: WAIT_MS });
}

function settledResult(history, entry) {
  const wait = last(history, 'lomi_operation_get');
  const op = wait && history.indexOf(wait) > history.indexOf(entry) ? wait : entry;
  return op.result.data.result;
}

function terminalTask(history) {
  const c = connected(history, true);
  if (c.next) return c.next;
  const { workspaceId, retryEpoch } = c;
  const created = last(history, 'lomi_terminal_create');
  if (!created) {
    return call('lomi_terminal_create', { workspaceId, cwdRelative: '', expectedRevision: domainRevision(history), retryEpoch,
      requestKey: 'task-terminal-create', waitMs: WAIT_MS });
  }
  const run = last(history, 'lomi_terminal_run');
  if (!run) {
    const pending = settle(history, created);
    if (pending) return pending;
    const terminal = settledResult(history, created);
    return call('lomi_terminal_run', { workspaceId, panelId: terminal.panelId, terminalSessionId: terminal.terminalSessionId,
      leaseId: terminal.leaseId, command: TERMINAL_COMMAND, retryEpoch, requestKey: 'task-terminal-run', waitMs: WAIT_MS });
  }
  const pending = settle(history, run);
  if (pending) return pending;
  const result = settledResult(history, run);
  const output = (result.output?.text ?? '').replace(/\r/g, '').trim();
  return { text: `The command \`${TERMINAL_COMMAND}\` exited ${result.exitCode} and printed: ${output}` };
}

function editorTask(history, { file: EDIT_FILE = 'notes.txt' }) {
  const c = connected(history, true);
  if (c.next) return c.next;
  const { workspaceId, retryEpoch } = c;
  const read = last(history, 'lomi_files_read');
  if (!read) return call('lomi_files_read', { workspaceId, relativePath: EDIT_FILE });
  if (failure(read)) return { text: failure(read) };
  const text = read.result.data.text;
  const at = text.indexOf(EDIT_FIND);
  if (at < 0) return { text: `${EDIT_FILE} has no "${EDIT_FIND}" to change` };
  const opened = last(history, 'lomi_editor_open');
  if (!opened) {
    return call('lomi_editor_open', { workspaceId, relativePath: EDIT_FILE, expectedRevision: domainRevision(history), retryEpoch,
      requestKey: 'task-editor-open', waitMs: WAIT_MS });
  }
  const edited = last(history, 'lomi_editor_apply_edits');
  if (!edited) {
    const pending = settle(history, opened);
    if (pending) return pending;
    const doc = settledResult(history, opened);
    return call('lomi_editor_apply_edits', { workspaceId, panelId: doc.panelId, relativePath: EDIT_FILE, documentId: doc.documentId,
      expectedBufferRevision: doc.bufferRevision, expectedDiskRevision: doc.diskRevision,
      edits: [{ fromUtf16: at, toUtf16: at + EDIT_FIND.length, insert: EDIT_REPLACE }],
      expectedRevision: domainRevision(history), retryEpoch, requestKey: 'task-editor-edit', waitMs: WAIT_MS });
  }
  const saved = last(history, 'lomi_editor_save');
  if (!saved) {
    const pending = settle(history, edited);
    if (pending) return pending;
    const doc = settledResult(history, opened);
    const edit = settledResult(history, edited);
    return call('lomi_editor_save', { workspaceId, panelId: doc.panelId, relativePath: EDIT_FILE, documentId: edit.documentId,
      expectedBufferRevision: edit.bufferRevision, expectedDiskRevision: edit.diskRevision,
      expectedRevision: domainRevision(history), retryEpoch, requestKey: 'task-editor-save', waitMs: WAIT_MS });
  }
  const pending = settle(history, saved);
  if (pending) return pending;
  const result = settledResult(history, saved);
  return { text: `Saved ${EDIT_FILE} (${EDIT_FIND} -> ${EDIT_REPLACE}): disk revision ${result.diskRevision}, ${result.byteLength} bytes` };
}

function gitTask(history) {
  const c = connected(history, false);
  if (c.next) return c.next;
  const status = last(history, 'lomi_git_status');
  if (!status) return call('lomi_git_status', { workspaceId: c.workspaceId });
  if (failure(status)) return { text: failure(status) };
  const d = status.result.data;
  const changes = d.changes.map((ch) => `${ch.relativePath} (worktree ${ch.worktree}, staged ${ch.staged})`);
  return { text: `On branch ${d.branch}, ${d.totalChanges} change(s): ${changes.join(', ') || 'none'}` };
}

// ---------------------------------------------------------------------------------------------
// Reading a tool result the CLI sent back: the {status, data|code} JSON wherever it sits.
// ---------------------------------------------------------------------------------------------

function parseResult(value) {
  const texts = [];
  const found = findEnvelope(value, texts);
  if (found) return found;
  // the JSON text itself, or after a CLI's preamble (Codex: "Wall time: …\nOutput:\n{…}")
  for (const t of texts) {
    for (const candidate of [t, t.slice(t.indexOf('{'), t.lastIndexOf('}') + 1)]) {
      try {
        const inner = findEnvelope(JSON.parse(candidate), []);
        if (inner) return inner;
      } catch {
        // not JSON: keep looking
      }
    }
  }
  return { status: 'text', text: texts.join('\n') };
}

function findEnvelope(value, texts) {
  if (typeof value === 'string') {
    texts.push(value);
    return null;
  }
  if (Array.isArray(value)) {
    for (const v of value) {
      const f = findEnvelope(v, texts);
      if (f) return f;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    if (typeof value.status === 'string' && ('data' in value || 'code' in value) && 'controlApiVersion' in value) return value;
    for (const v of Object.values(value)) {
      const f = findEnvelope(v, texts);
      if (f) return f;
    }
  }
  return null;
}

/** The lomi tool a CLI-side name stands for (mcp__lomi-control__lomi_x, lomi-control__lomi_x, lomi_x, ...). */
function lomiName(name) {
  const m = /(?:^|[_.-])(lomi_[a-z0-9_]+)$/.exec(name ?? '');
  return m ? m[1] : null;
}

// ---------------------------------------------------------------------------------------------
// Decoders: request body -> {prompt, history, tools, cliToolName(lomi) -> name}
// ---------------------------------------------------------------------------------------------

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : c.text ?? '')).join('\n');
  return '';
}

function decodeAnthropic(body) {
  const calls = new Map();
  const history = [];
  let prompt = '';
  for (const message of body.messages ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content ?? [];
    for (const block of content) {
      if (message.role === 'user' && block.type === 'text') prompt += block.text + '\n';
      if (block.type === 'tool_use') calls.set(block.id, { tool: lomiName(block.name), raw: block.name, args: block.input });
      if (block.type === 'tool_result') {
        const c = calls.get(block.tool_use_id);
        if (c) history.push({ ...c, result: parseResult(block.content) });
      }
    }
  }
  const tools = (body.tools ?? []).map((t) => ({ name: t.name, definition: t }));
  return { prompt, history, tools, system: textOf(body.system) };
}

function decodeResponses(body) {
  const calls = new Map();
  const history = [];
  let prompt = '';
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input ?? [];
  for (const item of input) {
    if ((item.type === 'message' || !item.type) && item.role === 'user') prompt += textOf(item.content) + '\n';
    if (item.type === 'function_call') {
      let args = {};
      try {
        args = JSON.parse(item.arguments || '{}');
      } catch {
        // keep {}
      }
      calls.set(item.call_id, { tool: lomiName(item.name), args });
    }
    if (item.type === 'function_call_output') {
      const c = calls.get(item.call_id);
      if (c) history.push({ ...c, result: parseResult(item.output) });
    }
  }
  // Codex groups an MCP server's tools in one {type:"namespace", name, tools:[...]}: a call names the
  // tool and its namespace
  const tools = [];
  for (const t of body.tools ?? []) {
    if (t.type === 'namespace') for (const inner of t.tools ?? []) tools.push({ name: inner.name, namespace: t.name, definition: inner });
    else tools.push({ name: t.name ?? t.type, definition: t });
  }
  return { prompt, history, tools, system: textOf(body.instructions) };
}

function decodeGemini(body) {
  const history = [];
  const pending = [];
  let prompt = '';
  for (const content of body.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (content.role === 'user' && typeof part.text === 'string') prompt += part.text + '\n';
      if (part.functionCall) pending.push({ tool: lomiName(part.functionCall.name), args: part.functionCall.args ?? {}, name: part.functionCall.name, id: part.functionCall.id });
      if (part.functionResponse) {
        const r = part.functionResponse;
        const i = pending.findIndex((p) => (r.id && p.id ? p.id === r.id : p.name === r.name));
        const c = i >= 0 ? pending.splice(i, 1)[0] : { tool: lomiName(r.name), args: {} };
        history.push({ tool: c.tool, args: c.args, result: parseResult(r.response) });
      }
    }
  }
  const tools = [];
  for (const group of body.tools ?? []) {
    for (const f of group.functionDeclarations ?? []) tools.push({ name: f.name, definition: f });
  }
  const system = textOf((body.systemInstruction?.parts ?? []).map((p) => p.text ?? ''));
  return { prompt, history, tools, system };
}

// ---------------------------------------------------------------------------------------------
// Choosing the answer
// ---------------------------------------------------------------------------------------------

function decide(decoded, text) {
  const lomiTools = new Map();
  for (const t of decoded.tools) {
    const n = lomiName(t.name);
    if (n && (!lomiTools.has(n) || t.name.length < lomiTools.get(n).name.length)) lomiTools.set(n, t);
  }
  // tools a CLI lists by name only (Claude Code's deferred MCP tools, loaded through its ToolSearch)
  const deferred = new Map();
  for (const m of text.matchAll(/\bmcp__[A-Za-z0-9_-]+?__(lomi_[a-z0-9_]+)\b/g)) if (!deferred.has(m[1])) deferred.set(m[1], m[0]);
  const search = decoded.tools.find((t) => t.name === 'ToolSearch');
  if (lomiTools.size === 0 && (deferred.size === 0 || !search)) return { role: 'side', step: { text: 'OK' } };
  const task = /lomi-task:([a-z]+)/.exec(decoded.prompt)?.[1] ?? DEFAULT_TASK;
  const script = TASKS[task];
  if (!script) return { role: 'task', task, step: { text: `unknown task ${task}` } };
  const searched = decoded.history.some((h) => h.raw === 'ToolSearch');
  const missing = NEEDS[task].filter((n) => !lomiTools.has(n) && deferred.has(n));
  if (missing.length > 0 && search && !searched) {
    return { role: 'task', task, step: { call: 'ToolSearch', name: 'ToolSearch', args: { query: 'select:' + missing.map((n) => deferred.get(n)).join(','), max_results: missing.length } } };
  }
  const history = decoded.history.filter((h) => h.tool);
  const file = /lomi-file:([A-Za-z0-9._/-]+)/.exec(decoded.prompt)?.[1];
  const step = script(history, { file });
  if (step.call) {
    const offered = lomiTools.get(step.call);
    const name = offered?.name ?? deferred.get(step.call);
    if (!name) return { role: 'task', task, step: { text: `the tool ${step.call} was not offered to me` } };
    return { role: 'task', task, step: { ...step, name, namespace: offered?.namespace } };
  }
  return { role: 'task', task, step };
}

/** A value that satisfies a JSON schema as far as a side request needs (first enum value, required fields). */
function fromSchema(schema) {
  if (!schema || typeof schema !== 'object') return 'OK';
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (String(type ?? '').toLowerCase()) {
    case 'object': {
      const out = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fromSchema(v);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return 'user';
  }
}

// ---------------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------------

const sse = (event, data) => (event ? `event: ${event}\n` : '') + `data: ${JSON.stringify(data)}\n\n`;
const id = (prefix) => `${prefix}_${Date.now().toString(36)}${(seq).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function anthropicAnswer(step, body, res) {
  const msgId = id('msg');
  const content = step.call
    ? [{ type: 'tool_use', id: id('toolu'), name: step.name, input: step.args }]
    : [{ type: 'text', text: step.text }];
  const stopReason = step.call ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100, output_tokens: 20 };
  if (!body.stream) {
    json(res, { id: msgId, type: 'message', role: 'assistant', model: body.model ?? MODEL, content, stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }
  sseHead(res);
  let out = sse('message_start', { type: 'message_start', message: { id: msgId, type: 'message', role: 'assistant', model: body.model ?? MODEL,
    content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } } });
  const block = content[0];
  if (block.type === 'tool_use') {
    out += sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } });
    out += sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
  } else {
    out += sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    out += sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: block.text } });
  }
  out += sse('content_block_stop', { type: 'content_block_stop', index: 0 });
  out += sse('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
  out += sse('message_stop', { type: 'message_stop' });
  res.end(out);
}

function responsesAnswer(step, body, res) {
  const respId = id('resp');
  const item = step.call
    ? { type: 'function_call', id: id('fc'), call_id: id('call'), name: step.name, ...(step.namespace ? { namespace: step.namespace } : {}),
        arguments: JSON.stringify(step.args), status: 'completed' }
    : { type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
  const base = { id: respId, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model ?? MODEL };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 120 };
  if (!body.stream) {
    json(res, { ...base, status: 'completed', output: [item], usage });
    return;
  }
  sseHead(res);
  let out = sse('response.created', { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } });
  const added = item.type === 'function_call' ? { ...item, arguments: '', status: 'in_progress' } : { ...item, content: [], status: 'in_progress' };
  out += sse('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: added });
  if (item.type === 'function_call') {
    out += sse('response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', item_id: item.id, output_index: 0, delta: item.arguments });
    out += sse('response.function_call_arguments.done', { type: 'response.function_call_arguments.done', item_id: item.id, output_index: 0, arguments: item.arguments });
  } else {
    out += sse('response.content_part.added', { type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    out += sse('response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: step.text });
    out += sse('response.output_text.done', { type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text: step.text });
    out += sse('response.content_part.done', { type: 'response.content_part.done', item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] });
  }
  out += sse('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  out += sse('response.completed', { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } });
  res.end(out);
}

function geminiAnswer(step, body, res, stream) {
  const part = step.call ? { functionCall: { name: step.name, args: step.args } } : { text: step.text };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: MODEL,
    responseId: id('gem'),
  };
  if (!stream) {
    json(res, answer);
    return;
  }
  sseHead(res);
  res.end(sse(null, answer));
}

function sseHead(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function json(res, value, status = 200) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

/** Every string in a JSON value (where a CLI lists deferred tools by name). */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

function record(entry) {
  appendFileSync(RECORD, JSON.stringify(entry) + '\n');
}

/**
 * The tool definitions a request carried: count and compact-JSON bytes of all of them and of the
 * lomi ones (a namespace counts whole, its description included, towards the lomi bytes when it
 * holds lomi tools).
 */
function toolFigures(api, body) {
  let units;
  if (api === 'gemini') units = (body.tools ?? []).flatMap((g) => (g.functionDeclarations ?? []).map((f) => ({ names: [f.name], definition: f })));
  else units = (body.tools ?? []).map((t) => ({ names: t.type === 'namespace' ? (t.tools ?? []).map((i) => i.name) : [t.name ?? t.type], definition: t }));
  const bytes = (list) => list.reduce((n, u) => n + Buffer.byteLength(JSON.stringify(u.definition)), 0);
  const lomi = units.filter((u) => u.names.some((n) => lomiName(n)));
  const names = units.flatMap((u) => u.names);
  return { count: names.length, bytes: bytes(units), lomiCount: names.filter((n) => lomiName(n)).length, lomiBytes: bytes(lomi), names };
}

function describe(step) {
  return step.call ? { call: step.call, name: step.name, namespace: step.namespace, args: step.args } : { text: step.text };
}

async function handle(req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const raw = Buffer.concat(chunks);
  const url = new URL(req.url, 'http://127.0.0.1');
  const path = url.pathname;
  let body = {};
  try {
    body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    body = { unparsed: raw.toString('utf8').slice(0, 2000) };
  }
  const entry = { seq: ++seq, at: new Date().toISOString(), method: req.method, path: req.url, bytes: raw.length };

  if (req.method === 'GET' || req.method === 'HEAD') {
    // model listings and health probes: an empty but well-formed answer
    record({ ...entry, api: 'get', role: 'side' });
    if (path.startsWith('/v1beta/models')) return json(res, { models: [] });
    return json(res, { object: 'list', data: [{ id: MODEL, object: 'model', created: 0, owned_by: 'lomi' }], models: [] });
  }

  if (path.endsWith('/count_tokens')) {
    record({ ...entry, api: 'anthropic', role: 'count_tokens', tools: toolFigures('anthropic', body), body });
    return json(res, { input_tokens: Math.ceil(raw.length / 4) });
  }
  if (/:countTokens$/.test(path)) {
    record({ ...entry, api: 'gemini', role: 'count_tokens', body });
    return json(res, { totalTokens: Math.ceil(raw.length / 4) });
  }

  let api;
  let decoded;
  if (/\/v1\/messages$/.test(path)) {
    api = 'anthropic';
    decoded = decodeAnthropic(body);
  } else if (/\/responses$/.test(path)) {
    api = 'openai-responses';
    decoded = decodeResponses(body);
  } else if (/:(stream)?[gG]enerateContent$/.test(path)) {
    api = 'gemini';
    decoded = decodeGemini(body);
  } else {
    record({ ...entry, api: 'unknown', role: 'unknown', body });
    return json(res, { error: { type: 'not_found', message: `scripted-model: no route ${req.method} ${path}` } }, 404);
  }

  let { role, task, step } = decide(decoded, strings(body).join('\n'));
  if (role === 'side' && api === 'gemini' && body.generationConfig?.responseMimeType === 'application/json') {
    const schema = body.generationConfig.responseJsonSchema ?? body.generationConfig.responseSchema;
    step = { text: JSON.stringify(fromSchema(schema)) };
  }
  record({ ...entry, api, role, task, tools: toolFigures(api, body), history: decoded.history.map((h) => h.tool), answer: describe(step), body });
  if (step.thinkMs) await new Promise((r) => setTimeout(r, step.thinkMs));
  if (api === 'anthropic') anthropicAnswer(step, body, res);
  else if (api === 'openai-responses') responsesAnswer(step, body, res);
  else geminiAnswer(step, body, res, /:streamGenerateContent$/.test(path));
}

const server = createServer((req, res) => {
  handle(req, res).catch((e) => {
    process.stderr.write(`scripted-model: ${e.stack}\n`);
    if (!res.headersSent) json(res, { error: { type: 'scripted_model_error', message: String(e) } }, 500);
    else res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});
