/**
 * The greeting and its hold (spec 2 config group: `greeting_enabled` default true,
 * `greeting_hold_ms` 0..5000 default 2000, "how long the box waits for session context
 * before the first generated turn; 0 disables the hold").
 * `start()` when the session's media starts. With the greeting on, the box waits up to
 * `holdMs` for session context; `contextArrived()` ends the wait at once, and the greeting
 * is generated then (with the context). When the hold runs out, it greets without. If the
 * user speaks or types first, the greeting is dropped: the user's turn is the first turn.
 * With `holdMs` 0 the greeting is due at `start()`.
 */
import type { Clock } from '../../contract/clock.js';

export const GREETING_HOLD_DEFAULT_MS = 2000;
export const GREETING_HOLD_MAX_MS = 5000;

export type GreetingState = 'idle' | 'holding' | 'greeted' | 'skipped' | 'disabled';
/** Why the greeting is due: context came, the hold ran out, or there was no hold. */
export type GreetingReason = 'context' | 'hold-expired' | 'no-hold';

export interface GreetingHoldOptions {
  enabled?: boolean;
  holdMs?: number;
  clock: Clock;
  /** Called once when the greeting should be generated. */
  onGreet: (reason: GreetingReason) => void;
}

export class GreetingHold {
  private st: GreetingState;
  private timer: { cancel(): void } | null = null;
  readonly holdMs: number;

  constructor(private readonly opts: GreetingHoldOptions) {
    this.st = opts.enabled === false ? 'disabled' : 'idle';
    // The control plane validates the range; clamp anyway so a bad value cannot hang a session.
    const h = opts.holdMs ?? GREETING_HOLD_DEFAULT_MS;
    this.holdMs = Number.isFinite(h)
      ? Math.min(GREETING_HOLD_MAX_MS, Math.max(0, Math.round(h)))
      : GREETING_HOLD_DEFAULT_MS;
  }

  get state(): GreetingState {
    return this.st;
  }

  start(): void {
    if (this.st !== 'idle') return;
    if (this.holdMs === 0) return this.greet('no-hold');
    this.st = 'holding';
    this.timer = this.opts.clock.setTimeout(() => this.greet('hold-expired'), this.holdMs);
  }

  /** Session context arrived: a greeting on hold is due now. */
  contextArrived(): void {
    if (this.st === 'holding') this.greet('context');
  }

  /** The user spoke or typed first: no greeting. */
  userTookTurn(): void {
    if (this.st === 'idle' || this.st === 'holding') this.finish('skipped');
  }

  /** The session ended. */
  cancel(): void {
    if (this.st === 'idle' || this.st === 'holding') this.finish('skipped');
  }

  private greet(reason: GreetingReason): void {
    this.finish('greeted');
    this.opts.onGreet(reason);
  }

  private finish(st: GreetingState): void {
    this.timer?.cancel();
    this.timer = null;
    this.st = st;
  }
}
