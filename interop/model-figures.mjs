// What the requests of scripted-model.mjs records cost: one line per record file (requests, side
// requests, total request bytes, the first task request's bytes and tool-definition bytes, how many
// of its tools are lomi's and their bytes, the largest lomi tool set any request carried, the calls).
// Usage: node model-figures.mjs RECORD.jsonl... [--json]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const rows = args.filter((a) => a !== '--json').map((file) => figures(file));
if (asJson) {
  process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
} else {
  for (const r of rows) {
    process.stdout.write(`${r.record}: ${r.requests} requests (${r.sideRequests} side), ${r.totalBytes} bytes; first: ${r.first.bytes} bytes, `
      + `${r.first.tools} tools in ${r.first.toolBytes} bytes, ${r.first.lomiTools} lomi in ${r.first.lomiToolBytes}; `
      + `at most ${r.maxLomiTools} lomi tools (${r.maxLomiToolBytes} bytes); calls ${r.calls.join(' ')}\n`);
  }
}

function figures(file) {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const task = lines.filter((l) => l.role === 'task');
  const first = task[0] ?? { bytes: 0, tools: {} };
  const widest = task.reduce((w, l) => ((l.tools?.lomiCount ?? 0) > (w.tools?.lomiCount ?? 0) ? l : w), first);
  return {
    record: basename(file),
    requests: lines.length,
    sideRequests: lines.length - task.length,
    totalBytes: lines.reduce((n, l) => n + l.bytes, 0),
    first: {
      bytes: first.bytes,
      tools: first.tools?.count ?? 0,
      toolBytes: first.tools?.bytes ?? 0,
      lomiTools: first.tools?.lomiCount ?? 0,
      lomiToolBytes: first.tools?.lomiBytes ?? 0,
    },
    maxLomiTools: widest.tools?.lomiCount ?? 0,
    maxLomiToolBytes: widest.tools?.lomiBytes ?? 0,
    calls: lines.filter((l) => l.answer?.call).map((l) => l.answer.call),
  };
}
