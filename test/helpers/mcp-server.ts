import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpCall {
  name: string;
  args: Record<string, unknown>;
  meta: Record<string, unknown> | undefined;
  headers: IncomingMessage['headers'];
}

/**
 * A real MCP server built with the SDK's server side (McpServer + streamable HTTP, stateless:
 * a server and transport per request, as the SDK's stateless example does) on 127.0.0.1
 * port 0. Tools: `get_weather` (city), `lookup_order` (order_id). `requireBearer` refuses
 * requests without it (401); `failWith(status)` answers every request with that status;
 * `hang` never answers tools/call.
 */
export async function startMcpServer(
  opts: { requireBearer?: string; header?: [string, string] } = {},
) {
  const calls: McpCall[] = [];
  const state = { failStatus: 0, hang: false, toolError: false };
  const build = (headers: IncomingMessage['headers']) => {
    const server = new McpServer({ name: 'test-mcp', version: '1.0.0' });
    server.registerTool(
      'get_weather',
      {
        description: 'Get the current weather forecast for a city',
        inputSchema: { city: z.string().describe('city name') },
      },
      async ({ city }, extra) => {
        calls.push({
          name: 'get_weather',
          args: { city },
          meta: extra._meta as Record<string, unknown> | undefined,
          headers,
        });
        if (state.hang) await new Promise(() => undefined);
        if (state.toolError)
          return {
            isError: true,
            content: [{ type: 'text' as const, text: `no weather for ${city}` }],
          };
        return { content: [{ type: 'text' as const, text: `Sunny and 21 degrees in ${city}.` }] };
      },
    );
    server.registerTool(
      'lookup_order',
      {
        description: 'Look up the delivery status of an order by its number',
        inputSchema: { order_id: z.string() },
      },
      async ({ order_id }, extra) => {
        calls.push({
          name: 'lookup_order',
          args: { order_id },
          meta: extra._meta as Record<string, unknown> | undefined,
          headers,
        });
        return { content: [{ type: 'text' as const, text: `Order ${order_id} ships tomorrow.` }] };
      },
    );
    return server;
  };
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      (async () => {
        if (state.failStatus) return void res.writeHead(state.failStatus).end('down');
        if (opts.requireBearer && req.headers.authorization !== `Bearer ${opts.requireBearer}`)
          return void res.writeHead(401).end('no');
        if (opts.header && req.headers[opts.header[0].toLowerCase()] !== opts.header[1])
          return void res.writeHead(401).end('no');
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        const server = build(req.headers);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    calls,
    state,
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
