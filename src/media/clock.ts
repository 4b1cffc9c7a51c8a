/**
 * Time for real-time media pacing (COMMON house rule: the edge's pacing may use a clock
 * abstraction with a real default). Structurally the same as the emulator's Clock, so a
 * test's ManualClock drives a session stream too.
 */
export interface MediaClock {
  /** Milliseconds on a monotonic scale (only differences matter). */
  now(): number;
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

export const realMediaClock: MediaClock = {
  now: () => performance.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(t) };
  },
};
