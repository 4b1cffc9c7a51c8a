/**
 * The session queue's state machine (spec 3 "Queue ticket", 4.5, 6.3, 8), pure and
 * clock-driven: no HTTP, no database. Seats are the caller's business: the queue is told
 * when a seat is offered (`offer`) and tells its hooks when a reservation is released.
 *
 *   (none)   --mint, every seat occupied-->  waiting
 *   waiting  --a seat frees (reserved)--->   claimable (claim_deadline; queue.claimable)
 *   claimable --re-POST with the ticket-->   (session created)
 *   claimable --claim window lapses------->  waiting (first lapse; the runtime offers the seat to the
 *                                            next fitting waiter, else to this ticket again: its second
 *                                            window) / expired (second lapse: dropped `lapsed`)
 *   waiting|claimable --no touch for idle->  expired (dropped `idle`)
 *   waiting|claimable --DELETE------------>  expired (reserved seat passes on)
 *   waiting|claimable --operator drain---->  expired (dropped `drained`)
 *   waiting|claimable --operator drop----->  expired (dropped `lapsed`, `idle` or `drained`: a trigger)
 */
import type { Clock } from '../clock.js';
import { Deadlines } from './deadlines.js';
import { Line } from './line.js';

export type DropReason = 'lapsed' | 'idle' | 'drained';

/** What a ticket's mint needs from a box (spec 7: protocol and custom-avatar support). */
export interface TicketNeeds {
  /** The wire protocols offered (spec 4.5 `protocol_versions`; `[1]` when absent), highest first: a box speaking any one fits. */
  protocols: number[];
  custom: boolean;
}

export interface NotifyTarget {
  url: string;
  secret?: string;
}

export interface Ticket {
  id: string;
  /** Who may read or claim it: a workspace id, or `user:<id>` for a workspace-less key. */
  scope: string;
  workspaceId: string | null;
  needs: TicketNeeds;
  state: 'waiting' | 'claimable';
  seq: number;
  lapses: number;
  lastTouch: number;
  notify: NotifyTarget | null;
  /** Box whose seat is reserved while claimable. */
  reservedBox: string | null;
  claimDeadline: number | null;
  /** Workspace endpoints or a notify block want queue.position for it. */
  wantsPosition: boolean;
  lastPositionSent: number | null;
  lastPositionAt: number;
}

export interface QueueTimers {
  claimWindowS: number;
  waiterIdleS: number;
  notifyIdleS: number;
  queueRetryAfterS: number;
  positionWebhookIntervalS: number;
  /** Measured seconds between seat frees in the pool of boxes that fit these needs (turnover.ts). */
  secondsPerPlace: (needs: TicketNeeds) => number;
  /** Seconds until the first place frees (counts down while waiting); default secondsPerPlace. */
  secondsToFirstPlace?: (needs: TicketNeeds) => number;
}

export interface QueueHooks {
  /** A claimable ticket left: its reserved seat on `boxId` goes back (to the next compatible waiter). */
  reservationReleased(boxId: string, skip: Ticket | null): void;
  claimable(t: Ticket): void;
  dropped(t: Ticket, reason: DropReason): void;
  position(t: Ticket, position: number, etaSeconds: number | null): void;
}

export interface TicketView {
  state: 'waiting' | 'claimable' | 'expired';
  position?: number;
  eta_seconds?: number | null;
  claim_deadline?: number;
  retry_after: number;
}

export class SessionQueue {
  private readonly tickets = new Map<string, Ticket>();
  private readonly line = new Line<Ticket>();
  private readonly deadlines: Deadlines<string>;
  private readonly positionWatch = new Set<Ticket>();
  /** Tickets holding a reserved seat (at most the fleet's seats). */
  private readonly claimables = new Set<Ticket>();
  private readonly positionTimer: Deadlines<'sweep'>;

  constructor(
    private readonly clock: Clock,
    private readonly timers: QueueTimers,
    private readonly hooks: QueueHooks,
  ) {
    this.deadlines = new Deadlines(clock, (id, now) => this.check(id, now));
    this.positionTimer = new Deadlines(clock, () => {
      this.sweepPositions();
      return null;
    });
  }

  get size(): number {
    return this.tickets.size;
  }

  get waiting(): number {
    return this.line.countedSize;
  }

  /**
   * The ticket as of now. A deadline already past is applied first (lapse or idle expiry),
   * so a late timer can never let a read revive, or a re-POST claim, a ticket past its
   * deadline (spec 3: the claim counts only "before claim_deadline").
   */
  get(id: string): Ticket | undefined {
    const t = this.tickets.get(id);
    if (!t) return undefined;
    const now = this.clock.now();
    if (now >= this.nextDeadline(t)) {
      const next = this.check(id, now);
      if (next !== null) this.deadlines.arm(id, next);
    }
    return this.tickets.get(id);
  }

  /** spec 3: (none) -> waiting, at the back of the line. */
  admit(
    t: Omit<
      Ticket,
      | 'seq'
      | 'state'
      | 'lapses'
      | 'lastTouch'
      | 'reservedBox'
      | 'claimDeadline'
      | 'lastPositionSent'
      | 'lastPositionAt'
    >,
  ): Ticket {
    const now = this.clock.now();
    const ticket: Ticket = {
      ...t,
      seq: 0,
      state: 'waiting',
      lapses: 0,
      lastTouch: now,
      reservedBox: null,
      claimDeadline: null,
      lastPositionSent: null,
      lastPositionAt: -Infinity,
    };
    this.tickets.set(ticket.id, ticket);
    this.line.admit(ticket);
    ticket.lastPositionSent = this.line.rank(ticket);
    if (ticket.wantsPosition) this.positionWatch.add(ticket);
    this.deadlines.arm(ticket.id, this.idleDeadline(ticket));
    return ticket;
  }

  /** A poll, re-POST or status read (spec 4.5: "counts as a liveness touch"). */
  touch(t: Ticket): void {
    t.lastTouch = this.clock.now();
  }

  /**
   * A seat on a box frees (or a box registers): reserve it for the first waiting ticket,
   * in line order, whose needs the box meets. Returns the ticket, or null when none fits.
   */
  offer(
    box: { id: string; fits: (n: TicketNeeds) => boolean },
    skip: Ticket | null = null,
  ): Ticket | null {
    for (const t of this.line.inOrder()) {
      if (t.state !== 'waiting' || t === skip || !box.fits(t.needs)) continue;
      this.makeClaimable(t, box.id);
      return t;
    }
    return null;
  }

  /** The re-POST with a claimable ticket is the claim: the ticket leaves, its seat becomes the session's. */
  claim(t: Ticket): string {
    const box = t.reservedBox!;
    t.reservedBox = null;
    this.leave(t);
    return box;
  }

  /** spec 4.5 DELETE: any state -> expired; the reserved seat passes on. No event. */
  cancel(id: string): void {
    const t = this.tickets.get(id);
    if (t) this.expire(t, null);
  }

  /**
   * A box left: tickets holding a reservation there go back to waiting in their place (no
   * lapse counted; the seat vanished, the caller did nothing wrong). The caller offers other
   * boxes' seats afterwards.
   */
  boxLeft(boxId: string): Ticket[] {
    const moved = [...this.claimables].filter((t) => t.reservedBox === boxId);
    for (const t of moved) {
      t.state = 'waiting';
      t.reservedBox = null;
      t.claimDeadline = null;
      this.claimables.delete(t);
      this.line.setCounted(t, true);
      this.deadlines.arm(t.id, this.idleDeadline(t));
    }
    if (moved.length > 0) this.linesMoved();
    return moved;
  }

  /** Operator drain: every ticket -> expired, `queue.dropped` reason `drained`. */
  drain(): number {
    const all = [...this.tickets.values()];
    for (const t of all) this.expire(t, 'drained');
    return all.length;
  }

  /**
   * Operator trigger: drop one ticket (the one named, else the oldest) as if `reason` had
   * happened to it: expired, `queue.dropped` with that reason, a reserved seat passes on.
   * Returns the ticket, or null when there is none.
   */
  drop(id: string | null, reason: DropReason): Ticket | null {
    const t = id === null ? this.tickets.values().next().value : this.tickets.get(id);
    if (!t) return null;
    this.expire(t, reason);
    return t;
  }

  /** The status view of spec 4.5 (also the 202 body's queue fields). */
  view(t: Ticket | undefined): TicketView {
    if (!t) return { state: 'expired', retry_after: this.timers.queueRetryAfterS };
    const position = this.position(t);
    const v: TicketView = {
      state: t.state,
      position,
      eta_seconds: this.eta(position, t.needs),
      retry_after: 0,
    };
    if (t.state === 'claimable') v.claim_deadline = Math.floor(t.claimDeadline! / 1000);
    else v.retry_after = this.timers.queueRetryAfterS;
    return v;
  }

  /** Waiting: 1 + waiting tickets ahead. Claimable: 0 (its seat is already reserved). */
  position(t: Ticket): number {
    return t.state === 'claimable' ? 0 : this.line.rank(t);
  }

  /**
   * Seconds until a seat is likely (spec 4.5: measured, advisory, never 0): the time until
   * the boxes that fit free their next seat (which counts down while the line waits), plus
   * the measured seconds between seat frees for every place further back. A claimable
   * ticket's seat is already reserved: 1 (spec 4.5: a claimable ticket still shows a
   * nonzero ETA).
   */
  eta(position: number, needs: TicketNeeds): number {
    if (position <= 0) return 1;
    const per = this.timers.secondsPerPlace(needs);
    const first = this.timers.secondsToFirstPlace?.(needs) ?? per;
    return Math.max(1, Math.ceil(first + (position - 1) * per));
  }

  /** A workspace endpoint subscribing to queue.position appeared: watch that workspace's tickets. */
  watchPositions(pred: (t: Ticket) => boolean): void {
    for (const t of this.tickets.values()) {
      if (pred(t)) {
        t.wantsPosition = true;
        this.positionWatch.add(t);
      }
    }
  }

  stop(): void {
    this.deadlines.stop();
    this.positionTimer.stop();
  }

  private makeClaimable(t: Ticket, boxId: string): void {
    const now = this.clock.now();
    t.state = 'claimable';
    this.claimables.add(t);
    t.reservedBox = boxId;
    t.claimDeadline = now + this.timers.claimWindowS * 1000;
    this.line.setCounted(t, false);
    this.deadlines.arm(t.id, Math.min(t.claimDeadline, this.idleDeadline(t)));
    this.hooks.claimable(t);
    this.linesMoved();
  }

  private nextDeadline(t: Ticket): number {
    return t.state === 'claimable'
      ? Math.min(t.claimDeadline!, this.idleDeadline(t))
      : this.idleDeadline(t);
  }

  private idleDeadline(t: Ticket): number {
    return t.lastTouch + (t.notify ? this.timers.notifyIdleS : this.timers.waiterIdleS) * 1000;
  }

  /** A ticket's deadline fell due: idle expiry or a claim lapse; otherwise the next deadline. */
  private check(id: string, now: number): number | null {
    const t = this.tickets.get(id);
    if (!t) return null;
    if (now >= this.idleDeadline(t)) {
      this.expire(t, 'idle');
      return null;
    }
    if (t.state === 'claimable' && now >= t.claimDeadline!) {
      this.lapse(t);
      if (!this.tickets.has(id)) return null;
    }
    return this.nextDeadline(t);
  }

  /** spec 3: the claim window lapses -> waiting (keeps its place), or dropped on the second lapse. */
  private lapse(t: Ticket): void {
    t.lapses++;
    if (t.lapses >= 2) {
      this.expire(t, 'lapsed');
      return;
    }
    const box = t.reservedBox!;
    t.state = 'waiting';
    t.reservedBox = null;
    t.claimDeadline = null;
    this.claimables.delete(t);
    this.line.setCounted(t, true);
    // "seat goes to next waiter": not back to the ticket that just let it lapse.
    this.hooks.reservationReleased(box, t);
    this.linesMoved();
  }

  private expire(t: Ticket, reason: DropReason | null): void {
    const box = t.reservedBox;
    t.reservedBox = null;
    this.leave(t);
    if (reason) this.hooks.dropped(t, reason);
    if (box) this.hooks.reservationReleased(box, null);
  }

  private leave(t: Ticket): void {
    if (!this.tickets.delete(t.id)) return;
    this.claimables.delete(t);
    this.line.remove(t);
    this.deadlines.disarm(t.id);
    this.positionWatch.delete(t);
    this.linesMoved();
  }

  /** The line changed: positions behind may have moved (queue.position, spec 6.3). */
  private linesMoved(): void {
    if (this.positionWatch.size > 0) this.positionTimer.arm('sweep', this.clock.now());
  }

  /** At most one queue.position per interval per ticket, and only when the value moved. */
  private sweepPositions(): void {
    const now = this.clock.now();
    const interval = this.timers.positionWebhookIntervalS * 1000;
    let nextDue = Infinity;
    for (const t of this.positionWatch) {
      if (t.state !== 'waiting') continue;
      const p = this.line.rank(t);
      if (p === t.lastPositionSent) continue;
      if (now - t.lastPositionAt < interval) {
        nextDue = Math.min(nextDue, t.lastPositionAt + interval);
        continue;
      }
      t.lastPositionSent = p;
      t.lastPositionAt = now;
      this.hooks.position(t, p, this.eta(p, t.needs));
    }
    if (nextDue !== Infinity) this.positionTimer.arm('sweep', nextDue);
  }
}
