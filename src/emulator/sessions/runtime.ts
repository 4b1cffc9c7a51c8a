/**
 * The live side of sessions: seats held on boxes, the idle reaper and the session cap,
 * wired to the queue (a freed seat goes to the next compatible waiter) and to the webhook
 * dispatcher (queue events). One per emulator context.
 *
 * Session transitions (spec 3 leaves them open; docs/fidelity.md): pending at mint;
 * active when the box reports the client connected; ended on release, socket close, the
 * idle reaper (pending without heartbeat for `pendingIdleS`), the cap (`cap_seconds`
 * after connect) or the box leaving. Every end frees the seat.
 */
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { Fleet, type BoxRecord } from '../fleet/fleet.js';
import { Deadlines } from '../queue/deadlines.js';
import { SessionQueue, type Ticket, type TicketNeeds } from '../queue/queue.js';
import { Turnover } from '../queue/turnover.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { sessionOptions, type SessionOptions } from './options.js';
import { sessionStatements, type SessionStatements } from './store.js';

interface LiveSeat {
  boxId: string;
  scope: string;
  lastBeat: number;
  startedAt: number | null;
  capSeconds: number;
  /** The operator expired its token before it connected (`avatar trigger expire-token`). */
  tokenExpired?: boolean;
}

export class SessionRuntime {
  readonly opts: SessionOptions;
  readonly fleet = new Fleet();
  readonly queue: SessionQueue;
  readonly webhooks: WebhookDispatcher;
  readonly st: SessionStatements;
  private readonly live = new Map<string, LiveSeat>();
  /** Live sessions per scope: the plan ceiling's count without a query per mint (issue 7 item 13). */
  private readonly liveByScope = new Map<string, number>();
  /** Told of every end of a live seat (the fleet tells the box to close the session's sockets). */
  readonly endListeners: ((sessionId: string, boxId: string, reason: string) => void)[] = [];
  private readonly reaper: Deadlines<string>;
  /** Measured seat turnover behind `eta_seconds`; before a sample: default cap / seats per box. */
  readonly turnover: Turnover;

  constructor(private readonly ctx: EmulatorContext) {
    this.opts = sessionOptions(ctx.options);
    this.st = sessionStatements(ctx.db);
    this.turnover = new Turnover(ctx.clock, (seats) => this.opts.sessionCapS / Math.max(1, seats));
    this.webhooks = new WebhookDispatcher(ctx.db, ctx.clock, {
      retryDelaysMs: this.opts.webhookRetryDelaysMs,
      timeoutMs: this.opts.webhookTimeoutMs,
    });
    this.queue = new SessionQueue(
      ctx.clock,
      {
        ...this.opts,
        secondsPerPlace: (needs) => this.secondsPerPlace(needs),
        secondsToFirstPlace: (needs) => this.secondsToFirstPlace(needs),
      },
      {
        reservationReleased: (boxId, skip) => this.reservationReleased(boxId, skip),
        claimable: (t) =>
          this.webhooks.emit(
            'queue.claimable',
            t.workspaceId,
            {
              ticket: t.id,
              position: this.queue.position(t),
              claim_deadline: Math.floor(t.claimDeadline! / 1000),
              pod_host: this.fleet.get(t.reservedBox!)?.host ?? null,
            },
            t.notify,
          ),
        dropped: (t, reason) =>
          this.webhooks.emit('queue.dropped', t.workspaceId, { ticket: t.id, reason }, t.notify),
        position: (t, position, eta) =>
          this.webhooks.emit(
            'queue.position',
            t.workspaceId,
            { ticket: t.id, position, eta_seconds: eta },
            t.notify,
          ),
      },
    );
    this.reaper = new Deadlines(ctx.clock, (id, now) => this.reap(id, now));
    // Seats do not survive a restart: sessions a previous run left live are ended.
    const now = unixSeconds(ctx.clock);
    for (const r of this.st.liveIds.all() as { id: string }[])
      this.st.setEnded.run(now, 'restart', r.id);
    ctx.onStop(async () => {
      this.queue.stop();
      this.reaper.stop();
      await this.webhooks.stop();
    });
  }

  /** A box registered (or re-registered): its free seats go to waiters first. */
  boxRegistered(box: BoxRecord): void {
    this.offerSeats(box, null);
  }

  /** A box left: its sessions end; tickets reserved on it go back to waiting elsewhere. */
  boxGone(boxId: string): void {
    const box = this.fleet.get(boxId);
    if (!box) return;
    box.live = false;
    for (const sid of [...box.held]) this.endSession(sid, 'box_gone');
    // Reservations on it vanish with it: those tickets wait again, first in line for any other seat.
    this.queue.boxLeft(boxId);
    box.reserved = 0;
    for (const b of this.fleet.liveBoxes()) this.offerSeats(b, null);
  }

  /** A mint took a seat: hold it and start the reaper. */
  seated(sessionId: string, box: BoxRecord, capSeconds: number, scope: string): void {
    this.fleet.hold(box, sessionId);
    const now = this.ctx.clock.now();
    this.live.set(sessionId, { boxId: box.id, scope, lastBeat: now, startedAt: null, capSeconds });
    this.liveByScope.set(scope, (this.liveByScope.get(scope) ?? 0) + 1);
    this.reaper.arm(sessionId, now + this.opts.pendingIdleS * 1000);
    this.turnover.load(box.id, this.fleet.free(box) === 0);
  }

  /** Live (pending or active) sessions of a scope: the plan ceiling's count (spec 7). */
  liveCount(scope: string): number {
    return this.liveByScope.get(scope) ?? 0;
  }

  /** Seconds between seat frees among the live boxes that fit (spec 4.5 `eta_seconds`). */
  secondsPerPlace(needs: TicketNeeds): number {
    return this.turnover.secondsPerSeat(this.fittingBoxes(needs));
  }

  /**
   * Seconds until the fitting boxes likely free their next seat (counts down while waiting).
   * A held seat surely frees by its session's deadline (the idle reaper for a session that
   * never connected, the cap for one that did): the ETA never runs past the earliest one, and
   * when the measured turnover has run out it counts down to that deadline instead of
   * reading "about 1 s" until the reaper comes (issue 19 item 4).
   */
  secondsToFirstPlace(needs: TicketNeeds): number {
    const boxes = this.fittingBoxes(needs);
    const measured = this.turnover.secondsToNextSeat(boxes);
    const end = this.earliestEnd(boxes);
    if (end === null) return measured;
    const sure = Math.max(0, (end - this.ctx.clock.now()) / 1000);
    return measured > 0 ? Math.min(measured, sure) : sure;
  }

  /** The earliest moment (ms) a session held on these boxes ends by reaper or cap; null when none. */
  private earliestEnd(boxes: BoxRecord[]): number | null {
    let end: number | null = null;
    for (const b of boxes) {
      for (const id of b.held) {
        const s = this.live.get(id);
        if (!s) continue;
        const at =
          s.startedAt === null
            ? s.lastBeat + this.opts.pendingIdleS * 1000
            : s.startedAt + s.capSeconds * 1000;
        if (end === null || at < end) end = at;
      }
    }
    return end;
  }

  private fittingBoxes(needs: TicketNeeds): BoxRecord[] {
    const pool: BoxRecord[] = [];
    for (const b of this.fleet.liveBoxes()) if (Fleet.fits(b, needs)) pool.push(b);
    return pool;
  }

  heartbeat(sessionId: string): void {
    const s = this.live.get(sessionId);
    if (s) s.lastBeat = this.ctx.clock.now();
    this.st.heartbeat.run(unixSeconds(this.ctx.clock), sessionId);
  }

  /** The box reports the client connected: pending -> active; the cap starts. */
  connected(sessionId: string): boolean {
    const s = this.live.get(sessionId);
    if (!s) return false;
    if (s.startedAt === null) {
      s.startedAt = this.ctx.clock.now();
      this.st.setActive.run(unixSeconds(this.ctx.clock), sessionId);
      this.reaper.arm(sessionId, s.startedAt + s.capSeconds * 1000);
    }
    return true;
  }

  /** Release, socket close, reaper, cap: the session ends and its seat frees (idempotent). */
  endSession(sessionId: string, reason: string): void {
    this.st.setEnded.run(unixSeconds(this.ctx.clock), reason, sessionId);
    const s = this.live.get(sessionId);
    if (!s) return;
    this.live.delete(sessionId);
    const n = (this.liveByScope.get(s.scope) ?? 1) - 1;
    if (n > 0) this.liveByScope.set(s.scope, n);
    else this.liveByScope.delete(s.scope);
    this.reaper.disarm(sessionId);
    for (const fn of this.endListeners) fn(sessionId, s.boxId, reason);
    if (this.fleet.releaseHeld(s.boxId, sessionId)) {
      this.turnover.released(s.boxId);
      const box = this.fleet.get(s.boxId);
      if (box) this.offerSeats(box, null);
    }
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

  isLiveSeat(sessionId: string): boolean {
    return this.live.has(sessionId);
  }

  /**
   * Offer every free seat of a box to the line, in order (spec 3 "a seat frees"). `skip` is
   * a ticket whose claim window just lapsed: the seat goes to the next fitting waiter first,
   * and when none fits it is offered to that ticket again at once (its second window), so
   * a free seat never sits idle while a fitting ticket waits (issue 7 item 1).
   */
  offerSeats(box: BoxRecord, skip: Ticket | null): void {
    const candidate = { id: box.id, fits: (n: TicketNeeds) => Fleet.fits(box, n) };
    while (this.fleet.free(box) > 0) {
      const t =
        this.queue.offer(candidate, skip) ?? (skip ? this.queue.offer(candidate, null) : null);
      if (!t) break;
      box.reserved++;
    }
    this.turnover.load(box.id, this.fleet.free(box) === 0);
  }

  /**
   * A free seat for a fresh mint, after every fitting waiter got its due: a mint without a
   * ticket joins behind fitting waiters (spec 3 line order, issue 7 item 1). Seats are
   * offered to the line whenever they free, so this only finds work when needs differ.
   */
  freeSeatAfterLine(needs: TicketNeeds): BoxRecord | null {
    const box = this.fleet.findFreeSeat(needs);
    if (!box || this.queue.waiting === 0) return box;
    for (const b of this.fleet.liveBoxes())
      if (this.fleet.free(b) > 0 && Fleet.fits(b, needs)) this.offerSeats(b, null);
    return this.fleet.findFreeSeat(needs);
  }

  /** A claim turned a reservation into a held seat. */
  claimReservation(boxId: string): BoxRecord | undefined {
    const box = this.fleet.get(boxId);
    if (box) box.reserved = Math.max(0, box.reserved - 1);
    return box;
  }

  private reservationReleased(boxId: string, skip: Ticket | null): void {
    const box = this.fleet.get(boxId);
    if (!box) return;
    box.reserved = Math.max(0, box.reserved - 1);
    this.offerSeats(box, skip);
  }

  private reap(id: string, now: number): number | null {
    const s = this.live.get(id);
    if (!s) return null;
    if (s.startedAt === null) {
      const due = s.lastBeat + this.opts.pendingIdleS * 1000;
      if (now < due) return due;
      this.endSession(id, 'idle');
      return null;
    }
    const capAt = s.startedAt + s.capSeconds * 1000;
    if (now < capAt) return capAt;
    this.endSession(id, 'cap');
    return null;
  }
}

const runtimes = new WeakMap<EmulatorContext, SessionRuntime>();

/** The context's session runtime, created on first use. */
export function sessionRuntime(ctx: EmulatorContext): SessionRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) runtimes.set(ctx, (rt = new SessionRuntime(ctx)));
  return rt;
}
