// The scripted tasks of bench/context.sh. A task is a function of the tool results so far
// ([{name, input, text, isError}], oldest first) that answers the next step: {tools:[{name, input}]}
// (one turn; several tools = parallel calls, as a model sends independent calls together) or
// {text} (the final answer). Arguments come from the results it read, never from constants it
// could not know.

export const COMMANDS = ['echo lomi-$((6*7))', 'uname -s'];

/** The data of a lomi-control envelope in a tool result's text (the operation's result for OP tools). */
function lomi(exchange) {
  const envelope = JSON.parse(exchange.text);
  if (envelope.status !== 'ok' || envelope.data?.state === 'failed') throw new Error(`${exchange.name} failed: ${exchange.text.slice(0, 400)}`);
  return envelope.data;
}

const key = (n) => `bench-${process.pid}-${n}`;

/**
 * The connection a lomi task starts with: lomi_connect without a workspace (the session has one),
 * which answers the workspace, the retryEpoch and the layout's domainRevision.
 */
function connected(done) {
  const connect = done.find((d) => d.name === 'lomi_connect');
  if (!connect) return { next: { tools: [{ name: 'lomi_connect', input: {} }] } };
  const data = lomi(connect);
  return { workspaceId: data.workspaceId, retryEpoch: data.retryEpoch, revision: data.domainRevision };
}

/**
 * Seed 000's terminal flow: two commands in a sandboxed terminal, then their output. The first
 * command rides on lomi_terminal_create (its result.run), the second is a lomi_terminal_run.
 */
function lomiTerminal(done) {
  const last = done[done.length - 1];
  if (last && last.isError) return { text: `failed: ${last.text.slice(0, 300)}` };
  const by = (name) => done.filter((d) => d.name === name);
  const connection = connected(done);
  if (connection.next) return connection.next;
  const { workspaceId, retryEpoch } = connection;
  if (by('lomi_terminal_create').length === 0) {
    return { tools: [{ name: 'lomi_terminal_create', input: { workspaceId, expectedRevision: connection.revision,
      command: COMMANDS[0], retryEpoch, requestKey: key('create'), waitMs: 20000 } }] };
  }
  const terminal = lomi(by('lomi_terminal_create')[0]).result;
  const outputs = [terminal.run.output.text];
  const runs = by('lomi_terminal_run');
  if (runs.length < COMMANDS.length - 1) {
    return { tools: [{ name: 'lomi_terminal_run', input: { workspaceId, panelId: terminal.panelId,
      terminalSessionId: terminal.terminalSessionId, leaseId: terminal.leaseId, command: COMMANDS[runs.length + 1],
      retryEpoch, requestKey: key(`run-${runs.length}`), waitMs: 20000 } }] };
  }
  return { text: outputs.concat(runs.map((r) => lomi(r).result.output.text)).map((t) => t.trim()).join('\n') };
}

/** The same two commands with Desktop Commander: independent, so both in one turn. */
function dcTerminal(done) {
  if (done.length === 0) {
    return { tools: COMMANDS.map((command) => ({ name: 'start_process', input: { command, timeout_ms: 10000 } })) };
  }
  return { text: done.map((d) => d.text.trim()).join('\n') };
}

export const PAGE_BUTTON = 'Count';

/** The ref of the button named PAGE_BUTTON in an aria snapshot (Playwright's `[ref=e2]`, ours `ref`). */
function playwrightRef(text) {
  const match = text.match(new RegExp(`button "${PAGE_BUTTON}" \\[ref=(e\\d+)\\]`));
  if (!match) throw new Error(`no ${PAGE_BUTTON} button in ${text.slice(0, 500)}`);
  return match[1];
}

function pwBrowser(url) {
  return (done) => {
    const names = done.map((d) => d.name);
    if (names.length === 0) return { tools: [{ name: 'browser_navigate', input: { url } }] };
    if (names.length === 1) return { tools: [{ name: 'browser_snapshot', input: {} }] };
    if (names.length === 2) {
      return { tools: [{ name: 'browser_click', input: { element: `${PAGE_BUTTON} button`, target: playwrightRef(done[1].text) } }] };
    }
    if (names.length === 3) return { tools: [{ name: 'browser_snapshot', input: {} }] };
    return { text: done[3].text.includes('clicked 1') ? 'clicked 1' : `not seen: ${done[3].text.slice(0, 200)}` };
  };
}

/**
 * The browser task step by step (open, snapshot, click, snapshot) or, with `answers`, using what
 * each answer already carries (lomi's operations answer the page after them in result.snapshot;
 * @playwright/mcp's navigate and click answer a page snapshot): open, click, read the click's answer.
 */
function lomiBrowser(url, answers) {
  return (done) => {
    const last = done[done.length - 1];
    if (last && last.isError) return { text: `failed: ${last.text.slice(0, 300)}` };
    const by = (name) => done.filter((d) => d.name === name);
    const connection = connected(done);
    if (connection.next) return connection.next;
    const { workspaceId, retryEpoch } = connection;
    if (by('lomi_browser_open').length === 0) {
      return { tools: [{ name: 'lomi_browser_open', input: { workspaceId, url, expectedRevision: connection.revision,
        retryEpoch, requestKey: key('open'), waitMs: 20000 } }] };
    }
    const page = lomi(by('lomi_browser_open')[0]).result;
    const target = { workspaceId, panelId: page.panelId, browserGeneration: page.browserGeneration };
    const snapshots = by('lomi_browser_snapshot');
    if (!answers && snapshots.length === 0) return { tools: [{ name: 'lomi_browser_snapshot', input: { ...target } }] };
    if (by('lomi_browser_click').length === 0) {
      const snapshot = answers ? page.snapshot : lomi(snapshots[0]);
      const button = findNode(snapshot, (n) => n.role === 'button' && n.name === PAGE_BUTTON);
      return { tools: [{ name: 'lomi_browser_click', input: { ...target, navigationId: snapshot.navigationId,
        snapshotId: snapshot.snapshotId, elementRef: button.elementRef, leaseId: page.leaseId, retryEpoch,
        requestKey: key('click'), waitMs: 20000 } }] };
    }
    if (!answers && snapshots.length === 1) return { tools: [{ name: 'lomi_browser_snapshot', input: { ...target } }] };
    const after = answers ? JSON.stringify(lomi(by('lomi_browser_click')[0]).result.snapshot) : snapshots[1].text;
    return { text: after.includes('clicked 1') ? 'clicked 1' : `not seen: ${after.slice(0, 200)}` };
  };
}

/** As a model would: a snapshot call only when the previous answer did not show the page inline. */
function pwBrowserAnswers(url) {
  return (done) => {
    if (done.length === 0) return { tools: [{ name: 'browser_navigate', input: { url } }] };
    const clicked = done.findIndex((d) => d.name === 'browser_click');
    if (clicked < 0) {
      const shown = done.findLast((d) => new RegExp(`button "${PAGE_BUTTON}" \\[ref=`).test(d.text));
      if (!shown) return { tools: [{ name: 'browser_snapshot', input: {} }] };
      return { tools: [{ name: 'browser_click', input: { element: `${PAGE_BUTTON} button`, target: playwrightRef(shown.text) } }] };
    }
    const after = done.slice(clicked).find((d) => d.text.includes('clicked 1'));
    if (after) return { text: 'clicked 1' };
    if (done.length - clicked === 1) return { tools: [{ name: 'browser_snapshot', input: {} }] };
    return { text: `not seen: ${done[done.length - 1].text.slice(0, 200)}` };
  };
}

/** The first element of a lomi snapshot that fits. */
function findNode(snapshot, fits) {
  const found = (snapshot.elements || []).find(fits);
  if (!found) throw new Error(`no such element in ${JSON.stringify(snapshot).slice(0, 500)}`);
  return found;
}

const url = process.env.BENCH_PAGE_URL || 'http://127.0.0.1:1/';
export const tasks = {
  'lomi-terminal': lomiTerminal,
  'dc-terminal': dcTerminal,
  'pw-browser': pwBrowser(url),
  'lomi-browser': lomiBrowser(url, false),
  'pw-browser-answers': pwBrowserAnswers(url),
  'lomi-browser-answers': lomiBrowser(url, true),
};
