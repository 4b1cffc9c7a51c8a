/**
 * The live seats and their reaper: every pending or active session holds one deadline, the
 * idle reaper's (pending, no heartbeat for `pendingIdleS`) and then the cap's (`cap_seconds`
 * after connect). Split from the session runtime (issue 19 item 3): it knows no fleet, queue
 * or webhooks; an expired deadline is handed to `expired`, which ends the session.
 */
import type { Clock } from '../clock.js';
import { Deadlines } from '../queue/deadlines.js';

interface LiveSeat {
  boxId: string;
  scope: string;
  lastBeat: number;
  startedAt: number | null;
  capSeconds: number;
  /** The operator expired its token before it connected (`avatar trigger expire-token`). */
  tokenExpired?: boolean;
}

export type ExpiryReason = 'idle' | 'cap';

export class LiveSeats {
  private readonly live = new Map<string, LiveSeat>();
  /** Live sessions per scope: the plan ceiling's count without a query per mint (issue 7 item 13). */
  private readonly byScope = new Map<string, number>();
  private readonly deadlines: Deadlines<string>;

  constructor(
    private readonly clock: Clock,
    private readonly pendingIdleS: number,
    expired: (sessionId: string, reason: ExpiryReason) => void,
  ) {
    this.deadlines = new Deadlines(clock, (id, now) => {
      const due = this.dueAt(id);
      if (due === null) return null;
      if (now < due) return due;
      expired(id, this.live.get(id)!.startedAt === null ? 'idle' : 'cap');
      return null;
    });
  }

  /** A mint took a seat: the session is pending and the idle reaper is armed. */
  seat(sessionId: string, boxId: string, scope: string, capSeconds: number): void {
    const now = this.clock.now();
    this.live.set(sessionId, { boxId, scope, lastBeat: now, startedAt: null, capSeconds });
    this.byScope.set(scope, (this.byScope.get(scope) ?? 0) + 1);
    this.deadlines.arm(sessionId, now + this.pendingIdleS * 1000);
  }

  /**
   * Expire a live session's token now (`avatar trigger expire-token`): its connect is refused
   * as past `expires_at` is. A connected session is not touched (the token is a connect
   * deadline, spec 4.5): `connected`. Unknown or ended: `unknown`.
   */
  expireToken(sessionId: string): 'expired' | 'connected' | 'unknown' {
    const s = this.live.get(sessionId);
    if (!s) return 'unknown';
    if (s.startedAt !== null) return 'connected';
    s.tokenExpired = true;
    return 'expired';
  }

  /** Whether the operator expired this session's token before it connected. */
  tokenExpired(sessionId: string): boolean {
    return this.live.get(sessionId)?.tokenExpired === true;
  }

  has(sessionId: string): boolean {
    return this.live.has(sessionId);
  }

  /** Live (pending or active) sessions of a scope. */
  count(scope: string): number {
    return this.byScope.get(scope) ?? 0;
  }

  /** A heartbeat: the idle reaper counts from now. */
  beat(sessionId: string): void {
    const s = this.live.get(sessionId);
    if (s) s.lastBeat = this.clock.now();
  }

  /**
   * The client connected: the cap starts (once). Returns whether the session is live and,
   * as `first`, whether this was its first connect.
   */
  connect(sessionId: string): { live: boolean; first: boolean } {
    const s = this.live.get(sessionId);
    if (!s) return { live: false, first: false };
    if (s.startedAt !== null) return { live: true, first: false };
    s.startedAt = this.clock.now();
    this.deadlines.arm(sessionId, s.startedAt + s.capSeconds * 1000);
    return { live: true, first: true };
  }

  /** The session ended: its seat is no longer live. Returns the box it held, if it was live. */
  end(sessionId: string): string | null {
    const s = this.live.get(sessionId);
    if (!s) return null;
    this.live.delete(sessionId);
    const n = (this.byScope.get(s.scope) ?? 1) - 1;
    if (n > 0) this.byScope.set(s.scope, n);
    else this.byScope.delete(s.scope);
    this.deadlines.disarm(sessionId);
    return s.boxId;
  }

  /** The earliest moment (ms) one of these sessions ends by reaper or cap; null when none is live. */
  earliestEnd(sessionIds: Iterable<string>): number | null {
    let end: number | null = null;
    for (const id of sessionIds) {
      const at = this.dueAt(id);
      if (at !== null && (end === null || at < end)) end = at;
    }
    return end;
  }

  stop(): void {
    this.deadlines.stop();
  }

  private dueAt(sessionId: string): number | null {
    const s = this.live.get(sessionId);
    if (!s) return null;
    return s.startedAt === null
      ? s.lastBeat + this.pendingIdleS * 1000
      : s.startedAt + s.capSeconds * 1000;
  }
}
