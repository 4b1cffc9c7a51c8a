/**
 * The box's half of the tool-call lifecycle (spec 6.2), one post-commit stage. After a
 * user turn commits (never a speculative or avatar-initiated one), the verdict picks at
 * most one tool; the stage broadcasts `calling` on /events, dispatches the call (the
 * gateway, or the box's own built-ins), and when the result comes back appends a
 * bracketed note to the conversation (never spoken), then:
 * - the user stayed silent and the result is under 60 s old: a follow-up line is spoken;
 * - the user spoke meanwhile: the result colours the next reply;
 * - stale, or the session ended: dropped from speech.
 * While a call is outstanding and the avatar is silent, a filler line plays after 2.5 s.
 * One call in flight, one per turn, 20 s cooldown between dispatches, 30 s hold.
 * Every timer is on the injected clock.
 */
import type { ToolCallRequest } from '../../contract/resources/tools.js';
import type { z } from 'zod';
import type { AgentEventMessage } from '../../contract/edge/messages.js';
import { hintedLine } from '../../models/brain/speak-hint.js';
import type { Clock, TimerHandle } from '../../contract/clock.js';
import { PRE_SPEECH_GATE_MS, type GateOutcome } from '../session/pipeline.js';

export const FILLER_AFTER_MS = 2500;
export const COOLDOWN_MS = 20_000;
export const HOLD_MS = 30_000;
export const FOLLOW_UP_MAX_AGE_MS = 60_000;
/** spec 6.2: `structured` enters the conversation truncated at 800 chars. */
export const NOTE_STRUCTURED_CHARS = 800;
/** What the avatar says when a call failed (ours). */
export const FAILURE_LINE = 'Sorry, I could not get that for you just now.';

export interface StageTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  source: 'hook' | 'mcp' | 'builtin';
  cover_line?: string;
  speak_hint?: string;
  /** spec 2: routed through the pre-speech gate (the reply waits for it) instead of the background lane. */
  fast?: boolean;
  timeout_ms?: number;
}

export type StageCall = ToolCallRequest;

/** What the gateway (or a built-in) answered: spec 6.2 / 7. */
export type StageAnswer =
  | {
      ok: true;
      status: 'done';
      result: {
        kind: 'tool' | 'image' | 'image_pending';
        text?: string;
        structured?: unknown;
        url?: string;
        caption?: string;
      };
    }
  | { ok: false; error: string; message?: string };

export interface ToolStageDeps {
  clock: Clock;
  sessionId: string;
  tools: readonly StageTool[];
  /** The verdict for a user turn (`seq`: its place in the transcript; a gated turn is not stored yet). */
  verdict(
    text: string,
    seq: number,
  ): Promise<{ tool: string; args: Record<string, unknown> } | null>;
  dispatch(call: StageCall, tool: StageTool): Promise<StageAnswer>;
  /** A message on /events. */
  broadcast(msg: z.input<typeof AgentEventMessage>): void;
  /** Speak an avatar-initiated line once the reply on air is done, if `stillWanted()` then. */
  say(text: string, stillWanted: () => boolean): void;
  /** The avatar is neither thinking nor speaking. */
  silent(): boolean;
  /** Has a user turn committed after this seq? */
  userSpokeAfter(seq: number): boolean;
  history(): { role: string; content: string }[];
  /** Append the bracketed note to the conversation history (never spoken). */
  note(text: string): void;
  /** Colour the next reply with this line. */
  colour(text: string): void;
  ended(): boolean;
  log(line: string): void;
  /**
   * Optional: word the follow-up with the brain (an upstream model: the note, the tool's
   * `speak_hint`); it gets the plain line and answers the line to say. Without it, or when
   * it fails, the plain line is said.
   */
  phrase?(line: string, note: string, tool: StageTool): Promise<string>;
}

type Verdict = { tool: string; args: Record<string, unknown> } | null;

interface InFlight {
  callId: string;
  tool: StageTool;
  seq: number;
  at: number;
  filler: TimerHandle | null;
  hold: TimerHandle | null;
  /** Who delivers the answer: the pre-speech gate holding the reply, or the background lane. */
  lane: 'gate' | 'background';
  /** The answer, once it came (or 'held' when the 30 s hold ran out first). */
  answered?: StageAnswer | 'held';
  /** Settles with the answer or the hold. */
  settled: Promise<StageAnswer | 'held'>;
  /** Settles once the answer was delivered (its note, then the follow-up line or colour) or dropped. */
  done: Promise<void>;
  /** The follow-up line a conversation script wrote for this call (instead of the worded result). */
  followUp?: string;
}

export class ToolStage {
  private inFlight: InFlight | null = null;
  private lastDispatchAt: number | null = null;
  private callSeq = 0;
  /** How many calls a conversation script has made for the turn `seq` (each its own idem). */
  private scriptCalls = { seq: -1, n: 0 };
  /** The turn the pre-speech gate judged last, and its verdict (the commit reuses it, never judges twice). */
  private gated: { seq: number; verdict: Promise<Verdict>; dispatched: boolean } | null = null;
  /** Resolves when every judged turn so far is done with (tests await it). */
  idle: Promise<void> = Promise.resolve();

  constructor(private readonly d: ToolStageDeps) {}

  /** The session's tools (their descriptions feed the recogniser's model: edge-session.ts). */
  get tools(): readonly StageTool[] {
    return this.d.tools;
  }

  /** Whether the session has a `fast` tool (only then does the gate hold replies). */
  get fastLane(): boolean {
    return this.d.tools.some((t) => t.fast === true);
  }

  /** A user turn committed (spec 6.2 step 1). Never called for the greeting or avatar lines. */
  afterCommit(turn: { seq: number; text: string }): void {
    if (!turn.text.trim() || this.d.tools.length === 0) return;
    const g = this.gated?.seq === turn.seq ? this.gated : null;
    this.gated = null;
    // The gate dispatched this turn's fast call already: it is delivered there or in the background.
    if (g?.dispatched) return;
    // Not queued behind a call in flight: a turn that commits meanwhile is judged now (and
    // skipped while a call is in flight or cooling down).
    this.track(this.run(turn, g?.verdict ?? null));
  }

  /**
   * The pre-speech gate (spec 2 `fast`; docs/tools.md "The fast lane"): before the reply to
   * a committed turn is generated, the verdict runs; a `fast` tool is dispatched at once and
   * the reply waits for its answer, at most PRE_SPEECH_GATE_MS (and the tool's timeout_ms)
   * on the clock, or until `cut` (a barge-in, the end). In time: the outcome (the note and
   * the line the reply starts with; no follow-up line). Late: null, and the call goes on in
   * the background lane as any other. Any other verdict: null at once (the commit dispatches it).
   */
  async gate(turn: { seq: number; text: string }, cut: AbortSignal): Promise<GateOutcome | null> {
    if (!this.fastLane || !turn.text.trim() || this.d.ended() || this.busy() || cut.aborted)
      return null;
    const started = this.d.clock.now();
    const verdict = this.d.verdict(turn.text, turn.seq).catch((e: unknown) => {
      this.d.log(`tool verdict failed: ${(e as Error).message}`);
      return null;
    });
    const g = { seq: turn.seq, verdict, dispatched: false };
    this.gated = g;
    let timer: TimerHandle | null = null;
    const stop = new Promise<'late'>((resolve) => {
      timer = this.d.clock.setTimeout(() => resolve('late'), PRE_SPEECH_GATE_MS);
      cut.addEventListener('abort', () => resolve('late'), { once: true });
    });
    try {
      const v = await Promise.race([verdict, stop]);
      if (v === 'late' || !v) return null;
      const tool = this.d.tools.find((t) => t.name === v.tool);
      if (!tool?.fast || this.busy() || this.d.ended()) return null;
      g.dispatched = true;
      const f = this.dispatch(turn.seq, tool, v.args, 'gate');
      // spec 2: the gate waits the tool's own timeout_ms if shorter than the budget.
      const own = new Promise<'late'>((resolve) => {
        const ms = (tool.timeout_ms ?? PRE_SPEECH_GATE_MS) - (this.d.clock.now() - started);
        const t = this.d.clock.setTimeout(() => resolve('late'), Math.max(0, ms));
        void stop.then(() => t.cancel());
        void f.settled.then(() => t.cancel());
      });
      await Promise.race([f.settled, stop, own]);
      if (f.answered === undefined || f.answered === 'held') {
        f.lane = 'background';
        return null;
      }
      return this.gateOutcome(f, f.answered);
    } finally {
      (timer as TimerHandle | null)?.cancel();
    }
  }

  /**
   * A conversation script's `tool` step (docs/turns.md "Conversation scripts at run time"):
   * the script's tool and args instead of a verdict, dispatched as a brain-chosen call is
   * (`calling`, the gateway or a built-in, the filler and the hold, the note, the follow-up
   * line or colour) but never held back by the one-in-flight and cooldown rules (the script
   * decides). A tool the session did not resolve fails as the gateway's `unknown_tool`
   * would. `followUp` (a `say` step right after the `tool` step) is the line said with the
   * result, in place of the worded result, under the same rules (fresh, the user silent,
   * else it colours the next reply). Resolves once the answer is delivered.
   */
  async scripted(
    seq: number,
    name: string,
    args: Record<string, unknown>,
    followUp?: string,
  ): Promise<void> {
    if (this.d.ended()) return;
    const tool = this.d.tools.find((t) => t.name === name);
    if (!tool) this.d.log(`script tool ${name}: not a tool of this session (unknown_tool)`);
    const unknown: StageAnswer = {
      ok: false,
      error: 'unknown_tool',
      message: `no tool named ${name} in this session`,
    };
    const f = this.dispatch(
      seq,
      tool ?? { name, description: '', input_schema: {}, source: 'hook' },
      args,
      'background',
      tool ? undefined : async () => unknown,
      followUp,
      (this.scriptCalls =
        this.scriptCalls.seq === seq ? { seq, n: this.scriptCalls.n + 1 } : { seq, n: 1 }).n,
    );
    await f.done;
  }

  private track(p: Promise<void>): void {
    const safe = p.catch((e: unknown) => this.d.log(`tool stage: ${(e as Error).message}`));
    this.idle = Promise.all([this.idle, safe]).then(() => undefined);
  }

  /** Whether a verdict now could dispatch (nothing in flight, no cooldown, the session live). */
  canDispatch(): boolean {
    return !this.d.ended() && this.busy() === null;
  }

  private busy(): string | null {
    if (this.inFlight) return 'a call is in flight';
    if (this.lastDispatchAt !== null && this.d.clock.now() - this.lastDispatchAt < COOLDOWN_MS)
      return 'cooldown';
    return null;
  }

  private async run(turn: { seq: number; text: string }, judged: Promise<Verdict> | null) {
    if (this.d.ended() || this.busy()) return;
    const v = await (judged ?? this.d.verdict(turn.text, turn.seq));
    if (!v || this.d.ended()) return;
    // The verdict took time: the rules hold at dispatch.
    const why = this.busy();
    if (why) return this.d.log(`tool ${v.tool} not dispatched: ${why}`);
    const tool = this.d.tools.find((t) => t.name === v.tool);
    if (!tool) return;
    await this.dispatch(turn.seq, tool, v.args, 'background').settled;
  }

  /** Steps 2-3 and 5: `calling`, the call, the filler and the hold; the answer goes to the call's lane. */
  private dispatch(
    seq: number,
    tool: StageTool,
    args: Record<string, unknown>,
    lane: InFlight['lane'],
    /** Answer without the gateway (a script's unknown tool). */
    local?: () => Promise<StageAnswer>,
    followUp?: string,
    /** A script's n-th call of this turn: its own idem, so two scripted calls are two calls. */
    scriptCall?: number,
  ): InFlight {
    const callId = `call_${this.d.sessionId.slice(0, 8)}_${++this.callSeq}`;
    // The same turn asking the same tool is the same call (spec 6.2 step 7: dedupe on idem).
    const idem = `${this.d.sessionId}:${seq}:${tool.name}${scriptCall && scriptCall > 1 ? `:${scriptCall}` : ''}`;
    const now = this.d.clock.now();
    this.lastDispatchAt = now;
    const f: InFlight = {
      callId,
      tool,
      seq,
      at: now,
      filler: null,
      hold: null,
      lane,
      settled: Promise.resolve('held'),
      done: Promise.resolve(),
      ...(followUp !== undefined ? { followUp } : {}),
    };
    this.inFlight = f;
    this.d.broadcast({ type: 'agent_event', kind: 'calling', tool: tool.name, call_id: callId });
    f.filler = this.d.clock.setTimeout(() => {
      f.filler = null;
      if (this.inFlight === f && this.d.silent() && !this.d.ended()) {
        this.d.say(
          tool.cover_line ?? 'One moment, I am looking into that.',
          () => this.inFlight === f && !this.d.ended(),
        );
      }
    }, FILLER_AFTER_MS);
    const held = new Promise<'held'>((resolve) => {
      f.hold = this.d.clock.setTimeout(() => resolve('held'), HOLD_MS);
    });
    const call = { call_id: callId, idem, tool: tool.name, args, history: this.d.history() };
    f.settled = Promise.race([
      (local ? local() : this.d.dispatch(call, tool)).catch(
        (e: unknown): StageAnswer => ({
          ok: false,
          error: 'tool_error',
          message: (e as Error).message,
        }),
      ),
      held,
    ]);
    f.done = f.settled.then(async (answer) => {
      f.answered = answer;
      f.filler?.cancel();
      f.hold?.cancel();
      if (this.inFlight === f) this.inFlight = null;
      if (answer === 'held')
        return this.d.log(`tool ${tool.name}: no answer within ${HOLD_MS} ms; dropped`);
      // The gate takes an answer it is still holding the reply for; otherwise it is delivered here.
      if (f.lane === 'background') await this.deliver(f, answer);
    });
    this.track(f.done);
    f.done = f.done.catch(() => undefined);
    return f;
  }

  /** The note for an answer, and its image events (spec 6.2 step 4). */
  private noteFor(f: InFlight, a: StageAnswer): string {
    const tool = f.tool.name;
    if (!a.ok) return `[tool ${tool} failed: ${a.error}]`;
    const r = a.result;
    if (r.kind === 'image' || r.kind === 'image_pending') {
      const caption = r.caption ? { caption: r.caption } : {};
      if (r.kind === 'image' && r.url)
        this.d.broadcast({
          type: 'agent_event',
          kind: 'image',
          tool,
          call_id: f.callId,
          url: r.url,
          ...caption,
        });
      else
        this.d.broadcast({
          type: 'agent_event',
          kind: 'image_pending',
          tool,
          call_id: f.callId,
          ...(r.url ? { url: r.url } : {}),
          ...caption,
        });
    }
    const structured =
      r.structured === undefined
        ? ''
        : ` ${(typeof r.structured === 'string' ? r.structured : JSON.stringify(r.structured)).slice(0, NOTE_STRUCTURED_CHARS)}`;
    return `[tool ${tool} result: ${r.text ?? r.caption ?? ''}${structured}]`;
  }

  /** The plain line for an answer (the local brain's, following speak_hint). */
  private lineFor(f: InFlight, a: StageAnswer): string {
    return a.ok ? hintedLine(f.tool.speak_hint, a.result) : FAILURE_LINE;
  }

  /** An answer in hand before the reply: the reply is generated with it (no follow-up line). */
  private gateOutcome(f: InFlight, a: StageAnswer): GateOutcome {
    const note = this.noteFor(f, a);
    // An upstream model reads the note and words this reply itself; the local brain leads with the line.
    if (this.d.phrase) {
      const hint = f.tool.speak_hint ? ` ${f.tool.speak_hint}` : '';
      return { note, instruction: `Answer the user with this tool result.${hint}` };
    }
    return { note, lead: this.lineFor(f, a) };
  }

  private async deliver(f: InFlight, a: StageAnswer): Promise<void> {
    const note = this.noteFor(f, a);
    // A script's own follow-up line is for a result; a failed call gets the apology.
    let line = a.ok && f.followUp !== undefined ? f.followUp : this.lineFor(f, a);
    this.d.note(note);
    // spec 6.2 step 4: dropped from speech when stale or the session ended (hook and webhooks already have it).
    if (this.d.ended()) return;
    const fresh = () => !this.d.ended() && this.d.clock.now() - f.at < FOLLOW_UP_MAX_AGE_MS;
    if (!fresh()) return;
    if (this.d.phrase && !(a.ok && f.followUp !== undefined)) {
      line = await this.d.phrase(line, note, f.tool).then(
        (l) => l.trim() || line,
        () => line,
      );
      if (!fresh()) return;
    }
    if (this.d.userSpokeAfter(f.seq)) this.d.colour(line);
    else this.d.say(line, () => fresh() && !this.d.userSpokeAfter(f.seq));
  }
}
