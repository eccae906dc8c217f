// Shared steps of the interop scripts: the scenario every real client runs against lomi-control.
// Usage of each script: node <script> <helper command> [helper args...]
// Protocol with the Java test: "PAIRING <id>" on stdout when approval is needed; "RESULT <json>" at the end.

export function helperCommand() {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    throw new Error('usage: node script.mjs <helper command> [args...]');
  }
  return { command, args };
}

export function structured(result) {
  if (!result || typeof result !== 'object' || !result.structuredContent) {
    throw new Error('no structuredContent in ' + JSON.stringify(result));
  }
  return result.structuredContent;
}

/** Runs the scenario with `call(name, args) -> CallToolResult` and `list() -> tools`. */
export async function scenario(label, list, call) {
  const tools = await list();
  const names = tools.map((t) => t.name);
  for (const required of ['lomi_status', 'lomi_connect', 'lomi_workspace_list', 'lomi_session_attach', 'lomi_events_read']) {
    if (!names.includes(required)) throw new Error(`${label}: tools/list lacks ${required}`);
  }
  const before = structured(await call('lomi_workspace_list', {}));
  const status = await waitFor(label, call, (s) => s.data && s.data.pairingRequestId && s.data.phase === 'pairing_required');
  const early = before.status === 'error' ? before.code : 'ok';
  console.log(`PAIRING ${status.data.pairingRequestId}`);
  await waitFor(label, call, (s) => s.data && s.data.phase === 'connected');
  const list1 = structured(await call('lomi_workspace_list', {}));
  if (list1.status !== 'ok' || list1.data.workspaces.length < 1) throw new Error(`${label}: workspace list ${JSON.stringify(list1)}`);
  const workspaceId = list1.data.workspaces[0].workspaceId;
  const connect = structured(await call('lomi_connect', { workspaceId }));
  if (connect.status !== 'ok' || !connect.data.retryEpoch) throw new Error(`${label}: connect ${JSON.stringify(connect)}`);
  const attach = structured(await call('lomi_session_attach', { externalId: `${label}-thread-1` }));
  if (attach.status !== 'ok') throw new Error(`${label}: attach ${JSON.stringify(attach)}`);
  const events = structured(await call('lomi_events_read', { workspaceId, limit: 10 }));
  if (events.status !== 'ok') throw new Error(`${label}: events ${JSON.stringify(events)}`);
  const chat = await chatScenario(label, call, workspaceId, connect.data.retryEpoch);
  return { tools: names.length, beforePairing: early, workspaceId, retryEpoch: connect.data.retryEpoch, episode: attach.data, events: events.data.events.length, chat };
}

/**
 * The seven chat tools, each answered through the real helper (the client checks every
 * structuredContent against the tool's outputSchema): list, open new, read the draft, draft, export,
 * a send that parks awaiting the admin, and a stop of an unknown request (a typed error).
 */
async function chatScenario(label, call, workspaceId, retryEpoch) {
  const statuses = {};
  const revision = async () => structured(await call('lomi_panel_list', { workspaceId })).data.domainRevision;
  const list = structured(await call('lomi_chat_list', { workspaceId }));
  statuses.list = list.status;
  const opened = structured(await call('lomi_chat_open', { workspaceId, target: { type: 'new' }, expectedRevision: await revision(), retryEpoch,
    requestKey: `${label}-chat-open` }));
  if (opened.status !== 'ok' || opened.data.state !== 'succeeded') throw new Error(`${label}: chat open ${JSON.stringify(opened)}`);
  statuses.open = opened.data.state;
  const { panelId, conversationId } = opened.data.result;
  const draft = structured(await call('lomi_chat_read', { workspaceId, conversationId, part: { type: 'draft' } }));
  statuses.read = draft.status;
  const drafted = structured(await call('lomi_chat_draft', { workspaceId, panelId, conversationId, text: 'hello from ' + label,
    expectedDraftRevision: draft.data.draftRevision, expectedConversationRevision: draft.data.conversation.conversationRevision,
    expectedRevision: await revision(), retryEpoch, requestKey: `${label}-chat-draft` }));
  if (drafted.status !== 'ok' || drafted.data.state !== 'succeeded') throw new Error(`${label}: chat draft ${JSON.stringify(drafted)}`);
  statuses.draft = drafted.data.state;
  const exported = structured(await call('lomi_chat_export', { workspaceId, conversationId, format: 'markdown' }));
  statuses.export = exported.status;
  const sent = structured(await call('lomi_chat_send', { workspaceId, panelId, conversationId, connectionId: 'interop', model: 'interop-model',
    expectedDraftRevision: drafted.data.result.draftRevision, expectedConversationRevision: drafted.data.result.conversationRevision,
    expectedRevision: await revision(), retryEpoch, requestKey: `${label}-chat-send` }));
  statuses.send = sent.status === 'ok' ? sent.data.state : sent.code;
  const stopped = structured(await call('lomi_chat_stop', { workspaceId, conversationId, requestId: 'req-unknown', retryEpoch,
    requestKey: `${label}-chat-stop` }));
  statuses.stop = stopped.status === 'ok' ? stopped.data.state : stopped.code;
  return statuses;
}

async function waitFor(label, call, predicate) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = structured(await call('lomi_status', {}));
    if (predicate(status)) return status;
    if (Date.now() > deadline) throw new Error(`${label}: timed out, last status ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
