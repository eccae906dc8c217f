// A scripted "model" behind the Anthropic Messages API on 127.0.0.1, for bench/context.sh: it
// answers Claude Code's requests with the next tool call of a fixed task, choosing its arguments
// from the tool results already in the conversation (as a model would), and records the size of
// every request Claude Code sends. Usage: node model.mjs TASK RECORD.jsonl (prints the port).
import http from 'node:http';
import fs from 'node:fs';
import { tasks } from './tasks.mjs';

const [, , taskName, recordFile] = process.argv;
const task = tasks[taskName];
if (!task) {
  console.error(`unknown task ${taskName}; known: ${Object.keys(tasks).join(', ')}`);
  process.exit(2);
}

/** The tool results of a conversation, oldest first: {name, input, text}. */
function exchanges(messages) {
  const calls = new Map();
  const done = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.set(block.id, block);
      if (block.type === 'tool_result') {
        const call = calls.get(block.tool_use_id);
        const text = typeof block.content === 'string'
          ? block.content
          : (block.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
        done.push({ name: call ? call.name.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '') : '?', input: call?.input, text, isError: !!block.is_error });
      }
    }
  }
  return done;
}

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

let counter = 0;
function reply(res, stream, blocks) {
  const id = `msg_${++counter}`;
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model: 'scripted', content: blocks,
      stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }));
    return;
  }
  const events = [['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant',
    model: 'scripted', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }]];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  sse(res, events);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    if (req.method !== 'POST' || !req.url.startsWith('/v1/messages')) {
      res.writeHead(404).end();
      return;
    }
    if (req.url.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 1 }));
      return;
    }
    const body = JSON.parse(raw.toString('utf8'));
    const tools = body.tools || [];
    const toolBytes = (filter) => tools.filter(filter).reduce((n, t) => n + Buffer.byteLength(JSON.stringify(
      { name: t.name, description: t.description, input_schema: t.input_schema })), 0);
    const mcpPrefix = (t) => t.name.startsWith('mcp__');
    // Claude Code's side requests (titles, quota probes) carry no tools: answered with plain text.
    const main = tools.length > 0;
    let blocks;
    let step = null;
    if (main) {
      const prefix = (tools.find(mcpPrefix)?.name.match(/^mcp__.+?__/) || ['mcp__x__'])[0];
      let next;
      try {
        next = task(exchanges(body.messages || []));
      } catch (e) {
        next = { text: `script error: ${e.message}` };
      }
      step = next.tools ? next.tools.map((t) => t.name).join('+') : 'final';
      blocks = next.tools
        ? next.tools.map((t, i) => ({ type: 'tool_use', id: `toolu_${counter + 1}_${i}`, name: prefix + t.name, input: t.input }))
        : [{ type: 'text', text: next.text }];
    } else {
      blocks = [{ type: 'text', text: 'ok' }];
    }
    if (process.env.BENCH_DUMP) fs.writeFileSync(`${process.env.BENCH_DUMP}-${counter}.json`, raw);
    fs.appendFileSync(recordFile, JSON.stringify({ main, step, requestBytes: raw.length, tools: tools.length,
      mcpTools: tools.filter(mcpPrefix).length, mcpToolBytes: toolBytes(mcpPrefix), otherToolBytes: toolBytes((t) => !mcpPrefix(t)),
      messages: (body.messages || []).length }) + '\n');
    reply(res, body.stream === true, blocks);
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
