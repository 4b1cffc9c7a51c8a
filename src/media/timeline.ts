/**
 * The session's one fMP4 timeline (spec 4.6: init once, then fragments in order): where
 * each clip goes and how its fragments are re-timed. Sequence numbers run 1, 2, 3...;
 * each track's `tfdt` only grows. A clip starts at the later of the tracks' current ends,
 * rounded up to a tick both timescales can express, and both tracks move by the same time,
 * so the clip's own audio/video sync is kept. With the live encoder every fragment ends
 * both tracks together on a 160 ms grid (encoder.ts), so the later end is both ends and a
 * join leaves no gap; the rule only matters for media made otherwise.
 */
import { retime, type Fragment, type TrackInfo } from './fmp4.js';

/** Per-track tfdt shift of one placed clip. */
export type Shift = Map<number, number>;

export class Timeline {
  private readonly ends = new Map<number, number>();
  private seq = 0;
  /** End (ms) of everything emitted so far. */
  endMs = 0;

  constructor(readonly tracks: TrackInfo[]) {}

  /** The shift that places a clip whose first fragment is `first` right after what was emitted. */
  place(first: Fragment): Shift {
    let ms = 0;
    for (const t of this.tracks)
      ms = Math.max(ms, ((this.ends.get(t.id) ?? 0) * 1000) / t.timescale);
    const tick = this.tracks.reduce((acc, t) => lcm(acc, 1000 / gcd(1000, t.timescale)), 1);
    ms = Math.ceil(ms / tick - 1e-9) * tick;
    let clipStartMs = Infinity;
    for (const ft of first.tracks)
      clipStartMs = Math.min(clipStartMs, (ft.start * 1000) / this.timescale(ft.id));
    if (!Number.isFinite(clipStartMs)) clipStartMs = 0;
    const shift: Shift = new Map();
    for (const t of this.tracks)
      shift.set(
        t.id,
        Math.round((ms * t.timescale) / 1000) - Math.round((clipStartMs * t.timescale) / 1000),
      );
    return shift;
  }

  /** Start or end (ms on the timeline) of a fragment under `shift`. */
  msOf(f: Fragment, shift: Shift, edge: 'start' | 'end'): number {
    let v = edge === 'start' ? Infinity : 0;
    for (const t of f.tracks) {
      const at =
        ((t.start + (shift.get(t.id) ?? 0) + (edge === 'end' ? t.duration : 0)) * 1000) /
        this.timescale(t.id);
      v = edge === 'start' ? Math.min(v, at) : Math.max(v, at);
    }
    return v;
  }

  /** The re-timed copy of `f` to send next, with its place on the timeline. */
  emit(f: Fragment, shift: Shift): { buf: Buffer; startMs: number; endMs: number } {
    const buf = retime(f, ++this.seq, shift);
    for (const t of f.tracks) this.ends.set(t.id, t.start + (shift.get(t.id) ?? 0) + t.duration);
    const startMs = this.msOf(f, shift, 'start');
    const endMs = this.msOf(f, shift, 'end');
    this.endMs = Math.max(this.endMs, endMs);
    return { buf, startMs, endMs };
  }

  timescale(id: number): number {
    return this.tracks.find((t) => t.id === id)?.timescale ?? 1000;
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number): number => (a * b) / gcd(a, b);
