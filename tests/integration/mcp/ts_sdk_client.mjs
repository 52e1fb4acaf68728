// Interop client for tests/integration/mcp/interop_test.cpp: the official TypeScript SDK
// (@modelcontextprotocol/sdk, installed by scripts/npm_peers.sh) connects to a tooluse MCP
// server, lists its tools and calls the calculator, printing what it got:
//   tools: calculator,...
//   result: {"content":[...],...}
// usage: node ts_sdk_client.mjs PEERS_DIR stdio COMMAND ARGS...
//        node ts_sdk_client.mjs PEERS_DIR http URL
// The SDK is resolved from PEERS_DIR (this file lives in the source tree, away from node_modules).
import { createRequire } from 'node:module';
import path from 'node:path';

const [peers, mode, target, ...rest] = process.argv.slice(2);
const require = createRequire(path.join(peers, 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const client = new Client({ name: 'tooluse-interop', version: '1.0.0' });
const transport = mode === 'stdio'
  ? new StdioClientTransport({ command: target, args: rest, stderr: 'ignore' })
  : new StreamableHTTPClientTransport(new URL(target));
await client.connect(transport);
console.log('server: ' + client.getServerVersion().name);
const tools = await client.listTools();
console.log('tools: ' + tools.tools.map((t) => t.name).join(','));
const result = await client.callTool({ name: 'calculator', arguments: { expression: '6*7' } });
console.log('result: ' + JSON.stringify(result));
await client.close();
