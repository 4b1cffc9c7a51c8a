/**
 * Webhook delivery (spec 6.3, 5.8): envelope `{ event, workspace_id, data, timestamp }`
 * (milliseconds), `x-signature-256: sha256=<hex>` HMAC-SHA256 of the raw body, attempts
 * at once, after 2 s and after 5 s (offsets from the event; options.webhookRetryDelaysMs).
 * Best-effort: a delivery that fails every attempt is given up. Retries wait on the
 * injected clock, so tests drive them with a ManualClock.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { subscribes } from '../../contract/resources/webhook.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { Db } from '../db/database.js';
import { webhookSql } from './sql.js';

export interface DeliveryTarget {
  url: string;
  secret: string | null;
  /** `notify` (per-mint block) or the workspace endpoint id. */
  via: string;
}

export interface DeliveryRecord {
  id: number;
  event: string;
  url: string;
  via: string;
  attempts: { at: number; status: number | null; error?: string }[];
  outcome: 'pending' | 'delivered' | 'failed';
}

export function signBody(secret: string, raw: string | Uint8Array): string {
  return 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
}

export class WebhookDispatcher {
  private readonly agent = new Agent({ keepAliveTimeout: 5_000 });
  private readonly timers = new Set<TimerHandle>();
  private readonly log: DeliveryRecord[] = [];
  private nextId = 1;
  private stopped = false;
  /** Told of every event emitted, delivered or not (the operator log, issue 18 item 9). */
  readonly emitted: ((
    event: string,
    workspaceId: string | null,
    data: Record<string, unknown>,
  ) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly opts: { retryDelaysMs: number[]; timeoutMs: number; logLimit?: number },
  ) {}

  /** Workspace endpoints subscribed to an event (spec 6.3: `queue.*` or the single name). */
  endpointsFor(workspaceId: string | null, event: string): DeliveryTarget[] {
    if (!workspaceId) return [];
    const rows = webhookSql(this.db).listActiveWebhooksByWorkspaceId.all(workspaceId) as {
      id: string;
      url: string;
      secret: string;
      events: string;
    }[];
    return rows
      .filter((r) => subscribes(JSON.parse(r.events) as string[], event))
      .map((r) => ({ url: r.url, secret: r.secret, via: r.id }));
  }

  /** Send one event to the per-mint notify block (if any) and every subscribed endpoint. */
  emit(
    event: string,
    workspaceId: string | null,
    data: Record<string, unknown>,
    notify: { url: string; secret?: string } | null,
    /** Attempt offsets from the event, when the event has its own (tool webhooks: spec 6.3). */
    delaysMs: number[] = this.opts.retryDelaysMs,
  ): void {
    if (this.stopped) return;
    for (const fn of this.emitted) fn(event, workspaceId, data);
    const targets = this.endpointsFor(workspaceId, event);
    if (notify) targets.unshift({ url: notify.url, secret: notify.secret ?? null, via: 'notify' });
    if (targets.length === 0) return;
    const at = this.clock.now();
    const body = JSON.stringify({ event, workspace_id: workspaceId, data, timestamp: at });
    for (const t of targets) this.deliver(event, t, body, at, delaysMs);
  }

  deliveries(): DeliveryRecord[] {
    return [...this.log];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    // Best-effort delivery (spec 6.3): attempts in flight are abandoned, not awaited, so a
    // receiver that never answers cannot hold the emulator's stop for the attempt timeout.
    await this.agent.destroy();
  }

  private deliver(
    event: string,
    target: DeliveryTarget,
    body: string,
    eventAt: number,
    delaysMs: number[],
  ): void {
    const rec: DeliveryRecord = {
      id: this.nextId++,
      event,
      url: target.url,
      via: target.via,
      attempts: [],
      outcome: 'pending',
    };
    this.log.push(rec);
    if (this.log.length > (this.opts.logLimit ?? 1000)) this.log.shift();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'avatar-webhooks/1',
    };
    if (target.secret) headers['x-signature-256'] = signBody(target.secret, body);
    const attempt = async (n: number): Promise<void> => {
      if (this.stopped) return;
      const entry: DeliveryRecord['attempts'][number] = { at: this.clock.now(), status: null };
      rec.attempts.push(entry);
      try {
        const res = await request(target.url, {
          method: 'POST',
          headers,
          body,
          dispatcher: this.agent,
          headersTimeout: this.opts.timeoutMs,
          bodyTimeout: this.opts.timeoutMs,
        });
        await res.body.dump();
        entry.status = res.statusCode;
        if (res.statusCode >= 200 && res.statusCode < 300) {
          rec.outcome = 'delivered';
          return;
        }
      } catch (err) {
        entry.error = (err as Error).message;
      }
      const next = delaysMs[n + 1];
      if (next === undefined || this.stopped) {
        rec.outcome = 'failed';
        return;
      }
      const h = this.clock.setTimeout(
        () => {
          this.timers.delete(h);
          void attempt(n + 1);
        },
        Math.max(0, eventAt + next - this.clock.now()),
      );
      this.timers.add(h);
    };
    void attempt(0);
  }
}
