// The 2026-07-28-era client (@modelcontextprotocol/client 2.x): probes server/discover first.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { helperCommand, scenario } from './common.mjs';

const { command, args } = helperCommand();
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'interop-client-2', version: '1.0.0' });
await client.connect(transport);
const summary = await scenario('client2', async () => (await client.listTools()).tools,
  (name, args) => client.callTool({ name, arguments: args }));
summary.negotiated = client.getNegotiatedProtocolVersion?.() ?? null;
summary.server = client.getServerVersion?.() ?? null;
console.log('RESULT ' + JSON.stringify(summary));
await client.close();
