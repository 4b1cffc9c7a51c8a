/**
 * Time for the edge (ARCHITECTURE property 3). The same shape as the control plane's
 * Clock, declared here because the edge never imports the emulator: an in-process box is
 * handed the emulator's clock (tests drive caps and token expiry with it), a box in its
 * own process uses the real one.
 */
export interface EdgeTimer {
  cancel(): void;
}

export interface EdgeClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): EdgeTimer;
}

export const realClock: EdgeClock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};
