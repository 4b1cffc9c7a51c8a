/**
 * The one clock interface (ARCHITECTURE property 3: time is injected). Domain code asks a
 * Clock for `now()` and for timers; production passes a real clock, tests pass the
 * emulator's ManualClock and drive it. It lives in the contract, the lowest layer, so the
 * emulator, the edge, models and media share it without importing each other.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds: since the Unix epoch for `systemClock`, on a monotonic scale for `monotonicClock`. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

export const unixSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);

function realTimer(fn: () => void, ms: number, keepAlive: boolean): TimerHandle {
  const t = setTimeout(fn, Math.max(0, ms));
  if (!keepAlive) t.unref?.();
  return { cancel: () => clearTimeout(t) };
}

/** Wall-clock time; its timers never keep the process alive (token expiry, reapers, caps). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => realTimer(fn, ms, false),
};

/**
 * Monotonic time for real-time media pacing (only differences matter); its timers keep
 * the process alive while a stream is being paced.
 */
export const monotonicClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => realTimer(fn, ms, true),
};
