// The official TypeScript SDK serving one trivial tool, stateless Streamable HTTP with JSON
// responses (the SDK's documented stateless pattern: a server and transport per request).
// usage: node mcp_ts_server.mjs PORT   (run from a folder where @modelcontextprotocol/sdk is installed)
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const port = Number(process.argv[2] ?? 3100);
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    const server = new McpServer({ name: 'ts-bench', version: '1.0.0' });
    server.registerTool('test_simple_text', { description: 'Returns a simple text response' }, async () => ({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }]
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, JSON.parse(body));
  });
}).listen(port, '127.0.0.1');
