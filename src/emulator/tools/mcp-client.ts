/**
 * The control plane's MCP client (spec 4.11, 6.2 step 3): the official MCP TypeScript SDK
 * over streamable HTTP. A probe is `initialize` then `tools/list`; a call is `tools/call`
 * with the session's `_meta` (`svc/conv`, `svc/sid`, `svc/history`). Each use opens its
 * own connection and closes it: calls are rare (at most one per turn, 20 s apart).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface McpAuth {
  kind: 'none' | 'bearer' | 'header';
  secret?: string;
  header?: string;
}

export interface McpToolDef {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** Longest a probe may take (ours). */
export const PROBE_TIMEOUT_MS = 10_000;

function authHeaders(auth: McpAuth): Record<string, string> {
  if (auth.kind === 'bearer' && auth.secret) return { authorization: `Bearer ${auth.secret}` };
  if (auth.kind === 'header' && auth.secret && auth.header) return { [auth.header]: auth.secret };
  return {};
}

async function withClient<T>(
  url: string,
  auth: McpAuth,
  signal: AbortSignal | undefined,
  fn: (c: Client) => Promise<T>,
): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: authHeaders(auth), ...(signal ? { signal } : {}) },
  });
  const client = new Client({ name: 'avatar-emulator', version: '1' });
  try {
    await client.connect(transport, { ...(signal ? { signal } : {}), timeout: PROBE_TIMEOUT_MS });
    return await fn(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** One line for `last_error` (first 300 chars). */
export function errorLine(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const msg = e?.message ?? String(err);
  const cause = e?.cause?.code ?? e?.cause?.message;
  return (cause && !msg.includes(cause) ? `${msg} (${cause})` : msg).slice(0, 300);
}

/** initialize + tools/list (every page). Rejects with the SDK's or the network's error. */
export async function probeMcp(
  url: string,
  auth: McpAuth,
  signal?: AbortSignal,
): Promise<McpToolDef[]> {
  return withClient(url, auth, signal, async (c) => {
    const out: McpToolDef[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await c.listTools(cursor ? { cursor } : undefined, {
        ...(signal ? { signal } : {}),
        timeout: PROBE_TIMEOUT_MS,
      });
      for (const t of r.tools) {
        out.push({
          name: t.name,
          description: (t.description ?? '').slice(0, 300),
          input_schema: t.inputSchema as Record<string, unknown>,
        });
      }
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return out;
  });
}

export interface McpCallResult {
  isError: boolean;
  text: string;
  structured?: unknown;
}

/** tools/call with `_meta`; `signal` carries the per-tool timeout (on the injected clock). */
export async function callMcpTool(
  url: string,
  auth: McpAuth,
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown>,
  signal: AbortSignal,
): Promise<McpCallResult> {
  return withClient(url, auth, signal, async (c) => {
    const r = (await c.callTool({ name, arguments: args, _meta: meta }, undefined, {
      signal,
      timeout: 60_000,
    })) as {
      isError?: boolean;
      content?: { type: string; text?: string }[];
      structuredContent?: unknown;
    };
    const text = (r.content ?? [])
      .filter((p) => p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text)
      .join('\n');
    return {
      isError: r.isError === true,
      text,
      ...(r.structuredContent !== undefined ? { structured: r.structuredContent } : {}),
    };
  });
}
