import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import {
  faultsAdd,
  faultsClear,
  faultsList,
  faultsRemove,
} from '../../contract/operations/operator.js';
import { z } from 'zod';
import {
  FaultSpec,
  MediaOpenFaults,
  type DealtStreamFault,
  type HttpFaultSpec,
  type StreamFaultKind,
  type StreamFaultSpec,
} from '../../contract/resources/operator.js';
import type { StreamFaultEvent } from '../../contract/operations/boxes.js';
import type { App, EmulatorContext } from '../context.js';
import { operatorLog } from './log.js';

/**
 * Faults (issue 18 item 6; docs/testing.md "Faults"): HTTP faults, a status and/or latency
 * injected on the routes a fault names; and stream faults, met inside live sessions on the
 * boxes (contract/resources/operator.ts StreamFaultSpec). Each fires every time, a number
 * of times, or with a probability. Configured at start (`faults` on startEmulator(), the
 * seed file) or at run time (`/_emulator/faults`, `avatar emulator faults`). Each hit goes
 * to the operator log; `GET /_emulator/faults` shows every fault with its hits and what is
 * left of its count. Operator routes (`/_emulator/*`) are never faulted.
 *
 * Stream faults reach a box over the internal box API only: the control plane tells each
 * box which events are armed (`POST /_box/faults`), and a box that meets an armed event
 * asks which faults it is dealt (`POST /_internal/boxes/{id}/sessions/{sid}/faults`), so
 * counts, probabilities and the log stay here, whatever box or process met the event.
 */
export { FaultSpec };

export const FaultList = z.array(FaultSpec);

export type FaultSpecInput = z.input<typeof FaultSpec>;

interface HttpFault extends z.output<typeof HttpFaultSpec> {
  id: string;
  hits: number;
  method: string | null;
  pattern: RegExp;
}

interface StreamFault extends z.output<typeof StreamFaultSpec> {
  id: string;
  hits: number;
}

type Fault = HttpFault | StreamFault;

const isStream = (f: Fault): f is StreamFault => f.stream !== undefined;

/** The event at which a box meets each stream fault. */
export function eventOf(kind: StreamFaultKind): StreamFaultEvent {
  if (MediaOpenFaults.includes(kind)) return 'media_open';
  return kind === 'delay_turn' ? 'turn' : kind === 'recognizer_fail' ? 'recognize' : 'reply';
}

function compile(route: string): { method: string | null; pattern: RegExp } {
  const [a, b] = route.includes(' ') ? route.split(' ', 2) : [null, route];
  const path = b!;
  const rx = path
    .split('/')
    .map((seg) =>
      seg === '*'
        ? '.*'
        : /^\{[^}]+\}$/.test(seg)
          ? '[^/]+'
          : seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*'),
    )
    .join('/');
  return { method: a && a !== '*' ? a : null, pattern: new RegExp(`^${rx}/?$`) };
}

export class Faults {
  private readonly list: Fault[] = [];
  private next = 1;

  /**
   * Told when the armed stream-fault events change, with a version that rises each time
   * (the fleet tells every box; the promise settles when every box answered or timed out).
   */
  readonly armedListeners: ((events: StreamFaultEvent[], version: number) => Promise<void>)[] = [];
  private armedNow = '';
  /** The version of the armed events (a box keeps the newest it heard). */
  version = 0;
  private arming: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: EmulatorContext) {}

  add(spec: z.output<typeof FaultSpec>): Fault {
    const id = `fault_${this.next++}`;
    const f: Fault =
      spec.stream === undefined
        ? { ...spec, id, hits: 0, ...compile(spec.route) }
        : { ...spec, id, hits: 0 };
    this.list.push(f);
    this.rearm();
    return f;
  }

  /** The stream-fault events a box should ask about: those of every fault with hits left. */
  armed(): StreamFaultEvent[] {
    const events = new Set<StreamFaultEvent>();
    for (const f of this.list)
      if (isStream(f) && (f.count === undefined || f.hits < f.count)) events.add(eventOf(f.stream));
    return [...events].sort();
  }

  private rearm(): void {
    const events = this.armed();
    const key = events.join(',');
    if (key === this.armedNow) return;
    this.armedNow = key;
    const version = ++this.version;
    this.arming = Promise.all(this.armedListeners.map((fn) => fn(events, version)));
  }

  /** Settles when the boxes heard the latest change of the armed events (or did not answer). */
  armedOnBoxes(): Promise<unknown> {
    return this.arming;
  }

  private roll(f: Fault): boolean {
    if (f.count !== undefined && f.hits >= f.count) return false;
    if (f.probability !== undefined && f.probability < 1) {
      const roll = Number.parseInt(this.ctx.ids.hex(4), 16) / 0x1_0000_0000;
      if (roll >= f.probability) return false;
    }
    f.hits++;
    return true;
  }

  /** A session met a stream-fault event on a box: the faults dealt to it (counted, logged). */
  deal(event: StreamFaultEvent, session: string, box: string): DealtStreamFault[] {
    const dealt: DealtStreamFault[] = [];
    for (const f of this.list) {
      if (!isStream(f) || eventOf(f.stream) !== event) continue;
      if (f.session !== undefined && f.session !== session) continue;
      // One fault of a kind per event (two drops of one socket are one drop).
      if (dealt.some((d) => d.stream === f.stream) || !this.roll(f)) continue;
      const d: DealtStreamFault = {
        id: f.id,
        stream: f.stream,
        ...(f.after_ms !== undefined ? { after_ms: f.after_ms } : {}),
        ...(f.ms !== undefined ? { ms: f.ms } : {}),
      };
      const { id, ...what } = d;
      operatorLog(this.ctx).add('fault', { fault: id, ...what, event, session, box });
      dealt.push(d);
    }
    if (dealt.length > 0) this.rearm();
    return dealt;
  }

  remove(id?: string): number {
    const before = this.list.length;
    if (id === undefined) this.list.splice(0);
    else {
      const i = this.list.findIndex((f) => f.id === id);
      if (i >= 0) this.list.splice(i, 1);
    }
    const removed = before - this.list.length;
    // A box stops asking at an event no fault is left for.
    if (removed > 0) this.rearm();
    return removed;
  }

  view(): { [k: string]: unknown; id: string; hits: number; remaining: number | null }[] {
    return this.list.map((f) => {
      const { pattern: _p, method: _m, ...shown } = f as HttpFault;
      return { ...shown, remaining: f.count === undefined ? null : f.count - f.hits };
    });
  }

  /** The fault this request meets (counting the hit), or null. */
  hit(method: string, path: string): HttpFault | null {
    if (path.startsWith('/_emulator/')) return null;
    for (const f of this.list) {
      if (isStream(f) || (f.method && f.method !== method) || !f.pattern.test(path)) continue;
      if (!this.roll(f)) continue;
      operatorLog(this.ctx).add('fault', {
        fault: f.id,
        method,
        path,
        status: f.status ?? null,
        latency_ms: f.latency_ms ?? 0,
      });
      return f;
    }
    return null;
  }

  /** Apply a fault: wait its latency on the emulator's clock, then answer its status (or go on). */
  async apply(f: HttpFault, path: string): Promise<Response | null> {
    if (f.latency_ms) await new Promise<void>((r) => this.ctx.clock.setTimeout(r, f.latency_ms!));
    if (f.status === undefined) return null;
    const message = `fault ${f.id} injected by the emulator's operator (${f.route})`;
    const inference =
      path.startsWith('/compat-') || (path.startsWith('/api/') && !path.startsWith('/api/v1/'));
    const body = inference
      ? { error: { code: 'injected_fault', message, type: 'server_error' } }
      : { error: 'injected_fault', message, retryable: f.status >= 500 };
    return new Response(JSON.stringify(body), {
      status: f.status,
      headers: { 'content-type': 'application/json' },
    });
  }
}

/** The faults armed at start (`faults` option), as the emulator's Faults. */
export function startFaults(ctx: EmulatorContext): Faults {
  const f = new Faults(ctx);
  for (const spec of FaultList.parse(ctx.options.faults ?? [])) f.add(spec);
  return f;
}

/** The emulator's faults (built once by src/emulator/services.ts). */
export function faultsOf(ctx: EmulatorContext): Faults {
  return ctx.services.faults;
}

export function registerFaultRoutes(app: App, ctx: EmulatorContext): void {
  const faults = faultsOf(ctx);
  implement(app, ctx, faultsList, () => ({ data: faults.view() }));
  // Add and remove answer once the boxes know (a box that does not answer is logged).
  implement(app, ctx, faultsAdd, async ({ body }) => {
    const f = faults.add(body);
    await faults.armedOnBoxes();
    // The fault just added is in the view (a box that failed to arm it is logged, not dropped).
    return reply(201, faults.view().find((v) => v.id === f.id)!);
  });
  implement(app, ctx, faultsClear, async () => {
    const removed = faults.remove();
    await faults.armedOnBoxes();
    return { removed };
  });
  implement(app, ctx, faultsRemove, async ({ params }) => {
    const n = faults.remove(params.id);
    if (!n) throw new ApiError(404, 'not_found', { message: `no fault ${params.id}` });
    await faults.armedOnBoxes();
    return { removed: n };
  });
}
