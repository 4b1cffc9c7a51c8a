/**
 * The time source of the turn modules (ARCHITECTURE property 3): the same shape as the
 * emulator's Clock (src/emulator/clock.ts), declared here because the edge never imports
 * the emulator. The edge passes its real clock; tests pass a ManualClock and drive it.
 */
export interface TurnClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

/** Mic frames are 100 ms (spec 4.6: 1600 samples at 16 kHz). */
export const FRAME_MS = 100;
export const FRAME_SAMPLES = 1600;
