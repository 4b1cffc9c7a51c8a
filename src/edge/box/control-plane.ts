import { Agent, request } from 'undici';
import type { Clock, TimerHandle } from '../../contract/clock.js';
import { fillPath, type AnyOperation } from '../../contract/operation.js';
import { boxPresence } from '../../contract/operations/boxes.js';

/** How often a box asks whether the control plane still has it (docs/edge.md). */
export const PRESENCE_INTERVAL_MS = 5_000;

export interface PresenceWatch {
  /** Register again with the box's registration (the box's own body). */
  register(): Promise<void>;
  clock: Clock;
  log(line: string): void;
  intervalMs?: number;
}

/**
 * The box's side of the internal box API (`/_internal/boxes/{boxId}/...`): registration,
 * seat events and transcript turns, over HTTP with the per-box secret; the paths are the
 * contract's (`src/contract/operations/boxes.ts`). The edge never
 * imports the emulator (ARCHITECTURE: that boundary lets a box run in another process).
 */
export class ControlPlaneLink {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000 });

  constructor(
    readonly baseUrl: string,
    private readonly boxId: string,
    private readonly secret: string,
  ) {}

  private url(op: AnyOperation, params: Record<string, string>): string {
    return this.baseUrl + fillPath(op.path, { ...params, boxId: this.boxId });
  }

  async post(
    op: AnyOperation,
    params: Record<string, string>,
    body: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const res = await request(this.url(op, params), {
      method: 'POST',
      headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: res.statusCode, body: parsed };
  }

  /** GET JSON; throws on a non-2xx. */
  async getJson(op: AnyOperation, params: Record<string, string>): Promise<unknown> {
    const r = await this.get(op, params);
    if (r.status < 200 || r.status >= 300)
      throw new Error(`control plane answered ${r.status} to ${op.path}`);
    return r.body;
  }

  /** GET: the status and the JSON (or text) answer. */
  async get(
    op: AnyOperation,
    params: Record<string, string>,
  ): Promise<{ status: number; body: unknown }> {
    const res = await request(this.url(op, params), {
      method: 'GET',
      headers: { authorization: `Bearer ${this.secret}` },
      dispatcher: this.agent,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: res.statusCode, body: parsed };
  }

  /**
   * Keep this box in the fleet while the control plane comes and goes: every few seconds
   * (on the box's clock) ask whether it still has the box; when it does not (it restarted),
   * register again. While it cannot be reached, or refuses the box's credential (it
   * restarted without the data dir that kept it), the log says so loudly, once per change.
   */
  keepRegistered(w: PresenceWatch): { stop(): void } {
    const every = w.intervalMs ?? PRESENCE_INTERVAL_MS;
    const where = `control plane ${this.baseUrl}`;
    let state: 'registered' | 'unreachable' | 'refused' = 'registered';
    let timer: TimerHandle | null = null;
    let stopped = false;
    const away = (next: 'unreachable' | 'refused', line: string) => {
      if (state !== next) w.log(line);
      state = next;
    };
    const tick = async () => {
      try {
        const r = await this.get(boxPresence, {});
        const registered = (r.body as { registered?: unknown } | undefined)?.registered;
        if (r.status === 401)
          away(
            'refused',
            `WARNING: ${where} does not know box ${this.boxId} (401): it restarted without the data dir that kept this box's credential; this box is OUT OF THE FLEET: start it again (avatar edge start) for a new credential`,
          );
        else if (r.status !== 200) throw new Error(`it answered ${r.status}`);
        else if (registered === false) {
          // It restarted (or dropped the box): the same registration, the same id and secret.
          await w.register();
          w.log(`${where} had lost box ${this.boxId} (it restarted): registered again`);
          state = 'registered';
        } else if (state !== 'registered') {
          w.log(`${where} answers again; box ${this.boxId} is still registered`);
          state = 'registered';
        }
      } catch (e) {
        away(
          'unreachable',
          `WARNING: ${where} is unreachable (${(e as Error).message}): this box is OUT OF THE FLEET (no new sessions) until it answers; asking again every ${every / 1000} s`,
        );
      } finally {
        if (!stopped) timer = w.clock.setTimeout(() => void tick(), every);
      }
    };
    timer = w.clock.setTimeout(() => void tick(), every);
    return {
      stop() {
        stopped = true;
        timer?.cancel();
      },
    };
  }

  /** POST and insist on a 2xx. */
  async must(op: AnyOperation, params: Record<string, string>, body: unknown): Promise<unknown> {
    const r = await this.post(op, params, body);
    if (r.status < 200 || r.status >= 300) {
      throw new Error(
        `control plane answered ${r.status} to ${op.path}: ${JSON.stringify(r.body)}`,
      );
    }
    return r.body;
  }

  /** GET bytes (a version's media); null when the control plane has none (404). */
  async getBytes(op: AnyOperation, params: Record<string, string>): Promise<Buffer | null> {
    const res = await request(this.url(op, params), {
      method: 'GET',
      headers: { authorization: `Bearer ${this.secret}` },
      dispatcher: this.agent,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode === 404) return null;
    if (res.statusCode !== 200)
      throw new Error(`control plane answered ${res.statusCode} to ${op.path}`);
    return bytes;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
