import { ApiError } from '../http/api-error.js';
import { implement, reply } from '../http/router.js';
import {
  faultsAdd,
  faultsClear,
  faultsList,
  faultsRemove,
} from '../../contract/operations/operator.js';
import { z } from 'zod';
import { FaultSpec } from '../../contract/resources/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { operatorLog } from './log.js';

/**
 * HTTP faults (issue 18 item 6, the HTTP half; docs/testing.md "Faults"): a status and/or
 * latency injected on the routes a fault names, every time, a number of times, or with a
 * probability. Configured at start (`--faults`, `faults` on startEmulator()) or at run time
 * (`/_emulator/faults`, `avatar emulator faults`). Each hit goes to the operator log;
 * `GET /_emulator/faults` shows every fault with its hits and what is left of its count.
 * Operator routes (`/_emulator/*`) are never faulted.
 */
export { FaultSpec };

export const FaultList = z.array(FaultSpec);

export type FaultSpecInput = z.input<typeof FaultSpec>;

interface Fault extends z.output<typeof FaultSpec> {
  id: string;
  hits: number;
  method: string | null;
  pattern: RegExp;
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

  constructor(private readonly ctx: EmulatorContext) {}

  add(spec: z.output<typeof FaultSpec>): Fault {
    const f: Fault = { ...spec, id: `fault_${this.next++}`, hits: 0, ...compile(spec.route) };
    this.list.push(f);
    return f;
  }

  remove(id?: string): number {
    const before = this.list.length;
    if (id === undefined) this.list.splice(0);
    else {
      const i = this.list.findIndex((f) => f.id === id);
      if (i >= 0) this.list.splice(i, 1);
    }
    return before - this.list.length;
  }

  view(): Record<string, unknown>[] {
    return this.list.map(({ pattern: _p, method: _m, ...f }) => ({
      ...f,
      remaining: f.count === undefined ? null : f.count - f.hits,
    }));
  }

  /** The fault this request meets (counting the hit), or null. */
  hit(method: string, path: string): Fault | null {
    if (path.startsWith('/_emulator/')) return null;
    for (const f of this.list) {
      if ((f.method && f.method !== method) || !f.pattern.test(path)) continue;
      if (f.count !== undefined && f.hits >= f.count) continue;
      if (f.probability !== undefined && f.probability < 1) {
        const roll = Number.parseInt(this.ctx.ids.hex(4), 16) / 0x1_0000_0000;
        if (roll >= f.probability) continue;
      }
      f.hits++;
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
  async apply(f: Fault, path: string): Promise<Response | null> {
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

const registry = new WeakMap<EmulatorContext, Faults>();

export function faultsOf(ctx: EmulatorContext): Faults {
  let f = registry.get(ctx);
  if (!f) {
    registry.set(ctx, (f = new Faults(ctx)));
    for (const spec of FaultList.parse(ctx.options.faults ?? [])) f.add(spec);
  }
  return f;
}

export function registerFaultRoutes(app: App, ctx: EmulatorContext): void {
  const faults = faultsOf(ctx);
  implement(app, ctx, faultsList, () => ({ data: faults.view() }));
  implement(app, ctx, faultsAdd, ({ body }) => {
    const f = faults.add(body);
    return reply(
      201,
      faults.view().find((v) => v.id === f.id),
    );
  });
  implement(app, ctx, faultsClear, () => ({ removed: faults.remove() }));
  implement(app, ctx, faultsRemove, ({ params }) => {
    const n = faults.remove(params.id);
    if (!n) throw new ApiError(404, 'not_found', { message: `no fault ${params.id}` });
    return { removed: n };
  });
}
