/**
 * `avatar doctor`'s judgements, with no I/O and no commander: is this HTTP answer, or this
 * edge frame, what the contract declares? Every verdict names the first mismatch with its
 * JSON path (`$.data[0].created_at: expected number, got string`). The schemas are the
 * contract's own (the operation's `responses`, the family's error envelope, the edge
 * messages of `edgeSockets`), so a stricter contract makes a stricter doctor.
 */
import type { z } from 'zod';
import type { AnyOperation, OperationFamily } from '../../contract/operation.js';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import { ErrorBodySchema } from '../../contract/resources/common.js';
import { InferenceErrorSchema } from '../../contract/resources/inference.js';
import {
  edgeMessages,
  TAG_MEDIA,
  type EdgeMessageName,
  type EdgeSocket,
} from '../../contract/edge/messages.js';

export type CheckResult = 'ok' | 'fail' | 'skip';

/** One row of the report (the `--json` shape's `checks[]`, docs/cli.md). */
export interface CheckRow {
  check: string;
  result: CheckResult;
  /** What was seen (ok), why not checked (skip), or the first mismatch (fail). */
  detail: string;
  method?: string;
  /** The path requested (filled), or the socket. */
  path?: string;
  status?: number;
  /** The first mismatch: its JSON path and what is wrong there. */
  mismatch?: { path: string; message: string };
}

/** `$.data[0].created_at` from a zod issue path. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path)
    out +=
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(p))
          ? `.${String(p)}`
          : `[${JSON.stringify(String(p))}]`;
  return out;
}

function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

type Issue = z.core.$ZodIssue;

/** The deepest issue of a union's branches (the branch that came closest), else the issue. */
function innermost(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    for (const i of branch) {
      const deep = innermost({ ...i, path: [...issue.path, ...i.path] } as Issue);
      if (!best || deep.path.length > best.path.length) best = deep;
    }
  }
  return best ?? issue;
}

/** The first place `value` differs from `schema`, or undefined when it conforms. */
export function firstMismatch(
  schema: z.ZodType,
  value: unknown,
): { path: string; message: string } | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  const issue = innermost(r.error.issues[0]!);
  const path = jsonPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const got = at(value, issue.path);
      return {
        path,
        message:
          got === undefined
            ? `missing (expected ${issue.expected})`
            : `expected ${issue.expected}, got ${kindOf(got)}`,
      };
    }
    case 'unrecognized_keys':
      return {
        path: issue.keys.length ? jsonPath([...issue.path, issue.keys[0]!]) : path,
        message: `unexpected field${issue.keys.length > 1 ? `s ${issue.keys.join(', ')}` : ''}`,
      };
    case 'invalid_value':
      return {
        path,
        message: `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${JSON.stringify(at(value, issue.path))}`,
      };
    default:
      return { path, message: issue.message };
  }
}

/** A schema that accepts any object (`JsonObject`): it checks nothing, and the row says so. */
export function isAnyObject(schema: z.ZodType): boolean {
  const def = (
    schema as unknown as { def?: { type?: string; valueType?: { def?: { type?: string } } } }
  ).def;
  return (
    def?.type === 'record' &&
    (def.valueType?.def?.type === 'unknown' || def.valueType?.def?.type === 'any')
  );
}

/** The family's error envelope (spec 7): the inference family has its own. */
export function envelopeOf(family: OperationFamily | undefined): z.ZodType {
  return family === 'inference' ? InferenceErrorSchema : ErrorBodySchema;
}

/**
 * The statuses the OpenAPI document lists for each operation (its own responses and the
 * generic failures that apply to it: 404 where it has path parameters, ...), by id.
 */
export function documentedStatuses(ops: readonly AnyOperation[]): Map<string, Set<number>> {
  const doc = buildOpenApiDocument(ops, { version: 'doctor' }) as {
    paths: Record<string, Record<string, { operationId: string; responses: object }>>;
  };
  const out = new Map<string, Set<number>>();
  for (const item of Object.values(doc.paths))
    for (const o of Object.values(item))
      out.set(
        o.operationId,
        new Set(
          Object.keys(o.responses)
            .filter((k) => /^\d+$/.test(k))
            .map(Number),
        ),
      );
  return out;
}

/** What an HTTP probe got back. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, bytes, or undefined for an empty body. */
  body: unknown;
}

function errorCode(body: unknown): string {
  const e = (body as { error?: unknown } | undefined)?.error;
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'string')
    return (e as { code: string }).code;
  return 'no error code';
}

const mediaType = (h: string | undefined) => (h ?? '').split(';')[0]!.trim().toLowerCase();

function typeMatches(declared: string, served: string | undefined): boolean {
  const s = mediaType(served);
  const d = declared.toLowerCase();
  return d.endsWith('/*') ? s.startsWith(d.slice(0, -1)) : s === d;
}

/**
 * Judge one answer of `op`: a documented 2xx and its body (schema, content type or empty),
 * or a 4xx/5xx in the family's envelope. A 401/403 in a good envelope is a skip (the key
 * may not call it); another 4xx is ok when `documented` (documentedStatuses) lists it for
 * the operation (a 404 for an absent sub-resource); a 5xx is a failure whatever its shape.
 */
export function judgeAnswer(
  op: AnyOperation,
  a: Answer,
  documented?: ReadonlySet<number>,
): Omit<CheckRow, 'check'> {
  const base = { method: op.method.toUpperCase(), status: a.status };
  const fail = (path: string, message: string) => ({
    ...base,
    result: 'fail' as const,
    detail: `${path}: ${message}`,
    mismatch: { path, message },
  });
  if (a.status >= 400) {
    const envelope = envelopeOf(op.family);
    const m =
      a.body === undefined || a.body instanceof Uint8Array
        ? {
            path: '$',
            message: `expected the ${op.family ?? 'control'} error envelope (JSON), got ${a.body === undefined ? 'an empty body' : (a.headers['content-type'] ?? 'bytes')}`,
          }
        : firstMismatch(envelope, a.body);
    if (m) return fail(m.path, `${a.status} answer: ${m.message}`);
    const code = errorCode(a.body);
    if (a.status === 401 || a.status === 403)
      return { ...base, result: 'skip', detail: `the key may not call it: ${a.status} ${code}` };
    if (a.status < 500 && documented?.has(a.status))
      return { ...base, result: 'ok', detail: `${a.status} ${code} (documented)` };
    return fail('$', `status ${a.status} ${code}${a.status < 500 ? ' is not documented' : ''}`);
  }
  const declared = op.responses[a.status];
  if (!declared) {
    const documented = Object.keys(op.responses).join(', ');
    return fail('$', `status ${a.status} is not documented (documented: ${documented})`);
  }
  if (declared.schema) {
    if (a.body === undefined || a.body instanceof Uint8Array || typeof a.body === 'string')
      return fail('$', `expected JSON, got ${a.headers['content-type'] ?? 'no content type'}`);
    const m = firstMismatch(declared.schema, a.body);
    if (m) return fail(m.path, m.message);
    return {
      ...base,
      result: 'ok',
      detail: isAnyObject(declared.schema)
        ? `${a.status}, schema: any object (fields not checked)`
        : `${a.status}, body matches`,
    };
  }
  if (declared.contentType) {
    if (!typeMatches(declared.contentType, a.headers['content-type']))
      return fail(
        '$',
        `expected ${declared.contentType}, got ${mediaType(a.headers['content-type']) || 'no content type'}`,
      );
    const n = a.body instanceof Uint8Array ? a.body.length : 0;
    return { ...base, result: 'ok', detail: `${a.status}, ${declared.contentType}, ${n} bytes` };
  }
  if (a.body !== undefined && a.status === 204) return fail('$', 'expected an empty body (204)');
  return {
    ...base,
    result: 'ok',
    detail: a.body === undefined ? `${a.status}, empty` : `${a.status}, no schema`,
  };
}

/** The `type` literal a message schema requires (`turn`), or undefined (`MseInit`). */
function typeLiteral(schema: z.ZodType): string | undefined {
  const s = schema as unknown as {
    shape?: { type?: { values?: Set<unknown> } };
    options?: z.ZodType[];
  };
  const values = s.shape?.type?.values;
  if (values) {
    const [v] = [...values];
    return typeof v === 'string' ? v : undefined;
  }
  return s.options?.length ? typeLiteral(s.options[0]!) : undefined;
}

const BINARY_MESSAGES = new Set<EdgeMessageName>(['MediaSegment', 'V2MediaFrame']);

/**
 * One frame the edge sent on `socket`: the message of the socket's `sends` it is (by name),
 * or its first mismatch. JSON text is matched by its `type`; binary is fMP4 on /mse and a
 * frame tagged 0x01 on /v2/session, nothing elsewhere.
 */
export function judgeFrame(
  socket: EdgeSocket,
  data: Uint8Array | string,
  binary: boolean,
): { message: EdgeMessageName } | { mismatch: { path: string; message: string } } {
  if (binary) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const named = socket.sends.find((n) => BINARY_MESSAGES.has(n));
    if (!named)
      return { mismatch: { path: '$', message: `a binary frame, and ${socket.path} sends none` } };
    if (named === 'V2MediaFrame' && bytes[0] !== TAG_MEDIA)
      return {
        mismatch: {
          path: '$[0]',
          message: `binary tag 0x${(bytes[0] ?? 0).toString(16).padStart(2, '0')}, expected 0x${TAG_MEDIA.toString(16).padStart(2, '0')} (media)`,
        },
      };
    return { message: named };
  }
  let value: unknown;
  try {
    value = JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
  } catch {
    return { mismatch: { path: '$', message: 'a text frame that is not JSON' } };
  }
  const candidates = socket.sends
    .filter((n) => !BINARY_MESSAGES.has(n))
    .map((n) => ({
      name: n,
      schema: edgeMessages[n] as z.ZodType,
      type: typeLiteral(edgeMessages[n] as z.ZodType),
    }));
  const type = (value as { type?: unknown } | null)?.type;
  const same = candidates.filter((c) =>
    c.type === undefined ? type === undefined : c.type === type,
  );
  if (same.length === 0) {
    const known = [...new Set(candidates.map((c) => c.type).filter(Boolean))].join(', ');
    return {
      mismatch: {
        path: '$.type',
        message: `unknown message type ${JSON.stringify(type)} on ${socket.path} (expected one of ${known})`,
      },
    };
  }
  let first: { path: string; message: string } | undefined;
  for (const c of same) {
    const m = firstMismatch(c.schema, value);
    if (!m) return { message: c.name };
    first ??= { path: m.path, message: `${m.message} (${c.name})` };
  }
  return { mismatch: first! };
}

/**
 * The report as a table that fits `width` columns (80 off a terminal): check, result, and
 * the detail wrapped under its own column.
 */
export function renderReport(
  rows: readonly CheckRow[],
  width = 80,
  wrapText: (s: string, w: number) => string,
): string {
  const checkW = Math.min(28, Math.max(5, ...rows.map((r) => r.check.length)));
  const detailCol = checkW + 2 + 4 + 2;
  const room = Math.max(20, width - 1 - detailCol);
  const label = { ok: 'ok  ', fail: 'FAIL', skip: 'skip' } as const;
  const lines = [`${'CHECK'.padEnd(checkW)}  RES   DETAIL`];
  for (const r of rows) {
    const name = r.check.length > checkW ? r.check.slice(0, checkW - 1) + '…' : r.check;
    const detail = wrapText(r.detail, room).replace(/\n/g, `\n${' '.repeat(detailCol)}`);
    lines.push(`${name.padEnd(checkW)}  ${label[r.result]}  ${detail}`);
  }
  return lines.join('\n');
}

/** The counts line under the table and in `--json`. */
export function countRows(rows: readonly CheckRow[]): Record<CheckResult, number> {
  const n = { ok: 0, fail: 0, skip: 0 };
  for (const r of rows) n[r.result]++;
  return n;
}
