// The official TypeScript SDK client (1.32.x) against a helper started with a toolset selection:
// lists the tools (the SDK compiles every outputSchema while listing) and calls the given tools.
// Usage: node toolsets-client.mjs '<plan json>' <helper command> [helper args...]
// plan: {"env": {NAME: VALUE} (added to the SDK's default environment of the helper), "calls": [tool names]}.
// Prints "RESULT {"tools": [names], "calls": {name: CallToolResult}}". Needs no broker: listing and
// refusing a tool outside the selection happen in the helper.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

const [planJson, command, ...args] = process.argv.slice(2);
if (!command) {
  throw new Error("usage: node toolsets-client.mjs '<plan json>' <helper command> [args...]");
}
const plan = JSON.parse(planJson);
const transport = new StdioClientTransport({ command, args, env: { ...getDefaultEnvironment(), ...(plan.env ?? {}) }, stderr: 'inherit' });
const client = new Client({ name: 'interop-toolsets', version: '1.0.0' });
await client.connect(transport);
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  tools.push(...page.tools.map((t) => t.name));
  cursor = page.nextCursor;
} while (cursor);
const calls = {};
for (const name of plan.calls ?? []) {
  calls[name] = await client.callTool({ name, arguments: {} });
}
console.log('RESULT ' + JSON.stringify({ tools, calls }));
await client.close();
