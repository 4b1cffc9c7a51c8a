import Table from 'cli-table3';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin?: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

const MAX_CELL = 60;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.length > MAX_CELL ? v.slice(0, MAX_CELL - 1) + '…' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = JSON.stringify(v);
  return s.length > MAX_CELL ? s.slice(0, MAX_CELL - 1) + '…' : s;
}

/**
 * Rows of objects as a table; the columns are the keys of the rows, in first-seen order.
 * Given a terminal `width`, columns that do not fit are left out and named below the table.
 */
export function renderTable(rows: Record<string, unknown>[], columns?: string[], width?: number): string {
  if (rows.length === 0) return '(none)';
  let cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  let hidden: string[] = [];
  if (width && width > 20) {
    let used = 1;
    const fit: string[] = [];
    for (const c of cols) {
      const w = Math.max(c.length, ...rows.map((r) => cell(r[c]).length)) + 3;
      if (fit.length > 0 && used + w > width) break;
      fit.push(c);
      used += w;
    }
    hidden = cols.slice(fit.length);
    cols = fit;
  }
  const t = new Table({ head: cols, style: { head: [], border: [] } });
  for (const r of rows) t.push(cols.map((c) => cell(r[c])));
  return hidden.length ? `${t.toString()}\n(${hidden.length} more columns: ${hidden.join(', ')}; --json shows all)` : t.toString();
}

function flatten(obj: Record<string, unknown>, prefix = '', out: [string, unknown][] = []): [string, unknown][] {
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v)) flatten(v as Record<string, unknown>, `${prefix}${k}.`, out);
    else out.push([prefix + k, v]);
  }
  return out;
}

/** One object as a two-column key/value table (nested objects as dotted keys). */
export function renderRecord(obj: Record<string, unknown>): string {
  const t = new Table({ style: { head: [], border: [] } });
  for (const [k, v] of flatten(obj)) {
    t.push({ [k]: typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v) });
  }
  return t.toString();
}

/**
 * Human rendering of a response body: `{ data: [...] }` and other lists as tables, an
 * object as key/value lines, scalars as is.
 */
export function renderHuman(body: unknown, width?: number): string {
  if (body === undefined || body === null) return 'ok';
  if (Array.isArray(body)) return renderTable(body as Record<string, unknown>[], undefined, width);
  if (typeof body !== 'object') return String(body);
  const o = body as Record<string, unknown>;
  const listKey = Object.keys(o).find((k) => Array.isArray(o[k]) && (o[k] as unknown[]).every((x) => x && typeof x === 'object'));
  if (listKey && Object.keys(o).length <= 2) {
    const rest = Object.fromEntries(Object.entries(o).filter(([k]) => k !== listKey));
    const table = renderTable(o[listKey] as Record<string, unknown>[], undefined, width);
    return Object.keys(rest).length ? `${table}\n${renderRecord(rest)}` : table;
  }
  return renderRecord(o);
}

export function printJson(io: Io, body: unknown): void {
  io.stdout.write(JSON.stringify(body, null, 2) + '\n');
}
