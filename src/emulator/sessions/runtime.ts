/**
 * The live side of sessions, composed: the fleet's seats (fleet/fleet.ts), the live seats
 * and their reaper (live-seats.ts), the queue (queue/queue.ts: a freed seat goes to the next
 * compatible waiter) and the webhook dispatcher (webhooks/dispatcher.ts: queue events). One
 * per emulator context. The arrows point one way (issue 19 item 3): this module imports the
 * fleet, queue and webhooks; they never import sessions/ (a depcruise rule); the routes over
 * them get what they need from sessions/register.ts.
 *
 * Session transitions (spec 3 leaves them open; docs/fidelity.md): pending at mint;
 * active when the box reports the client connected; ended on release, socket close, the
 * idle reaper (pending without heartbeat for `pendingIdleS`), the cap (`cap_seconds`
 * after connect) or the box leaving. Every end frees the seat.
 */
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { Fleet, type BoxRecord } from '../fleet/fleet.js';
import { SessionQueue, type Ticket, type TicketNeeds } from '../queue/queue.js';
import { Turnover } from '../queue/turnover.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { sessionOptions, type SessionOptions } from '../session-options.js';
import { LiveSeats } from './live-seats.js';
import { sessionSql } from './sql.js';
import type { SessionStatements } from './store.js';

export class SessionRuntime {
  readonly opts: SessionOptions;
  readonly fleet: Fleet;
  readonly queue: SessionQueue;
  readonly webhooks: WebhookDispatcher;
  readonly st: SessionStatements;
  private readonly seats: LiveSeats;
  /**
   * Told of every end of a live seat (the fleet tells the box to close the session's sockets);
   * a listener's promise settles when its part of the end is done (the box has ended it).
   */
  readonly endListeners: ((
    sessionId: string,
    boxId: string,
    reason: string,
  ) => void | Promise<void>)[] = [];
  /** Measured seat turnover behind `eta_seconds`; before a sample: default cap / seats per box. */
  readonly turnover: Turnover;

  constructor(
    private readonly ctx: EmulatorContext,
    fleet: Fleet,
  ) {
    this.opts = sessionOptions(ctx.options);
    this.st = sessionSql(ctx.db);
    this.fleet = fleet;
    this.seats = new LiveSeats(
      ctx.clock,
      this.opts.pendingIdleS,
      (id, reason) => void this.endSession(id, reason),
    );
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
    // Seats do not survive a restart: sessions a previous run left live are ended.
    const now = unixSeconds(ctx.clock);
    for (const r of this.st.liveIds.all() as { id: string }[])
      this.st.setEnded.run(now, 'restart', r.id);
  }

  /** Stop the queue, the seats' timers and the webhook deliveries (the emulator's stop). */
  async stop(): Promise<void> {
    this.queue.stop();
    this.seats.stop();
    await this.webhooks.stop();
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
    for (const sid of [...box.held]) void this.endSession(sid, 'box_gone');
    // Reservations on it vanish with it: those tickets wait again, first in line for any other seat.
    this.queue.boxLeft(boxId);
    box.reserved = 0;
    for (const b of this.fleet.liveBoxes()) this.offerSeats(b, null);
  }

  /** A mint took a seat: hold it and start the reaper. */
  seated(sessionId: string, box: BoxRecord, capSeconds: number, scope: string): void {
    this.fleet.hold(box, sessionId);
    this.seats.seat(sessionId, box.id, scope, capSeconds);
    this.turnover.load(box.id, this.fleet.free(box) === 0);
  }

  /** Live (pending or active) sessions of a scope: the plan ceiling's count (spec 7). */
  liveCount(scope: string): number {
    return this.seats.count(scope);
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
    const end = this.seats.earliestEnd(boxes.flatMap((b) => [...b.held]));
    if (end === null) return measured;
    const sure = Math.max(0, (end - this.ctx.clock.now()) / 1000);
    return measured > 0 ? Math.min(measured, sure) : sure;
  }

  private fittingBoxes(needs: TicketNeeds): BoxRecord[] {
    const pool: BoxRecord[] = [];
    for (const b of this.fleet.liveBoxes()) if (Fleet.fits(b, needs)) pool.push(b);
    return pool;
  }

  heartbeat(sessionId: string): void {
    this.seats.beat(sessionId);
    this.st.heartbeat.run(unixSeconds(this.ctx.clock), sessionId);
  }

  /** The box reports the client connected: pending -> active; the cap starts. */
  connected(sessionId: string): boolean {
    const { live, first } = this.seats.connect(sessionId);
    if (first) this.st.setActive.run(unixSeconds(this.ctx.clock), sessionId);
    return live;
  }

  /**
   * Release, socket close, reaper, cap: the session ends and its seat frees (idempotent).
   * Settles when the listeners are done: the box has ended the session (its captures are
   * final, docs/edge.md "Recording"), or could not be reached. Never rejects.
   */
  endSession(sessionId: string, reason: string): Promise<void> {
    this.st.setEnded.run(unixSeconds(this.ctx.clock), reason, sessionId);
    const boxId = this.seats.end(sessionId);
    if (boxId === null) return Promise.resolve();
    const done: Promise<void>[] = [];
    for (const fn of this.endListeners) done.push(Promise.resolve(fn(sessionId, boxId, reason)));
    if (this.fleet.releaseHeld(boxId, sessionId)) {
      this.turnover.released(boxId);
      const box = this.fleet.get(boxId);
      if (box) this.offerSeats(box, null);
    }
    return Promise.allSettled(done).then(() => undefined);
  }

  /**
   * Expire a live session's token now (`avatar trigger expire-token`): its connect is refused
   * as past `expires_at` is. A connected session is not touched (the token is a connect
   * deadline, spec 4.5): `connected`. Unknown or ended: `unknown`.
   */
  expireToken(sessionId: string): 'expired' | 'connected' | 'unknown' {
    return this.seats.expireToken(sessionId);
  }

  /** Whether the operator expired this session's token before it connected. */
  tokenExpired(sessionId: string): boolean {
    return this.seats.tokenExpired(sessionId);
  }

  isLiveSeat(sessionId: string): boolean {
    return this.seats.has(sessionId);
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
}

/** The emulator's session runtime (built once by src/emulator/services.ts). */
export function sessionRuntime(ctx: EmulatorContext): SessionRuntime {
  return ctx.services.sessions;
}
