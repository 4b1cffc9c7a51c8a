/**
 * Where a reply comes from (docs/turns.md "Stages"), tried in order for a user turn with
 * words: the reply sources (a conversation script), then the brain, with what the
 * pre-speech gates bring (a `fast` tool's note and lead) and a late tool result's colour.
 * An avatar line is its own text; unrecognised speech gets the fixed "could not make out"
 * reply (never sent to the brain as words); the greeting is the brain's, with its prompt.
 */
import type { Brain } from '../../models/index.js';
import { type Clock } from '../../contract/clock.js';
import { brainRequest } from './conversation.js';
import { greetingPrompt } from './greeting.js';
import type { LiveSession } from './live-session.js';
import {
  GATE_GRACE_MS,
  PRE_SPEECH_GATE_MS,
  type Cue,
  type GateOutcome,
  type PreSpeechStage,
  type ReplySource,
  type SourcedReply,
  type StageContext,
} from './pipeline.js';
import type { Reply } from './reply.js';
import { failedReply, fixedReply, startingWith, type BrainReply } from './sourced-replies.js';

/** The reply to speech the recogniser could not make out (the turn's text says why). */
export const UNRECOGNISED_REPLY =
  'Sorry, I could not make out what you said. Could you say it again, or type it?';

export interface ReplySourcesDeps {
  session: LiveSession;
  /** The brain (a `brain_fail` fault wraps it: faults.ts). */
  brain: Brain;
  clock: Clock;
  log(msg: string): void;
  ctx: StageContext;
}

/** A reply to make: the brain's shape, and the source that made it when not the brain. */
export interface Made {
  out: BrainReply;
  sourced: SourcedReply | null;
}

export class ReplySources {
  private readonly sources: ReplySource[] = [];
  private readonly gates: PreSpeechStage[] = [];
  /** A line the next user turn's reply starts with (StageContext.colour), taken once. */
  private colourNext: string | null = null;

  constructor(private readonly d: ReplySourcesDeps) {}

  addSource(source: ReplySource): void {
    this.sources.push(source);
  }

  addGate(gate: PreSpeechStage): void {
    this.gates.push(gate);
  }

  colour(text: string): void {
    this.colourNext = text;
  }

  /** The reply to this cue (`index`: a user turn's index among the session's user turns). */
  async make(
    cue: Exclude<Cue, { type: 'act' }>,
    reply: Reply,
    language: string,
    index: number,
  ): Promise<Made> {
    if (cue.type === 'line')
      return { out: cue.fails ? failedReply(cue.fails) : fixedReply(cue.text), sourced: null };
    const user = cue.type === 'user-turn' ? cue.turn : null;
    // Speech nobody could recognise is not sent to the brain as if it were words (issue 8: honest recogniser).
    if (user?.unrecognised) return { out: fixedReply(UNRECOGNISED_REPLY), sourced: null };
    const sourced = user && user.text.trim() ? await this.fromSources(user.text, index) : null;
    const colour = user ? this.takeColour() : null;
    // A scripted reply is the script's words only (a late tool result's colour is dropped: its note stays).
    if (sourced) return { out: sourced.made, sourced };
    // The pre-speech gates (a `fast` tool): the reply waits for them, boundedly, and is made with what they bring.
    const gated = user ? await this.passGates(user.text, reply) : [];
    const s = this.d.session;
    const req = brainRequest(s, user?.text ?? null, language, {
      signal: reply.abort.signal,
      ...(cue.type === 'greeting' ? { instruction: greetingPrompt(s.snapshot, language) } : {}),
    });
    // Each gate's note (and instruction) right after the user's words.
    const extra = gated.flatMap((g) => [
      { role: 'system' as const, content: g.note },
      ...(g.instruction ? [{ role: 'system' as const, content: g.instruction }] : []),
    ]);
    const made = this.d.brain.reply(
      extra.length > 0 ? { ...req, messages: [...req.messages, ...extra] } : req,
    );
    const leads = [colour, ...gated.map((g) => g.lead ?? null)].filter((l) => l !== null);
    return { out: leads.length > 0 ? startingWith(leads.join(' '), made) : made, sourced: null };
  }

  /** The first reply source that answers this turn, if any (a source that fails is passed over, logged). */
  private async fromSources(text: string, index: number): Promise<SourcedReply | null> {
    for (const source of this.sources) {
      const got = await source.answer({ text, index }).catch((e: unknown) => {
        this.d.log(`reply source ${source.name} failed: ${(e as Error).message}`);
        return null;
      });
      if (got) return got;
    }
    return null;
  }

  private takeColour(): string | null {
    const c = this.colourNext;
    this.colourNext = null;
    return c;
  }

  /**
   * Each pre-speech gate sees the user turn (its prospective seq: turns are answered one at
   * a time) while the reply waits, at most the gate budget plus a grace on the clock; a cut
   * (barge-in, end) reaches the gates through the reply's abort signal. Their notes join
   * the history after this turn.
   */
  private async passGates(text: string, reply: Reply): Promise<GateOutcome[]> {
    if (this.gates.length === 0 || !text.trim() || this.d.session.ended) return [];
    const s = this.d.session;
    const seq = s.log.length;
    let guard: { cancel(): void } | null = null;
    const late = new Promise<null>((resolve) => {
      guard = this.d.clock.setTimeout(() => resolve(null), PRE_SPEECH_GATE_MS + GATE_GRACE_MS);
    });
    try {
      const outcomes = await Promise.all(
        this.gates.map((g) =>
          Promise.race([
            g.gate({ seq, text }, reply.abort.signal, this.d.ctx).catch(() => null),
            late,
          ]),
        ),
      );
      const got = outcomes.filter((o): o is GateOutcome => o !== null);
      for (const o of got) s.notes.push({ afterSeq: seq + 1, text: o.note });
      return got;
    } finally {
      (guard as { cancel(): void } | null)?.cancel();
    }
  }
}
