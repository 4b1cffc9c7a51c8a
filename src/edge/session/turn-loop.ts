/**
 * The session coordinator (spec 4.6, 6.1): it wires the stages of pipeline.ts and owns the
 * listening / thinking / speaking state. Turn commit is here: a user turn (typed or
 * recognised, one path) is answered in order, one reply at a time; post-commit stages see
 * it first; the reply (reply.ts) is generated, voiced and played; the `turn` message goes
 * out and the turn is stored. Control events (barge-in, typed turn, cancel, end) go through
 * the ControlBus to every stage, this one included. The greeting and its hold are
 * greeting-hold.ts. Every accepted user turn reaches the transcript, answered or not.
 */
import type { z } from 'zod';
import type { TurnMessage } from '../../contract/edge/messages.js';
import type { BrainUsage } from '../../models/brain.js';
import type { VoiceShape } from '../../models/index.js';
import { GreetingHold } from '../turns/index.js';
import { type Clock } from '../../contract/clock.js';
import { brainRequest, replyLanguage } from './conversation.js';
import { greetingPrompt } from './greeting.js';
import type { LiveSession, LoggedTurn } from './live-session.js';
import type { EdgeParts, SessionStream } from './parts.js';
import {
  ControlBus,
  GATE_GRACE_MS,
  PRE_SPEECH_GATE_MS,
  type CommittedTurn,
  type ControlEvent,
  type GateOutcome,
  type PostCommitStage,
  type PreSpeechStage,
  type ReplySource,
  type SourcedReply,
  type Stage,
  type StageContext,
  type UserTurn,
} from './pipeline.js';
import { Reply } from './reply.js';
import { ReplySpeaker } from './reply-speaker.js';
import { typedLanguage, warmTypedLanguage } from './typed-language.js';
import { failedReply, fixedReply, startingWith } from './sourced-replies.js';

/** The reply to speech the recogniser could not make out (the turn's text says why). */
export const UNRECOGNISED_REPLY =
  'Sorry, I could not make out what you said. Could you say it again, or type it?';

/** A reply's request with what the gates brought: each note (and instruction) right after the user's words. */
function withGated(
  req: ReturnType<typeof brainRequest>,
  gated: readonly GateOutcome[],
): ReturnType<typeof brainRequest> {
  if (gated.length === 0) return req;
  const extra = gated.flatMap((g) => [
    { role: 'system' as const, content: g.note },
    ...(g.instruction ? [{ role: 'system' as const, content: g.instruction }] : []),
  ]);
  return { ...req, messages: [...req.messages, ...extra] };
}

export type TalkState = 'listening' | 'thinking' | 'speaking';

export interface TurnLoopDeps {
  session: LiveSession;
  parts: EdgeParts;
  clock: Clock;
  /** The media stream (absent in brain-only mode). */
  stream: SessionStream | null;
  voiceShape?: VoiceShape;
  /** Store a committed turn on the control plane (spec 4.5 transcript, `source: store`). */
  store(turn: LoggedTurn): void;
  log(msg: string): void;
  /** Where `turn` messages go (default: /mic_stream and /events; a `delay_turn` fault wraps it, faults.ts). */
  announce?: (msg: z.input<typeof TurnMessage>) => void;
}

/** What one reply answers: a user turn, the greeting, or a line a stage asked for (or an act queued after them). */
type Cue =
  | { kind: 'user'; turn: UserTurn }
  | { kind: 'greeting' }
  | { kind: 'line'; text: string; stillWanted?: () => boolean; fails?: string }
  | { kind: 'act'; run: () => void };

export class TurnLoop implements Stage {
  readonly name = 'turn-commit';
  readonly bus = new ControlBus();
  state: TalkState = 'listening';
  helloLang: string | null = null;
  private seq = 0;
  private current: Reply | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly greeting: GreetingHold;
  private readonly postCommit: PostCommitStage[] = [];
  private readonly gates: PreSpeechStage[] = [];
  private readonly sources: ReplySource[] = [];
  /** User turns answered so far (a reply source's `index`). */
  private userTurns = 0;
  /** A line the next user turn's reply starts with (StageContext.colour), taken once. */
  private colourNext: string | null = null;

  constructor(private readonly d: TurnLoopDeps) {
    const cfg = d.session.snapshot.config;
    // spec 2: greeting_hold_ms waits for session context before the first generated turn; 0 disables the hold.
    this.greeting = new GreetingHold({
      enabled: cfg.greeting_enabled,
      holdMs: cfg.greeting_hold_ms,
      clock: d.clock,
      onGreet: () => this.enqueue({ kind: 'greeting' }, this.nextSpeechId()),
    });
    this.bus.add(this);
    d.session.onEnd((reason) => this.bus.send({ type: 'end', reason }));
    void warmTypedLanguage();
  }

  /**
   * Plug a stage in: it gets every control event; a post-commit stage also sees each
   * committed user turn, a pre-speech gate each user turn before its reply is generated.
   */
  addStage(
    stage: Stage | PostCommitStage | PreSpeechStage | (PostCommitStage & PreSpeechStage),
  ): void {
    this.bus.add(stage);
    if ('committed' in stage) this.postCommit.push(stage);
    if ('gate' in stage) this.gates.push(stage);
  }

  /** A reply source (a conversation script): tried, in the order added, before the gates and the brain. */
  addSource(source: ReplySource): void {
    this.bus.add(source);
    this.sources.push(source);
  }

  /** Queue an avatar line that fails as a brain that is down (a script's `fail` step after a wait). */
  failLine(message: string): void {
    this.enqueue({ kind: 'line', text: '', fails: message }, this.nextSpeechId());
  }

  /** Run `run` once everything queued before it has been answered and played (a script's `end`). */
  afterQueued(run: () => void): void {
    this.enqueue({ kind: 'act', run }, this.nextSpeechId());
  }

  /** The first client socket is open: the greeting hold starts (a greeting needs someone to hear it). */
  start(): void {
    this.greeting.start();
  }

  get speechId(): string | null {
    return this.current?.speechId ?? null;
  }

  /** Session context arrived (the mic `hello`, docs/edge.md): the hold ends and the greeting goes now. */
  context(lang: string | null): void {
    if (lang) this.helloLang = lang;
    this.greeting.contextArrived();
  }

  /** A typed turn (/chat, v2 `chat`): a user turn that barges in like mic speech (spec 4.6). */
  typedTurn(text: string): string {
    this.bus.send({ type: 'typed-turn', text });
    if (this.state !== 'listening') this.bus.send({ type: 'barge-in', by: 'typed' });
    return this.userTurn({ text, source: 'typed' });
  }

  /** The user started speaking over a reply (decided by the mic stage). */
  bargeIn(): void {
    this.bus.send({ type: 'barge-in', by: 'speech' });
  }

  /** Turn commit: a user turn, typed or recognised, is answered after the ones before it. */
  userTurn(turn: UserTurn | string, opts: { unrecognised?: boolean } = {}): string {
    const t: UserTurn =
      typeof turn === 'string'
        ? { text: turn, source: 'speech', ...(opts.unrecognised ? { unrecognised: true } : {}) }
        : turn;
    // The user spoke first: no greeting.
    this.greeting.userTookTurn();
    this.d.session.activity();
    const speechId = this.nextSpeechId();
    this.enqueue({ kind: 'user', turn: t }, speechId);
    return speechId;
  }

  control(e: ControlEvent): void {
    if (e.type === 'typed-turn' || e.type === 'barge-in') this.greeting.userTookTurn();
    if (e.type === 'barge-in') this.current?.cut('barge-in');
    else if (e.type === 'cancel' && this.current?.speechId === e.speechId)
      this.current.cut('cancel');
    else if (e.type === 'end') {
      this.greeting.cancel();
      this.current?.cut('end');
    }
  }

  /** What post-commit stages may do. */
  readonly ctx: StageContext = {
    emit: (event) => this.d.session.broadcast('events', { ...event, type: 'agent_event' }),
    say: (text, stillWanted) => {
      const id = this.nextSpeechId();
      this.enqueue({ kind: 'line', text, ...(stillWanted ? { stillWanted } : {}) }, id);
      return id;
    },
    // The session's notes: the loop's replies and the stages' own brain requests read the same list.
    note: (text) => this.d.session.notes.push({ afterSeq: this.d.session.log.length, text }),
    colour: (text) => {
      this.colourNext = text;
    },
    state: () => this.state,
    ended: () => this.d.session.ended !== null,
  };

  /**
   * Each pre-speech gate sees the user turn (its prospective seq: turns are answered one at
   * a time) while the reply waits, at most the gate budget plus a grace on the clock; a cut
   * (barge-in, end) reaches the gates through the reply's abort signal. Their notes join
   * the history after this turn.
   */
  private async passGates(turn: UserTurn, reply: Reply): Promise<GateOutcome[]> {
    if (this.gates.length === 0 || !turn.text.trim() || this.d.session.ended) return [];
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
            g.gate({ seq, text: turn.text }, reply.abort.signal, this.ctx).catch(() => null),
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

  private nextSpeechId(): string {
    return `sp_${this.d.session.id.slice(0, 8)}_${++this.seq}`;
  }

  private enqueue(cue: Cue, speechId: string): void {
    // One reply at a time, in order; a failure is reported and the loop goes on.
    this.queue = this.queue
      .then(() => this.answer(cue, speechId))
      .catch((err: unknown) => {
        this.d.log(`turn failed: ${(err as Error).message}`);
        this.d.session.broadcast('control', {
          type: 'error',
          error: 'turn_failed',
          detail: (err as Error).message,
        });
        this.setState('listening');
      });
  }

  private setState(s: TalkState): void {
    this.state = s;
    // A session with no socket ends when idle (live-session.ts); a reply being made or played is not idle.
    this.d.session.busy(s !== 'listening');
  }

  /** Log a committed turn and store it on the control plane. */
  private commit(turn: Omit<LoggedTurn, 'seq'>): LoggedTurn {
    const s = this.d.session;
    const t: LoggedTurn = { seq: s.log.length, ...turn };
    s.log.push(t);
    this.d.store(t);
    return t;
  }

  /** The reply language (docs/edge.md "Reply language"): a typed turn's own language when its text tells. */
  private async languageOf(cue: Cue): Promise<string> {
    const s = this.d.session.snapshot;
    const typed = cue.kind === 'user' && cue.turn.source === 'typed';
    const own =
      typed && !s.responseLanguage
        ? await typedLanguage(cue.turn.text, [this.helloLang, s.avatar.language])
        : null;
    return replyLanguage(s, this.helloLang, own);
  }

  /** One reply: a user turn's answer, the greeting, or a stage's line. */
  private async answer(cue: Cue, speechId: string): Promise<void> {
    const s = this.d.session;
    if (cue.kind === 'act') return cue.run();
    const index = cue.kind === 'user' ? this.userTurns++ : -1;
    // A stage's line that is no longer wanted when its turn comes (a stale tool follow-up) is not said.
    if (cue.kind === 'line' && cue.stillWanted && !cue.stillWanted()) return;
    const user = cue.kind === 'user' ? cue.turn.text : null;
    const language = await this.languageOf(cue);
    if (s.ended) {
      // The user's words were accepted (/chat answered ok): they reach the transcript, unanswered.
      if (user !== null)
        this.commit({
          user_text: user,
          reply_text: '',
          language,
          speech_id: speechId,
          outcome: 'unanswered',
        });
      return;
    }
    const reply = this.open(speechId, language);
    const worded = cue.kind === 'user' && !cue.turn.unrecognised && cue.turn.text.trim() !== '';
    // The reply sources (a conversation script) first: one that answers makes the reply.
    const sourced = worded ? await this.fromSources(cue.turn.text, index) : null;
    const colour = cue.kind === 'user' && !cue.turn.unrecognised ? this.takeColour() : null;
    // The pre-speech gates (a `fast` tool): the reply waits for them, boundedly, and is made with what they bring.
    const gated =
      cue.kind === 'user' && !cue.turn.unrecognised && !sourced
        ? await this.passGates(cue.turn, reply)
        : [];
    const made =
      cue.kind === 'line'
        ? cue.fails
          ? failedReply(cue.fails)
          : fixedReply(cue.text)
        : sourced
          ? sourced.made
          : cue.kind === 'user' && cue.turn.unrecognised
            ? // Speech nobody could recognise is not sent to the brain as if it were words (issue 8: honest recogniser).
              fixedReply(UNRECOGNISED_REPLY)
            : this.d.parts.brain.reply(
                withGated(
                  brainRequest(
                    s.snapshot,
                    s.log,
                    user,
                    language,
                    reply.abort.signal,
                    cue.kind === 'greeting' ? greetingPrompt(s.snapshot, language) : undefined,
                    s.notes,
                  ),
                  gated,
                ),
              );
    // A scripted reply is the script's words only (a late tool result's colour is dropped: its note stays).
    const leads = [sourced ? null : colour, ...gated.map((g) => g.lead ?? null)].filter(
      (l) => l !== null,
    );
    const out = leads.length > 0 ? startingWith(leads.join(' '), made) : made;
    try {
      await reply.generate(out);
    } catch (err) {
      // The brain failed mid-reply (an --llm-url upstream down or cut off): what is on air is
      // cut (nothing talks on while the session listens); the user's turn is still stored,
      // with what was said; enqueue() says turn_failed.
      reply.cut('cancel');
      await this.storeUnfinished(user, reply, language);
      throw err;
    }
    if (s.ended) {
      // The sockets closed while the reply was being made: nobody got the turn message; the
      // stored reply is what was actually said before the end (usually nothing).
      await this.storeUnfinished(user, reply, language);
      return this.close(reply);
    }
    // An avatar turn cut (a user turn came first) before any of it reached the listener:
    // the user's turn replaces it, so no turn goes out.
    if (user === null && reply.cutBy && reply.unheard) return this.close(reply);
    await this.deliver(
      reply,
      cue,
      language,
      await out.usage.catch(() => ({ promptTokens: 0, completionTokens: 0 })),
      sourced,
    );
    this.close(reply);
  }

  /** A reply starts: thinking, with a speaker when the session renders. */
  private open(speechId: string, language: string): Reply {
    const render = this.d.session.snapshot.config.render && this.d.stream && this.d.parts.voice;
    const speaker = render
      ? new ReplySpeaker(this.d.parts.voice!, this.d.stream!, language, this.d.voiceShape, () =>
          this.setState('speaking'),
        )
      : null;
    const reply = new Reply(speechId, speaker);
    this.current = reply;
    this.setState('thinking');
    return reply;
  }

  private close(reply: Reply): void {
    if (this.current === reply) this.current = null;
    this.setState('listening');
  }

  /** The `turn` message and the stored turn; then, spoken, the rewrite a barge-in makes. */
  private async deliver(
    reply: Reply,
    cue: Cue,
    asked: string,
    usage: BrainUsage,
    sourced: SourcedReply | null,
  ): Promise<void> {
    const s = this.d.session;
    const user = cue.kind === 'user' ? cue.turn.text : null;
    const greeting = cue.kind === 'greeting';
    // The turn reports the language the reply text is in (a brain without a phrase for the
    // asked language answers in English and says so), not the one asked for.
    const language = usage.language ?? asked;
    const text = reply.text;
    // spec 6.1: the turn message when it commits; brain-only adds the brain payload (docs/edge.md).
    const msg: z.input<typeof TurnMessage> = {
      type: 'turn',
      text: user ?? '',
      reply: text,
      language,
      speech_id: reply.speechId,
    };
    if (!reply.speaker) {
      msg.brain = {
        name: sourced?.by ?? this.d.parts.brain.name,
        reply: text,
        usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens },
      };
    }
    if (greeting) msg.greeting = true;
    this.sendTurn(msg);
    // Stored as it commits; a barge-in then rewrites it to what was actually said (same seq).
    // A spoken avatar turn (greeting, a stage's line) has no user words to keep: it is stored
    // once it is known what of it was said, and not at all when cut before its first word.
    const avatarSpoken = user === null && reply.speaker !== null;
    const turn = avatarSpoken
      ? null
      : this.commit({
          user_text: user ?? '',
          reply_text: text,
          language,
          speech_id: reply.speechId,
          outcome: reply.speaker ? 'spoken' : 'text',
        });
    // The post-commit slot: a user turn has committed (its `turn` message is out and it is
    // stored; spec 6.2 step 1), while its reply plays. The loop never waits for a stage.
    if (turn && cue.kind === 'user') {
      const committed: CommittedTurn = {
        ...cue.turn,
        speechId: reply.speechId,
        language,
        seq: turn.seq,
        ...(sourced ? { scripted: true as const } : {}),
      };
      for (const stage of this.postCommit) stage.committed(committed, this.ctx);
      sourced?.committed?.(committed);
    }
    if (!reply.speaker) return;
    await reply.played();
    const said = reply.cutBy ? await reply.heard() : text;
    if (reply.cutBy === 'barge-in')
      s.broadcast('events', {
        type: 'speech',
        speech_id: reply.speechId,
        status: 'interrupted',
        said,
      });
    if (turn && reply.cutBy === 'barge-in') {
      // Only a barge-in rewrites a stored reply (docs/fidelity.md); a release or a cap keeps it whole.
      turn.reply_text = said;
      turn.outcome = 'interrupted';
      this.d.store(turn);
    } else if (avatarSpoken && said) {
      this.commit({
        user_text: '',
        reply_text: said,
        language,
        speech_id: reply.speechId,
        outcome: reply.cutBy ? 'interrupted' : 'spoken',
      });
    }
  }

  /** The `turn` message goes out (late when a `delay_turn` fault wraps the channel; the reply plays on time). */
  private sendTurn(msg: z.input<typeof TurnMessage>): void {
    if (this.d.announce) return this.d.announce(msg);
    this.d.session.broadcast(['control', 'events'], msg);
  }

  /** A turn whose reply was cut before its `turn` message: stored with the words said (usually none). */
  private async storeUnfinished(
    user: string | null,
    reply: Reply,
    language: string,
  ): Promise<void> {
    const said = reply.speaker ? await reply.heard() : '';
    if (user !== null || said)
      this.commit({
        user_text: user ?? '',
        reply_text: said,
        language,
        speech_id: reply.speechId,
        outcome: said ? 'interrupted' : 'unanswered',
      });
    if (this.current === reply) this.current = null;
  }
}
