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
import { type Clock, type TimerHandle } from '../../contract/clock.js';

export const FILLER_AFTER_MS = 2500;
export const COOLDOWN_MS = 20_000;
export const HOLD_MS = 30_000;
export const FOLLOW_UP_MAX_AGE_MS = 60_000;
/** spec 6.2: `structured` enters the conversation truncated at 800 chars. */
export const NOTE_STRUCTURED_CHARS = 800;

export interface StageTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  source: 'hook' | 'mcp' | 'builtin';
  cover_line?: string;
  speak_hint?: string;
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
  verdict(text: string): Promise<{ tool: string; args: Record<string, unknown> } | null>;
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

interface InFlight {
  callId: string;
  tool: StageTool;
  seq: number;
  at: number;
  filler: TimerHandle | null;
  hold: TimerHandle | null;
}

export class ToolStage {
  private inFlight: InFlight | null = null;
  private lastDispatchAt: number | null = null;
  private callSeq = 0;
  /** Resolves when every judged turn so far is done with (tests await it). */
  idle: Promise<void> = Promise.resolve();

  constructor(private readonly d: ToolStageDeps) {}

  /** A user turn committed (spec 6.2 step 1). Never called for the greeting or avatar lines. */
  afterCommit(turn: { seq: number; text: string }): void {
    if (!turn.text.trim() || this.d.tools.length === 0) return;
    // Not queued behind a call in flight: a turn that commits meanwhile is judged now (and
    // skipped while a call is in flight or cooling down).
    const p = this.run(turn).catch((e: unknown) =>
      this.d.log(`tool stage: ${(e as Error).message}`),
    );
    this.idle = Promise.all([this.idle, p]).then(() => undefined);
  }

  private busy(): string | null {
    if (this.inFlight) return 'a call is in flight';
    if (this.lastDispatchAt !== null && this.d.clock.now() - this.lastDispatchAt < COOLDOWN_MS)
      return 'cooldown';
    return null;
  }

  private async run(turn: { seq: number; text: string }): Promise<void> {
    if (this.d.ended() || this.busy()) return;
    const v = await this.d.verdict(turn.text);
    if (!v || this.d.ended()) return;
    // The verdict took time: the rules hold at dispatch.
    const why = this.busy();
    if (why) return this.d.log(`tool ${v.tool} not dispatched: ${why}`);
    const tool = this.d.tools.find((t) => t.name === v.tool);
    if (!tool) return;
    const callId = `call_${this.d.sessionId.slice(0, 8)}_${++this.callSeq}`;
    // The same turn asking the same tool is the same call (spec 6.2 step 7: dedupe on idem).
    const idem = `${this.d.sessionId}:${turn.seq}:${tool.name}`;
    const now = this.d.clock.now();
    this.lastDispatchAt = now;
    const f: InFlight = { callId, tool, seq: turn.seq, at: now, filler: null, hold: null };
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
    const answer = await Promise.race([
      this.d
        .dispatch(
          { call_id: callId, idem, tool: tool.name, args: v.args, history: this.d.history() },
          tool,
        )
        .catch(
          (e: unknown): StageAnswer => ({
            ok: false,
            error: 'tool_error',
            message: (e as Error).message,
          }),
        ),
      held,
    ]);
    f.filler?.cancel();
    f.hold?.cancel();
    this.inFlight = null;
    if (answer === 'held')
      return this.d.log(`tool ${tool.name}: no answer within ${HOLD_MS} ms; dropped`);
    await this.deliver(f, answer);
  }

  private async deliver(f: InFlight, a: StageAnswer): Promise<void> {
    const tool = f.tool.name;
    let note: string;
    let line: string;
    if (a.ok) {
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
      note = `[tool ${tool} result: ${r.text ?? r.caption ?? ''}${structured}]`;
      line = followUpLine(r);
    } else {
      note = `[tool ${tool} failed: ${a.error}]`;
      line = `Sorry, I could not get that for you just now.`;
    }
    this.d.note(note);
    // spec 6.2 step 4: dropped from speech when stale or the session ended (hook and webhooks already have it).
    if (this.d.ended()) return;
    const fresh = () => !this.d.ended() && this.d.clock.now() - f.at < FOLLOW_UP_MAX_AGE_MS;
    if (!fresh()) return;
    if (this.d.phrase) {
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

/** The spoken follow-up for a result (ours; docs/tools.md). */
export function followUpLine(r: { kind: string; text?: string; caption?: string }): string {
  if (r.kind === 'image')
    return r.caption ? `Here is the picture: ${r.caption}.` : 'Here is the picture.';
  if (r.kind === 'image_pending') return 'The picture is on its way.';
  const text = (r.text ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return 'Done.';
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
