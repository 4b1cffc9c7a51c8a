import { echo } from '../../contract/echo.js';
import { logs as logsOp } from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { implement } from '../http/router.js';
import { sessionRuntime } from '../sessions/runtime.js';

/**
 * The operator log (issue 18 item 9; docs/testing.md "Operator log"): what the emulator
 * did, as structured entries a failing CI run can show: every request (method, path,
 * status, time taken, the session it concerns), every event the emulator emits (queue
 * moves, seat and session events, whether or not a webhook subscribes), every session end.
 * Kept in memory, the newest `LOG_LIMIT` entries; `GET /_emulator/logs` reads them.
 */
export interface LogEntry {
  seq: number;
  /** ISO time on the emulator's clock. */
  at: string;
  kind: 'request' | 'event' | 'session.ended' | 'fault';
  session?: string;
  [field: string]: unknown;
}

export const LOG_LIMIT = 10_000;
/** A request's path is logged up to this many characters (a 16 KB junk path is not kept 10,000 times). */
export const LOG_PATH_CHARS = 256;

const SESSION_IN_PATH =
  /\/sessions\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/;

export class OperatorLog {
  private readonly entries: LogEntry[] = [];
  private seq = 0;

  constructor(private readonly now: () => number) {}

  add(kind: LogEntry['kind'], fields: Record<string, unknown>): void {
    this.entries.push({ seq: ++this.seq, at: new Date(this.now()).toISOString(), kind, ...fields });
    if (this.entries.length > LOG_LIMIT) this.entries.splice(0, this.entries.length - LOG_LIMIT);
  }

  /** Entries after `after` (a seq), optionally only those of one session. */
  since(after: number, session?: string): LogEntry[] {
    return this.entries.filter((e) => e.seq > after && (!session || e.session === session));
  }

  get last(): number {
    return this.seq;
  }

  /** What a handler said its request concerns (a mint's session or ticket), read by `request`. */
  private readonly concerned = new WeakMap<Request, { session?: string; ticket?: string }>();

  /**
   * A handler names the session or ticket its request concerns when the path does not (a
   * mint's answer): the log takes it from here instead of reading the response body again.
   */
  concerns(req: Request, what: { session?: string; ticket?: string }): void {
    this.concerned.set(req, what);
  }

  /** One request, with the session it concerns (from the path, or what its handler named). */
  request(req: Request, path: string, started: number, res: Response): void {
    if (path === '/_emulator/logs') return; // reading the log is not news
    const method = req.method;
    const named = this.concerned.get(req);
    const session = SESSION_IN_PATH.exec(path)?.[1] ?? named?.session;
    const ticket = named?.ticket;
    this.add('request', {
      method,
      path: echo(path, LOG_PATH_CHARS),
      status: res.status,
      ms: Math.max(0, this.now() - started),
      ...(session ? { session } : {}),
      ...(ticket ? { ticket } : {}),
    });
  }
}

/** The emulator's operator log (built once by src/emulator/services.ts). */
export function operatorLog(ctx: EmulatorContext): OperatorLog {
  return ctx.services.log;
}

/** Hook the log to the session runtime and serve `GET /_emulator/logs?after=SEQ&session=ID`. */
export function registerOperatorLog(app: App, ctx: EmulatorContext): void {
  const log = operatorLog(ctx);
  const rt = sessionRuntime(ctx);
  rt.endListeners.push((session, box, reason) =>
    log.add('session.ended', { session, box, reason }),
  );
  rt.webhooks.emitted.push((event, workspace, data) => {
    const session = typeof data.session_id === 'string' ? data.session_id : undefined;
    log.add('event', { event, workspace, ...(session ? { session } : {}), data });
  });
  implement(app, ctx, logsOp, ({ query }) => ({
    data: log.since(query.after ?? 0, query.session || undefined),
    last: log.last,
  }));
}
