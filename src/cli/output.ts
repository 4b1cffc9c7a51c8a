import Table from 'cli-table3';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { hardCut } from './wrap.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin?: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

const MAX_CELL = 60;

/** Fields whose values are credentials: printed alone on their own line, never cut or boxed. */
const SECRET_KEY =
  /(^|_|\.)(token|secret|secret_key|dashboard_key|api_key|key|jwt|id_token|session_token)$/;
const TIME_KEY = /(_at|^timestamp|_deadline|^expires|^exp|^iat)$/;

/**
 * A unix time (seconds, or milliseconds for `timestamp`) as `2026-11-23 01:30:00 UTC`;
 * other values unchanged. Human output only: --json prints the raw number (issue 7 item 8).
 */
export function formatTime(v: unknown, key = '_at'): unknown {
  if (typeof v !== 'number' || !Number.isFinite(v) || !TIME_KEY.test(key.split('.').pop() ?? key))
    return v;
  const ms = v > 1e11 ? v : v * 1000;
  if (ms < 1e11 || ms > 1e14) return v;
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

function cell(v: unknown, key = ''): string {
  v = formatTime(v, key);
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return clip(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = JSON.stringify(v);
  return clip(s);
}

/** At most MAX_CELL columns, cut with '…'. */
const clip = (s: string) => (stringWidth(s) > MAX_CELL ? `${hardCut(s, MAX_CELL - 1)[0]}…` : s);

/** Columns a person reads to tell rows apart: they lead a table, ahead of ids and the rest. */
const READ_FIRST = ['name', 'kind', 'status', 'state'];

/** Keys in table order: READ_FIRST ones first (in that order), then the others as they came. */
function readFirst(keys: string[]): string[] {
  const lead = READ_FIRST.filter((k) => keys.includes(k));
  return [...lead, ...keys.filter((k) => !lead.includes(k))];
}

/**
 * Rows of objects as a table; the columns are the keys of the rows, those a person reads
 * first (readFirst), then the others in first-seen order.
 * Given a terminal `width`, columns that do not fit are left out and named below the table.
 */
export function renderTable(
  rows: Record<string, unknown>[],
  columns?: string[],
  width?: number,
): string {
  if (rows.length === 0) return '(none)';
  let cols = columns ?? readFirst([...new Set(rows.flatMap((r) => Object.keys(r)))]);
  let hidden: string[] = [];
  if (width && width > 20) {
    let used = 1;
    const fit: string[] = [];
    for (const c of cols) {
      const w = Math.max(stringWidth(c), ...rows.map((r) => stringWidth(cell(r[c], c)))) + 3;
      if (fit.length > 0 && used + w > width) break;
      fit.push(c);
      used += w;
    }
    hidden = cols.slice(fit.length);
    cols = fit;
  }
  const t = new Table({ head: cols, style: { head: [], border: [] } });
  for (const r of rows) t.push(cols.map((c) => cell(r[c], c)));
  if (!hidden.length) return t.toString();
  const note = `(${hidden.length} more column${hidden.length === 1 ? '' : 's'}: ${hidden.join(', ')}; --json shows all)`;
  return `${t.toString()}\n${wrap(note, width! - 1).join('\n')}`;
}

function flatten(
  obj: Record<string, unknown>,
  prefix = '',
  out: [string, unknown][] = [],
): [string, unknown][] {
  for (const [k, v] of Object.entries(obj)) {
    if (
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      !Buffer.isBuffer(v) &&
      Object.keys(v).length > 0
    ) {
      flatten(v as Record<string, unknown>, `${prefix}${k}.`, out);
    } else out.push([prefix + k, v]);
  }
  return out;
}

/**
 * Wrap text to `width` terminal columns (CJK and emoji count two), at spaces when there are
 * any, else hard.
 */
export function wrap(text: string, width: number): string[] {
  return wrapAnsi(text, Math.max(1, width), { hard: true, trim: true }).split('\n');
}

/**
 * One object as `key  value` lines (nested objects as dotted keys) that fit `width`
 * (default 80): long values wrap under their column; credentials (tokens, secrets, keys)
 * stand alone on the line below their key, unindented and whole, so they copy cleanly, and
 * come last, after what a person reads.
 */
export function renderRecord(obj: Record<string, unknown>, width = 80): string {
  // What a person reads first; credentials (a session token is 30 lines at 80 columns) last.
  const all = flatten(obj);
  const isSecret = ([k, v]: [string, unknown]) =>
    SECRET_KEY.test(k) && typeof v === 'string' && v.length > 0 && !/\s/.test(v);
  const rows = [...all.filter((r) => !isSecret(r)), ...all.filter(isSecret)].map(([k, v]) => {
    const shown = formatTime(v, k);
    return [
      k,
      typeof shown === 'string'
        ? shown
        : shown === null || shown === undefined
          ? ''
          : JSON.stringify(shown),
    ] as const;
  });
  const keyWidth = Math.min(28, Math.max(0, ...rows.map(([k]) => stringWidth(k))));
  const valueWidth = Math.max(20, width - keyWidth - 2);
  const out: string[] = [];
  for (const [k, v] of rows) {
    const secret = SECRET_KEY.test(k) && v.length > 0 && !/\s/.test(v);
    // (a run of wide characters, CJK without spaces, is text: it wraps)
    if (secret || (!/\s/.test(v) && stringWidth(v) === v.length && v.length > valueWidth)) {
      // Whole, on its own line: a token cut or indented would not paste.
      out.push(`${k}:`, v);
      continue;
    }
    const lines = wrap(v, valueWidth);
    const pad =
      stringWidth(k) > keyWidth
        ? `\n${' '.repeat(keyWidth + 2)}`
        : ' '.repeat(keyWidth - stringWidth(k) + 2);
    out.push(
      `${k}${pad}${lines[0] ?? ''}`.trimEnd(),
      ...lines.slice(1).map((l) => `${' '.repeat(keyWidth + 2)}${l}`),
    );
  }
  return out.join('\n');
}

/**
 * Human rendering of a response body: `{ data: [...] }` and other lists as tables, an
 * object as key/value lines, scalars as is. `width` is the terminal's (tables drop the
 * columns that do not fit; key/value lines wrap); without one, tables keep every column.
 */
export function renderHuman(body: unknown, width?: number): string {
  if (body === undefined || body === null) return 'ok';
  if (Array.isArray(body)) return renderTable(body as Record<string, unknown>[], undefined, width);
  if (typeof body !== 'object') return String(body);
  const o = body as Record<string, unknown>;
  const listKey = Object.keys(o).find(
    (k) => Array.isArray(o[k]) && (o[k] as unknown[]).every((x) => x && typeof x === 'object'),
  );
  if (listKey && Object.keys(o).length <= 2) {
    const rest = Object.fromEntries(Object.entries(o).filter(([k]) => k !== listKey));
    const table = renderTable(o[listKey] as Record<string, unknown>[], undefined, width);
    return Object.keys(rest).length ? `${table}\n${renderRecord(rest, width)}` : table;
  }
  return renderRecord(o, width);
}

export function printJson(io: Io, body: unknown): void {
  io.stdout.write(JSON.stringify(body, null, 2) + '\n');
}
