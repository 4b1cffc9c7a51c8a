/**
 * `avatar doctor`'s probes: read-only GETs of every operation the contract declares (path
 * parameters filled from the list one level up), and with `--live` one session per wire
 * protocol, every frame judged (checks.ts). Nothing here writes, except `--live`'s
 * sessions, each released on every path.
 */
import WebSocket from 'ws';
import { ApiResponseError, type AvatarClient } from '../../client/client.js';
import { allOperations } from '../../contract/operations/index.js';
import { edgeChat } from '../../contract/operations/boxes.js';
import { mintSession, releaseSession } from '../../contract/operations/sessions.js';
import {
  edgeSockets,
  V2_SUBPROTOCOL,
  type EdgeMessageName,
  type EdgeSocket,
} from '../../contract/edge/messages.js';
import { edgeHttpUrl, edgeSocketUrl } from '../../contract/edge/url.js';
import { fillPath, pathParamNames, type AnyOperation } from '../../contract/operation.js';
import type { CliContext } from '../context.js';
import { mintLive, type Minted } from '../live/mint.js';
import {
  documentedStatuses,
  firstMismatch,
  judgeAnswer,
  judgeFrame,
  type Answer,
  type CheckRow,
} from './checks.js';

/** The families a key's GETs are probed in; the others get one skip row each. */
const SKIPPED_FAMILIES = {
  internal: 'the box API (/_internal/*): box credentials only, not a key',
  edge: "served by an edge box (/health, /_box/*): --live checks the edge's sockets",
} as const;

/** The first id of the first list in a list answer (`data`, `avatars`, ... or the body itself). */
function firstId(body: unknown): string | undefined {
  const lists = Array.isArray(body)
    ? [body]
    : body && typeof body === 'object'
      ? Object.values(body).filter(Array.isArray)
      : [];
  for (const l of lists) {
    const id = (l[0] as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return undefined;
}

const isNetwork = (e: unknown) => {
  const x = e as { code?: string; cause?: { code?: string } };
  return /^(E[A-Z]+|UND_ERR.*)$/.test(x?.code ?? x?.cause?.code ?? '');
};

/** The order of probes: the documents, the public routes, then by path depth (lists first). */
function order(ops: readonly AnyOperation[]): AnyOperation[] {
  const first = ['openapi.get', 'asyncapi.get', 'gallery.list', 'jwks.get'];
  const rank = (op: AnyOperation) =>
    first.includes(op.id) ? first.indexOf(op.id) - first.length : pathParamNames(op.path).length;
  return [...ops].sort((a, b) => rank(a) - rank(b));
}

export interface HttpProbeResult {
  rows: CheckRow[];
  /** The first stock persona of the gallery (what `--live` talks to). */
  persona?: string;
  /** Every keyed probe answered 401: the key (or its absence) was refused. */
  keyRefused: boolean;
  /** The public routes every deployment serves (gallery, JWKS) both answered 404: a wrong URL. */
  notTheService: boolean;
}

/**
 * Every GET of the contract the key may call, judged. `workspaceId` fills an optional
 * `workspace_id` query (a key bound to no workspace needs it).
 */
export async function probeHttp(
  client: AvatarClient,
  opts: { workspaceId?: string; ops?: readonly AnyOperation[] } = {},
): Promise<HttpProbeResult> {
  const rows: CheckRow[] = [];
  const lists = new Map<string, unknown>();
  const gets = (opts.ops ?? allOperations).filter((o) => o.method === 'get');
  const documented = documentedStatuses(gets);
  const send = async (op: AnyOperation, path: string, query?: Record<string, string>) => {
    try {
      const res = await client.raw(op.method.toUpperCase(), path, { query });
      return { status: res.status, headers: res.headers, body: res.body } as Answer;
    } catch (e) {
      if (isNetwork(e)) throw e;
      return e as Error;
    }
  };
  const push = (op: AnyOperation, row: Omit<CheckRow, 'check'>) =>
    rows.push({ check: op.id, ...row });
  for (const [family, why] of Object.entries(SKIPPED_FAMILIES)) {
    const n = gets.filter((o) => o.family === family).length;
    if (n) rows.push({ check: `${family} (${n} GETs)`, result: 'skip', detail: `skipped: ${why}` });
  }
  // Operator routes (/_emulator/*): only an emulator has them, only its operator credential opens them.
  let operator: string | undefined = 'not an emulator (no /_emulator/clock)';
  const clock = gets.find((o) => o.id === 'emulator.clock');
  if (clock) {
    const a = await send(clock, clock.path);
    if (!(a instanceof Error)) {
      if (a.status === 401 || a.status === 403)
        operator = `the key is not this emulator's operator credential (${a.status})`;
      else if (a.status !== 404) operator = undefined;
    }
  }
  const operatorOps = gets.filter((o) => o.family === 'operator');
  if (operator && operatorOps.length)
    rows.push({
      check: `operator (${operatorOps.length} GETs)`,
      result: 'skip',
      detail: `skipped: ${operator}`,
    });
  let keyed = 0;
  let refused = 0;
  let persona: string | undefined;
  const publicStatus = new Map<string, number>();
  for (const op of order(gets)) {
    const family = op.family ?? 'control';
    if (family in SKIPPED_FAMILIES || (family === 'operator' && operator)) continue;
    // Path parameters: the first item of the list one level up (`/avatars` for `{avatarId}`).
    const params: Record<string, string> = {};
    let missing: string | undefined;
    for (const name of pathParamNames(op.path)) {
      const template = op.path.slice(0, op.path.indexOf(`/{${name}}`));
      let listPath: string;
      try {
        listPath = fillPath(template, params);
      } catch {
        missing = `needs {${name}}`;
        break;
      }
      const id = lists.has(listPath) ? firstId(lists.get(listPath)) : undefined;
      if (id === undefined) {
        missing = lists.has(listPath)
          ? `needs {${name}}: ${template} listed none`
          : `needs {${name}}: no list at ${template} to take it from`;
        break;
      }
      params[name] = id;
    }
    if (missing) {
      push(op, { method: 'GET', path: op.path, result: 'skip', detail: `skipped: ${missing}` });
      continue;
    }
    const query: Record<string, string> = {};
    const shape = (op.query?.shape ?? {}) as Record<string, unknown>;
    if (opts.workspaceId && 'workspace_id' in shape) query.workspace_id = opts.workspaceId;
    if (op.query && !op.query.safeParse(query).success) {
      const need = op.query.safeParse(query).error!.issues.map((i) => String(i.path[0]));
      push(op, {
        method: 'GET',
        path: op.path,
        result: 'skip',
        detail: `skipped: needs the query ${[...new Set(need)].join(', ')}`,
      });
      continue;
    }
    const path = fillPath(op.path, params);
    const a = await send(op, path, query);
    if (a instanceof Error) {
      push(op, { method: 'GET', path, result: 'fail', detail: `request failed: ${a.message}` });
      continue;
    }
    if (op.id === 'gallery.list' || op.id === 'jwks.get') publicStatus.set(op.id, a.status);
    if (op.auth !== 'public') {
      keyed++;
      if (a.status === 401) refused++;
    }
    const row = judgeAnswer(op, a, documented.get(op.id));
    if ((op.id === 'openapi.get' || op.id === 'asyncapi.get') && a.status === 404) {
      push(op, {
        ...row,
        path,
        result: 'skip',
        detail: 'skipped: not served here (404)',
        mismatch: undefined,
      });
      continue;
    }
    push(op, { ...row, path });
    if (a.status === 200 && a.body && typeof a.body === 'object' && !(a.body instanceof Uint8Array))
      lists.set(path, a.body);
    if (op.id === 'gallery.list' && a.status === 200) persona ??= firstId(a.body);
  }
  return {
    rows,
    persona,
    keyRefused: keyed > 0 && refused === keyed,
    notTheService: publicStatus.size === 2 && [...publicStatus.values()].every((s) => s === 404),
  };
}

/** A frame seen on a socket, in arrival order. */
interface Frame {
  socket: EdgeSocket;
  data: Buffer;
  binary: boolean;
}

/** Judge every frame of one socket: one row, the first mismatch (with its frame number) or the count by message. */
function frameRow(check: string, socket: EdgeSocket, frames: readonly Frame[]): CheckRow {
  const counts = new Map<EdgeMessageName, number>();
  let n = 0;
  for (const f of frames) {
    if (f.socket !== socket) continue;
    n++;
    const v = judgeFrameOf(f);
    if ('mismatch' in v)
      return {
        check,
        path: socket.path,
        result: 'fail',
        detail: `frame ${n} ${v.mismatch.path}: ${v.mismatch.message}`,
        mismatch: { path: v.mismatch.path, message: `frame ${n}: ${v.mismatch.message}` },
      };
    counts.set(v.message, (counts.get(v.message) ?? 0) + 1);
  }
  const seen = [...counts].map(([k, c]) => `${k} ${c}`).join(', ');
  return {
    check,
    path: socket.path,
    result: 'ok',
    detail: n ? `${n} frames match: ${seen}` : 'no frames (nothing to check)',
  };
}

const judgeFrameOf = (f: Frame) => judgeFrame(f.socket, f.data, f.binary);

export interface LiveOptions {
  persona: string;
  say: string;
  /** How long to wait for the typed turn's reply, per protocol. */
  timeoutMs: number;
}

/**
 * One session over `protocol`: mint (through the queue), connect, one typed turn, every
 * frame judged, release (always).
 */
export async function probeLive(
  cli: CliContext,
  client: AvatarClient,
  protocol: 1 | 2,
  o: LiveOptions,
): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const tag = `live v${protocol}`;
  let minted: Minted;
  try {
    minted = await mintLive(cli, client, { persona: o.persona, protocol_versions: [protocol] });
  } catch (e) {
    if (isNetwork(e)) throw e;
    const detail = e instanceof ApiResponseError ? `${e.status} ${e.code}` : (e as Error).message;
    rows.push({ check: `${tag} mint`, result: 'fail', detail: `mint failed: ${detail}` });
    return rows;
  }
  const mintSchema = mintSession.responses[201]?.schema;
  const mm = mintSchema ? firstMismatch(mintSchema, minted) : undefined;
  rows.push({
    check: `${tag} mint`,
    method: 'POST',
    path: mintSession.path,
    status: 201,
    ...(mm
      ? { result: 'fail', detail: `${mm.path}: ${mm.message}`, mismatch: mm }
      : { result: 'ok', detail: `201, session ${minted.session_id}` }),
  });
  const sockets = edgeSockets.filter((s) => s.protocol === protocol);
  const frames: Frame[] = [];
  const open: WebSocket[] = [];
  let chatSent = false;
  try {
    const turned = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no turn for the typed line within ${o.timeoutMs / 1000} s`)),
        o.timeoutMs,
      );
      const done = (e?: Error) => {
        clearTimeout(timer);
        if (e) reject(e);
        else resolve();
      };
      for (const s of sockets) {
        const ws = new WebSocket(
          edgeSocketUrl(minted.connect_url, s.path, minted.session_token),
          s.subprotocol ? [s.subprotocol] : [],
          { origin: cli.globals().origin },
        );
        open.push(ws);
        ws.binaryType = 'nodebuffer';
        ws.on('unexpected-response', (_req, res) =>
          done(new Error(`${s.path}: the upgrade was refused (${res.statusCode})`)),
        );
        ws.on('error', (err) => done(new Error(`${s.path}: ${err.message}`)));
        ws.on('close', (code) => done(new Error(`${s.path} closed (${code}) before the turn`)));
        ws.on('message', (data: Buffer, binary) => {
          frames.push({ socket: s, data, binary });
          if (binary) return;
          try {
            const f = JSON.parse(data.toString('utf8')) as {
              type?: unknown;
              text?: unknown;
              greeting?: unknown;
            };
            // The typed turn, not the greeting (whose user text is empty).
            if (f.type === 'turn' && f.greeting !== true && f.text === o.say) done();
          } catch {
            // judged with the rest
          }
        });
        ws.on('open', () => {
          if (s.path === '/mic_stream') ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
          if (s.subprotocol === V2_SUBPROTOCOL) {
            ws.send(JSON.stringify({ type: 'hello', lang: 'en' }));
            ws.send(JSON.stringify({ type: 'chat', text: o.say }));
          }
          if (protocol === 1 && !chatSent && open.every((w) => w.readyState === WebSocket.OPEN)) {
            chatSent = true;
            void chatV1(minted, o.say, cli.globals().origin).then(
              (row) => {
                rows.push(row);
                if (row.result === 'fail') done(new Error(`POST /chat: ${row.detail}`));
              },
              (err: Error) => done(err),
            );
          }
        });
      }
    });
    try {
      await turned;
      rows.push({ check: `${tag} turn`, result: 'ok', detail: `a turn for "${o.say}" arrived` });
    } catch (e) {
      rows.push({ check: `${tag} turn`, result: 'fail', detail: (e as Error).message });
    }
  } finally {
    for (const ws of open) {
      ws.removeAllListeners('close');
      ws.removeAllListeners('error');
      ws.on('error', () => undefined);
      ws.close(1000, 'doctor done');
    }
    for (const s of sockets) rows.push(frameRow(`${tag} ${s.path}`, s, frames));
    rows.push(await release(client, minted, tag));
  }
  return rows;
}

async function chatV1(minted: Minted, text: string, origin?: string): Promise<CheckRow> {
  const res = await fetch(edgeHttpUrl(minted.connect_url, edgeChat.path, minted.session_token), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ text }),
  });
  const raw = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  let body: unknown = raw.length ? raw : undefined;
  if (raw.length && type.includes('json'))
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = raw.toString('utf8');
    }
  const row = judgeAnswer(edgeChat, {
    status: res.status,
    headers: { 'content-type': type },
    body,
  });
  return { check: 'live v1 POST /chat', path: edgeChat.path, ...row };
}

/** Release with the seat token (spec 4.5); its answer is judged too. */
async function release(client: AvatarClient, minted: Minted, tag: string): Promise<CheckRow> {
  const params = { sessionId: minted.session_id };
  try {
    const a = await client.send(releaseSession, {
      params,
      body: { seat_token: minted.seat_token },
    });
    return {
      check: `${tag} release`,
      path: fillPath(releaseSession.path, params),
      ...judgeAnswer(releaseSession, a),
    };
  } catch (e) {
    return {
      check: `${tag} release`,
      result: 'fail',
      detail: `release failed: ${(e as Error).message}`,
    };
  }
}
