// The official TypeScript SDK client 1.32.x (negotiates MCP 2025-11-25 through initialize).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { helperCommand, scenario } from './common.mjs';

const { command, args } = helperCommand();
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'interop-sdk-1.32', version: '1.0.0' });
await client.connect(transport);
const summary = await scenario('sdk', async () => (await client.listTools()).tools,
  (name, args) => client.callTool({ name, arguments: args }));
summary.protocolVersion = transport._protocolVersion ?? client.getServerVersion()?.name;
summary.server = client.getServerVersion();
console.log('RESULT ' + JSON.stringify(summary));
await client.close();
