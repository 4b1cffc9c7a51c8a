/**
 * Measured seat turnover, the basis of `eta_seconds` (spec 4.5: "measured and advisory";
 * issue 7 item 2).
 *
 * A sample is how long a full box took to free a seat: from the moment it filled up (or
 * its previous release while full) to the next session end on it. That is exactly the
 * wait of the first ticket in line for that box, so idle stretches (a box with free seats
 * frees nothing because nobody uses it) never inflate the figure. Samples feed an
 * exponentially weighted mean per box; a pool of boxes that fit a ticket frees seats at
 * the sum of their rates. Before a box has a sample it is assumed to free a seat every
 * `fallbackS(seats)` seconds (the runtime passes default session cap / seats).
 */
import type { Clock } from '../clock.js';

/** Weight of the newest sample: recent turnover counts most, one odd session does not rule. */
const ALPHA = 0.3;

interface BoxTurnover {
  fullSince: number | null;
  /** Mean seconds between seat frees while full, or null before the first sample. */
  mean: number | null;
}

export class Turnover {
  private readonly boxes = new Map<string, BoxTurnover>();

  constructor(
    private readonly clock: Clock,
    private readonly fallbackS: (seats: number) => number,
  ) {}

  /** The box's load changed: note when it became full (every seat held or reserved). */
  load(boxId: string, full: boolean): void {
    const b = this.entry(boxId);
    if (!full) b.fullSince = null;
    else if (b.fullSince === null) b.fullSince = this.clock.now();
  }

  /** A session ended on the box and freed a seat: one sample when the box was full. */
  released(boxId: string): void {
    const b = this.entry(boxId);
    if (b.fullSince === null) return;
    const gap = Math.max(0, this.clock.now() - b.fullSince) / 1000;
    b.mean = b.mean === null ? gap : b.mean * (1 - ALPHA) + gap * ALPHA;
    b.fullSince = null;
  }

  /** Seconds between seat frees in a pool of boxes (sum of rates); at least 1. */
  secondsPerSeat(pool: { id: string; seats: number }[]): number {
    let rate = 0;
    let seats = 0;
    for (const box of pool) {
      if (box.seats <= 0) continue;
      seats += box.seats;
      const mean = this.boxes.get(box.id)?.mean ?? this.fallbackS(box.seats);
      rate += 1 / Math.max(1, mean);
    }
    return rate > 0 ? Math.max(1, 1 / rate) : Math.max(1, this.fallbackS(Math.max(1, seats)));
  }

  /**
   * Seconds until the pool likely frees its next seat: the seconds between frees, less the
   * time the pool has already waited since its last fill or release (the most recent of
   * its full boxes), so an ETA counts down while nothing happens instead of standing still.
   * 0 when the wait is already past the mean (the caller keeps the ETA nonzero).
   */
  secondsToNextSeat(pool: { id: string; seats: number }[]): number {
    const per = this.secondsPerSeat(pool);
    let since: number | null = null;
    for (const box of pool) {
      const full = this.boxes.get(box.id)?.fullSince ?? null;
      if (full !== null && (since === null || full > since)) since = full;
    }
    if (since === null) return per;
    return Math.max(0, per - Math.max(0, this.clock.now() - since) / 1000);
  }

  private entry(boxId: string): BoxTurnover {
    let b = this.boxes.get(boxId);
    if (!b) this.boxes.set(boxId, (b = { fullSince: null, mean: null }));
    return b;
  }
}
