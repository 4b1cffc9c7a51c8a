/**
 * A tiny OpenAI-compatible server on a loopback port 0, for the brain and recogniser tests.
 * Each test sets `handler` to answer; `requests` records what arrived (path, headers, body).
 * `sseChat` answers chat completions the way real servers stream them: one `data:` event
 * per token, a final chunk with `finish_reason` and `usage`, then `data: [DONE]`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type StubHandler = (req: StubRequest, res: ServerResponse) => void | Promise<void>;

export interface OpenAIStub {
  url: string;
  requests: StubRequest[];
  handler: StubHandler;
  close(): Promise<void>;
}

export async function startOpenAIStub(): Promise<OpenAIStub> {
  const stub = { requests: [] as StubRequest[], handler: (() => {}) as StubHandler } as OpenAIStub;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      stub.requests.push(r);
      Promise.resolve(stub.handler(r, res)).catch((e) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  stub.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return stub;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Streams `tokens` as chat.completion.chunk events; `hold` pauses after token `hold.after`. */
export async function sseChat(
  res: ServerResponse,
  tokens: string[],
  opts: {
    finish?: string;
    usage?: { prompt_tokens: number; completion_tokens: number };
    hold?: { after: number; until: Promise<void> };
  } = {},
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  for (let i = 0; i < tokens.length; i++) {
    send({
      id: 'c1',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: tokens[i] }, finish_reason: null }],
    });
    if (opts.hold && i + 1 === opts.hold.after) await opts.hold.until;
  }
  send({
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: opts.finish ?? 'stop' }],
  });
  if (opts.usage)
    send({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: opts.usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Splits text into word-sized tokens the way a model streams (leading spaces kept). */
export const tokenize = (text: string): string[] => text.match(/\s*\S+/g) ?? [];

/** A chat completion whose one choice calls `name` with `args` (what a model answers when it picks a tool). */
export function toolCallCompletion(name: string, args: Record<string, unknown>) {
  return {
    choices: [
      {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name, arguments: JSON.stringify(args) } },
          ],
        },
      },
    ],
  };
}
