import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HookRequest {
  headers: IncomingMessage['headers'];
  body: Record<string, any>;
}

export type HookAnswer = { status?: number; json?: unknown } | 'hang' | 'drop';

/**
 * A real local tenant hook on 127.0.0.1 port 0 for gateway tests: records every op; tool
 * calls are answered by `answer` (default: a `tool` result naming the tool and args);
 * 'hang' never answers, 'drop' destroys the connection (a transport failure).
 */
export async function startHookServer() {
  const requests: HookRequest[] = [];
  const queue: HookAnswer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      requests.push({ headers: req.headers, body });
      const a: HookAnswer =
        body.op === 'tool_call'
          ? (queue.shift() ?? {
              json: {
                ok: true,
                status: 'done',
                result: { kind: 'tool', text: `${body.tool} says ${JSON.stringify(body.args)}` },
              },
            })
          : { json: body.op === 'session_start' ? { ok: true, turn_seq_base: 100 } : { ok: true } };
      if (a === 'hang') return;
      if (a === 'drop') return void req.socket.destroy();
      res
        .writeHead(a.status ?? 200, { 'content-type': 'application/json' })
        .end(JSON.stringify(a.json ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    /** Answer the next tool calls with these, in order. */
    next(...answers: HookAnswer[]) {
      queue.push(...answers);
    },
    /** Forget answers not used yet. */
    clear() {
      queue.length = 0;
    },
    ops: (op: string) => requests.filter((r) => r.body.op === op),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The inline tool the tool tests mint sessions with (the hook answers it), plus `extra`. */
export function checkStockTool<T extends Record<string, unknown>>(extra: T = {} as T) {
  return {
    name: 'check_stock',
    description: 'Check whether an item is in stock',
    input_schema: { type: 'object', properties: { item: { type: 'string' } } },
    ...extra,
  };
}
