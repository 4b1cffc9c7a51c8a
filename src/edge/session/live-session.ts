/**
 * One session live on this box: its channels, its own transcript log (for `source: live`),
 * the cap, and its end (spec 3: active while connected; ended on release, socket loss, the
 * reaper or the cap). The turn queue and its stages (turn-queue.ts) do the talking; this holds the life.
 * A session no client socket holds (driven only by POST /chat) has no socket to lose: it
 * ends when idle instead, like a minted session nobody connects to (the reaper's 60 s).
 */
import type { EdgeSentMessage, EndReason } from '../../contract/edge/messages.js';
import { type Clock, type TimerHandle } from '../../contract/clock.js';
import { CloseCode, type Channel, type Stream } from './channel.js';
import type { SessionSnapshot } from './snapshot.js';
import type { BrainRequest } from '../../models/brain.js';

export interface LoggedTurn {
  seq: number;
  user_text: string;
  reply_text: string;
  language: string | null;
  speech_id: string;
  /**
   * How the reply ended: spoken whole, cut (barge-in, or the session ended while it
   * played), text only (brain-only), or never given because the session ended first.
   */
  outcome: 'spoken' | 'interrupted' | 'text' | 'unanswered';
}

/** Why a session ended: the contract's one `EndReason` (`script`: a script's `end` step, docs/fidelity.md). */
export type { EndReason };

/** The longest WebSocket close reason (RFC 6455: 123 bytes of UTF-8). */
const CLOSE_REASON_BYTES = 123;

/** `text` cut to fit a close frame's reason, on a character boundary. */
function closeReason(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > CLOSE_REASON_BYTES) out = out.slice(0, -1);
  return out;
}

/**
 * How long a session with no client socket (only POST /chat) lives without a typed turn
 * or a reply in progress: the control plane's idle reaper default (`--pending-idle-s`).
 */
export const UNATTENDED_IDLE_MS = 60_000;

export interface LiveSessionHooks {
  /** Called once when the session ends, after its channels are closed. */
  ended(s: LiveSession, reason: EndReason): void;
}

export class LiveSession {
  readonly channels = new Set<Channel>();
  readonly log: LoggedTurn[] = [];
  /** Bracketed tool notes for the brain, never spoken (spec 6.2 step 4): after turn `afterSeq`. */
  readonly notes: { afterSeq: number; text: string }[] = [];
  /**
   * The tools the brain is told of for the next reply (conversation.ts): the session's,
   * while its tool stage would dispatch a call now; none before the box has read them.
   */
  toolsNow: () => BrainRequest['tools'] | null = () => null;
  readonly startedAt: number;
  ended: EndReason | null = null;
  endedAt: number | null = null;
  private capTimer: TimerHandle | null;
  private idleTimer: TimerHandle | null = null;
  private working = false;
  private readonly endListeners: ((reason: EndReason) => void)[] = [];

  constructor(
    readonly snapshot: SessionSnapshot,
    private readonly clock: Clock,
    private readonly hooks: LiveSessionHooks,
  ) {
    this.startedAt = clock.now();
    // spec 8 / 4.5: cap_seconds is the longest live duration; the box ends the media itself.
    this.capTimer = clock.setTimeout(() => this.end('cap'), snapshot.capSeconds * 1000);
    // Opened by /chat, or by a socket that attaches next (which disarms this).
    this.activity();
  }

  /** A typed turn or the end of a reply: the idle time of a socketless session counts from now. */
  activity(): void {
    this.idleTimer?.cancel();
    this.idleTimer = null;
    if (this.ended || this.channels.size > 0 || this.working) return;
    this.idleTimer = this.clock.setTimeout(() => this.end('idle'), UNATTENDED_IDLE_MS);
  }

  /** The turn loop is making or playing a reply (not idle), or back to listening. */
  busy(working: boolean): void {
    if (this.working === working) return;
    this.working = working;
    this.activity();
  }

  get id(): string {
    return this.snapshot.id;
  }

  /** Milliseconds since the first socket connected. */
  get clockMs(): number {
    return this.clock.now() - this.startedAt;
  }

  onEnd(fn: (reason: EndReason) => void): void {
    this.endListeners.push(fn);
  }

  attach(ch: Channel): void {
    if (this.ended) return ch.close(CloseCode.sessionEnded, 'session ended');
    this.channels.add(ch);
    this.activity();
  }

  /** A socket closed: spec 3 "the edge frees the seat when the client sockets close". */
  detach(ch: Channel): void {
    if (!this.channels.delete(ch)) return;
    if (this.channels.size === 0 && !this.ended) this.end('closed');
  }

  /** Send a JSON message once on every channel carrying any of these streams. */
  broadcast(stream: Stream | Stream[], msg: EdgeSentMessage): void {
    const want = Array.isArray(stream) ? stream : [stream];
    for (const ch of this.channels) if (want.some((w) => ch.streams.has(w))) ch.sendJson(msg);
  }

  has(stream: Stream): boolean {
    for (const ch of this.channels) if (ch.streams.has(stream)) return true;
    return false;
  }

  /** End the session; `detail` (a script's reason) follows the close reason the clients see. */
  end(reason: EndReason, detail?: string): void {
    if (this.ended) return;
    this.ended = reason;
    this.endedAt = this.clock.now();
    this.capTimer?.cancel();
    this.capTimer = null;
    this.idleTimer?.cancel();
    this.idleTimer = null;
    for (const fn of this.endListeners) {
      try {
        fn(reason);
      } catch {
        // a listener's failure must not keep the session alive
      }
    }
    const [code, why] =
      reason === 'cap'
        ? [CloseCode.sessionCap, `session_cap: cap_seconds (${this.snapshot.capSeconds} s) reached`]
        : reason === 'box_stopping'
          ? [CloseCode.goingAway, 'box_stopping']
          : reason === 'released'
            ? [CloseCode.sessionEnded, 'session_ended: released']
            : reason === 'idle'
              ? [CloseCode.sessionEnded, 'session_ended: idle']
              : reason === 'script'
                ? [CloseCode.sessionEnded, `session_ended: script${detail ? `: ${detail}` : ''}`]
                : [CloseCode.sessionEnded, 'session_ended: a client socket closed'];
    for (const ch of this.channels) ch.close(code, closeReason(why));
    this.channels.clear();
    this.hooks.ended(this, reason);
  }
}
