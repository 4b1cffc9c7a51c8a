/**
 * The tool calls whose follow-up line is due (issue 29 item 4). After a user turn the box may
 * call a tool (`agent_event` `calling`); when the result comes back and the user has stayed
 * silent, the avatar speaks a follow-up line: a `turn` with empty user text (docs/tools.md).
 * A typed line sent before it arrives cuts it (the user spoke: the result only colours the
 * next reply), so `sessions live` holds its next line while a follow-up is due.
 *
 * A call stops being due when:
 * - an avatar line arrives that is not its filler (the follow-up, or the apology of a call
 *   that failed). A filler (the tool's `cover_line`, played while the call is slow) can only
 *   come before the result, so after an `image`/`image_pending` event the next line is the
 *   follow-up;
 * - a user turn commits after the call's own (the box then colours the next reply instead
 *   of speaking a line). The box may send `calling` before the `turn` that caused it;
 * - the wait runs out: the box holds a call 30 s (spec 8) and then drops it silently.
 */
import { BUILTIN_SERVERS } from '../../contract/builtins.js';

/** The box's hold (spec 8: 30 s) and a margin for the line to be worded and sent. */
export const FOLLOW_UP_WAIT_MS = 35_000;

/** The filler the emulator's box says for a tool with no `cover_line` (docs/fidelity.md "Tools"). */
const DEFAULT_COVER_LINE = 'One moment, I am looking into that.';

/** Cover lines of the built-in tools and of these tool definitions (the mint's inline tools). */
export function coverLinesOf(defs: readonly unknown[] = []): string[] {
  const lines = new Set([DEFAULT_COVER_LINE]);
  for (const d of [...Object.values(BUILTIN_SERVERS).flat(), ...defs]) {
    const line = (d as { cover_line?: unknown } | null)?.cover_line;
    if (typeof line === 'string' && line.trim()) lines.add(line.trim());
  }
  return [...lines];
}

export interface DueCall {
  callId: string;
  tool: string;
  /** Its result event (`image`, `image_pending`) was seen: no filler can come any more. */
  answered: boolean;
}

/** How a due call stopped being due. */
export type Settled =
  | { how: 'line'; call: DueCall }
  | { how: 'user_spoke'; call: DueCall }
  | { how: 'timeout'; call: DueCall };

/** What an avatar line is to the calls: the follow-up of one, a filler, or neither. */
export type AvatarLine = { kind: 'follow_up' | 'filler'; call: DueCall } | undefined;

export interface FollowUpsOptions {
  coverLines: readonly string[];
  waitMs?: number;
  /** Timers (the runner's): start one, and cancel it. */
  setTimer(fn: () => void, ms: number): () => void;
  onSettled(s: Settled): void;
}

export class FollowUps {
  private readonly calls = new Map<
    string,
    { call: DueCall; cancel: () => void; ownTurnPending: boolean }
  >();
  readonly waitMs: number;

  constructor(private readonly o: FollowUpsOptions) {
    this.waitMs = o.waitMs ?? FOLLOW_UP_WAIT_MS;
  }

  /** A follow-up is due (pacing holds the next line). */
  get due(): DueCall | undefined {
    return this.calls.values().next().value?.call;
  }

  /**
   * `agent_event` `calling`. `ownTurnPending`: a user turn was under way (typed and not yet
   * back, or heard in part): this call is that turn's, and its `turn` does not end the wait.
   */
  calling(callId: string, tool: string, ownTurnPending: boolean): void {
    if (this.calls.has(callId)) return;
    const call: DueCall = { callId, tool, answered: false };
    const cancel = this.o.setTimer(() => this.settle(callId, 'timeout'), this.waitMs);
    this.calls.set(callId, { call, cancel, ownTurnPending });
  }

  /** `agent_event` `image` / `image_pending`: the call has its answer. */
  answered(callId: string): void {
    const c = this.calls.get(callId);
    if (c) c.call.answered = true;
  }

  /** A `turn` with empty user text that is not the greeting: what it is to the due calls. */
  avatarLine(reply: string): AvatarLine {
    const c = this.due;
    if (!c) return undefined;
    if (!c.answered && this.o.coverLines.includes(reply.trim())) return { kind: 'filler', call: c };
    this.settle(c.callId, 'line');
    return { kind: 'follow_up', call: c };
  }

  /** A user turn committed: after a call's own, the box colours the next reply with its result instead. */
  userSpoke(): void {
    for (const [id, c] of [...this.calls]) {
      if (c.ownTurnPending) c.ownTurnPending = false;
      else this.settle(id, 'user_spoke');
    }
  }

  /** The session ends: nothing is waited for any more. */
  clear(): void {
    for (const c of this.calls.values()) c.cancel();
    this.calls.clear();
  }

  private settle(callId: string, how: Settled['how']): void {
    const c = this.calls.get(callId);
    if (!c) return;
    c.cancel();
    this.calls.delete(callId);
    this.o.onSettled({ how, call: c.call });
  }
}
