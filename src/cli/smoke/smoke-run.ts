/**
 * The steps of `avatar smoke`, in order; a step is a name and a function returning a detail
 * for its line. The whole run shares one deadline (`--timeout`).
 */
import { ApiResponseError } from '../../client/client.js';
import { connectEdge } from '../../client/edge-connect.js';
import type { EdgeConnection, EdgeEvent } from '../../client/edge-events.js';
import type { OutputOf } from '../../contract/operation.js';
import { listGallery } from '../../contract/operations/core.js';
import { getTranscript } from '../../contract/operations/sessions.js';
import type { CliContext } from '../context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../exit-codes.js';
import { mintLive, releaseSeat, type Minted } from '../live/mint.js';
import { paintFor } from '../views/colour.js';
import { WaitLine } from '../live/wait-line.js';
import { wrapText } from '../wrap.js';

export interface SmokeOptions {
  persona?: string;
  timeout?: string;
  say?: string;
}

interface StepRecord {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

class StepTimeout extends Error {}

/** Where a step's detail starts: `ok   transcript     15 ms  `. */
const DETAIL_COLUMN = 28;

/**
 * On a terminal, a detail longer than the room beside the step (the mint's session id and
 * edge URL, the media's codec string) wraps under the detail column instead of across the
 * step column; a pipe keeps one line per step, for grep.
 */
function fitDetail(detail: string, out: { isTTY?: boolean; columns?: number }): string {
  if (!out.isTTY) return detail;
  const room = (out.columns ?? 80) - 1 - DETAIL_COLUMN;
  if (room < 20 || detail.length <= room) return detail;
  return wrapText(detail, room).replace(/\n/g, `\n${' '.repeat(DETAIL_COLUMN)}`);
}

export async function runSmoke(cli: CliContext, o: SmokeOptions): Promise<void> {
  const timeoutS = Number(o.timeout ?? 60);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    throw new CliError(
      `--timeout must be a positive number of seconds (got ${String(o.timeout)})`,
      ExitCode.usage,
    );
  const json = !!cli.globals().json;
  const out = cli.io.stdout;
  const deadline = performance.now() + timeoutS * 1000;
  const started = performance.now();
  const steps: StepRecord[] = [];
  const paint = paintFor(out, cli.io.env);
  // A step can take seconds (the typed turn): on a terminal, a line says which (Deliver 5).
  const wait = new WaitLine(json ? { write: () => true } : (cli.io.stderr as NodeJS.WriteStream));
  const print = (r: StepRecord) => {
    wait.clear();
    steps.push(r);
    if (json) out.write(JSON.stringify(r) + '\n');
    else
      out.write(
        `${r.ok ? paint.green('ok  ') : paint.red('FAIL')} ${r.step.padEnd(11)} ${paint.dim(`${String(r.ms).padStart(6)} ms`)}  ${fitDetail(r.detail, out)}\n`,
      );
  };
  const step = async <T>(name: string, fn: () => Promise<[T, string]>): Promise<T> => {
    const t = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const left = deadline - t;
      wait.waiting(`step ${name}`);
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StepTimeout(`timed out (--timeout ${timeoutS} s)`)),
          Math.max(0, left),
        );
      });
      const [value, detail] = await Promise.race([fn(), timeout]);
      print({ step: name, ok: true, ms: Math.round(performance.now() - t), detail });
      return value;
    } catch (e) {
      print({ step: name, ok: false, ms: Math.round(performance.now() - t), detail: describe(e) });
      throw new SmokeFailed(name, e);
    } finally {
      clearTimeout(timer);
    }
  };

  const client = cli.client();
  let minted: Minted | undefined;
  let conn: EdgeConnection | undefined;
  try {
    const persona = await step('gallery', async () => {
      const g: OutputOf<typeof listGallery> = (await client.call(listGallery)).body;
      const ids = g.avatars.map((a) => a.id);
      if (ids.length === 0) throw new Error('the gallery is empty');
      const pick = o.persona ?? ids[0]!;
      if (!ids.includes(pick))
        throw new Error(`no persona ${pick} in the gallery (${ids.join(', ')})`);
      return [pick, `${ids.length} personas; using ${pick}`];
    });
    minted = await step('mint', async () => {
      const m = await mintLive(cli, client, { persona });
      return [m, `session ${m.session_id} on ${m.connect_url} (cap ${m.cap_seconds} s)`];
    });
    const m = minted;
    const seen: EdgeEvent[] = [];
    const arrived = new Map<EdgeEvent, number>();
    const waiters = new Set<() => void>();
    const until = <E extends EdgeEvent>(pred: (e: EdgeEvent) => e is E): Promise<E> =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = seen.find(pred);
          const closed = seen.find((e) => e.type === 'closed');
          if (hit) resolve(hit);
          else if (closed)
            reject(
              new Error(
                `the edge closed the connection (${closed.reason}${closed.detail ? `: ${closed.detail}` : ''})`,
              ),
            );
          else return;
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    let connectStart = 0;
    conn = await step('connect', async () => {
      connectStart = performance.now();
      const c = await connectEdge({
        connectUrl: m.connect_url,
        token: m.session_token,
        protocol: m.protocol_version === 2 ? 2 : 1,
        origin: cli.globals().origin,
      });
      c.on((e) => {
        seen.push(e);
        arrived.set(e, performance.now());
        for (const w of [...waiters]) w();
      });
      await c.ready;
      return [c, `protocol ${c.protocol}, sockets open`];
    });
    const c = conn;
    // A question every persona's brain answers (its name), so a passing turn reads as one.
    const said = o.say ?? 'Hello, who are you?';
    await step('turn', async () => {
      await c.chat(said);
      const turn = await until(
        (e): e is Extract<EdgeEvent, { type: 'turn' }> => e.type === 'turn' && e.text === said,
      );
      return [
        turn,
        `reply: ${turn.reply.length > 60 ? turn.reply.slice(0, 59) + '…' : turn.reply}`,
      ];
    });
    await step('media', async () => {
      const noMedia = seen.find((e) => e.type === 'error' && e.error.startsWith('render_disabled'));
      if (noMedia && noMedia.type === 'error') throw new Error(noMedia.error);
      const first = await until(
        (e): e is Extract<EdgeEvent, { type: 'media' }> => e.type === 'media',
      );
      const init = seen.find((e) => e.type === 'media_init');
      const mime = init && init.type === 'media_init' ? init.mime : 'no mime message';
      const at = Math.round((arrived.get(first) ?? performance.now()) - connectStart);
      return [
        first,
        `first fragment ${first.bytes.length} bytes (${mime}), ${at} ms after the connect began`,
      ];
    });
    await step('release', async () => {
      await c.close();
      await releaseSeat(client, m);
      return [undefined, 'seat released'];
    });
    conn = undefined;
    const released = minted;
    minted = undefined;
    await step('transcript', async () => {
      const t: OutputOf<typeof getTranscript> = (
        await client.call(getTranscript, { params: { sessionId: released.session_id } })
      ).body;
      if (!t.turns.some((x) => x.user_text === said))
        throw new Error(
          `the typed turn is not in the transcript (${t.turns.length} turns, source ${t.source})`,
        );
      return [t, `${t.turns.length} turn${t.turns.length === 1 ? '' : 's'} (source ${t.source})`];
    });
  } catch (e) {
    if (!(e instanceof SmokeFailed)) throw e;
    // Never leave a seat behind, even on failure.
    await conn?.close().catch(() => undefined);
    if (minted) await releaseSeat(client, minted).catch(() => undefined);
    if (json)
      out.write(
        JSON.stringify({
          ok: false,
          failed_step: e.step,
          total_ms: Math.round(performance.now() - started),
        }) + '\n',
      );
    throw new CliError(`smoke failed at step ${e.step}: ${describe(e.cause)}`, exitFor(e.cause));
  }
  const total = Math.round(performance.now() - started);
  if (json) out.write(JSON.stringify({ ok: true, total_ms: total }) + '\n');
  else out.write(`smoke passed: ${steps.length} steps in ${total} ms\n`);
}

class SmokeFailed extends Error {
  constructor(
    readonly step: string,
    override readonly cause: unknown,
  ) {
    super(step);
  }
}

function netCode(e: unknown): string | undefined {
  const x = e as { code?: string; cause?: { code?: string } };
  const code = x?.code ?? x?.cause?.code;
  return code && /^(E[A-Z]+|UND_ERR.*)$/.test(code) ? code : undefined;
}

function describe(e: unknown): string {
  if (e instanceof ApiResponseError) {
    const b = (e.body ?? {}) as Record<string, unknown>;
    return `HTTP ${e.status} ${e.code}${typeof b.message === 'string' ? `: ${b.message}` : typeof b.detail === 'string' ? `: ${b.detail}` : ''}`;
  }
  const net = netCode(e);
  if (net) return `cannot reach the service (${net})`;
  return (e as Error)?.message ?? String(e);
}

function exitFor(e: unknown): ExitCodeValue {
  if (e instanceof ApiResponseError)
    return e.status >= 500 ? ExitCode.apiServerError : ExitCode.apiClientError;
  if (netCode(e)) return ExitCode.network;
  return ExitCode.internal;
}
