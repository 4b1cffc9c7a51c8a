/**
 * The turn queue and the session's stages (spec 4.6, 6.1; docs/turns.md "Stages"). The
 * queue answers what comes to it (a user turn, typed or recognised, one path; the
 * greeting; an avatar line; an act), one reply at a time, in order, and owns the listening
 * / thinking / speaking state; the reply comes from the reply sources (reply-sources.ts)
 * and is generated, voiced and played (reply.ts); its commit and its end go on as frames
 * through the pipeline: the `turn` announcer, the turn recorder, the post-commit slot.
 * Control events (barge-in, typed turn, cancel, end) take the pipeline's priority lane to
 * every stage. The greeting and its hold are greeting-hold.ts. Every accepted user turn
 * reaches the transcript, answered or not.
 */
import { GreetingHold } from '../turns/index.js';
import type { BrainUsage } from '../../models/brain.js';
import type { VoiceShape } from '../../models/index.js';
import { type Clock } from '../../contract/clock.js';
import { replyLanguage } from './conversation.js';
import type { LiveSession, LoggedTurn } from './live-session.js';
import type { EdgeParts, SessionStream } from './parts.js';
import {
  Pipeline,
  type ControlEvent,
  type Cue,
  type DataFrame,
  type FrameStage,
  type PostCommitStage,
  type PreSpeechStage,
  type ReplySource,
  type Stage,
  type StageContext,
  type UserTurn,
} from './pipeline.js';
import { PostCommitSlot } from './post-commit-slot.js';
import { Reply } from './reply.js';
import { ReplySources } from './reply-sources.js';
import { ReplySpeaker } from './reply-speaker.js';
import { TurnAnnouncer, type TurnSend } from './turn-announcer.js';
import { TurnRecorder } from './turn-recorder.js';
import { typedLanguage, warmTypedLanguage } from './typed-language.js';

export { UNRECOGNISED_REPLY } from './reply-sources.js';

export type TalkState = 'listening' | 'thinking' | 'speaking';

export interface TurnQueueDeps {
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
  announce?: TurnSend;
}

export class TurnQueue implements FrameStage {
  readonly name = 'turn-queue';
  readonly pipeline = new Pipeline();
  state: TalkState = 'listening';
  helloLang: string | null = null;
  private seq = 0;
  private current: Reply | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly greeting: GreetingHold;
  private readonly slot: PostCommitSlot;
  private readonly sources: ReplySources;
  /** User turns answered so far (a reply source's `index`). */
  private userTurns = 0;

  /** What post-commit stages may do. */
  readonly ctx: StageContext = {
    emit: (event) => this.d.session.broadcast('events', { ...event, type: 'agent_event' }),
    say: (text, stillWanted) => {
      const speechId = this.nextSpeechId();
      this.pipeline.push({ type: 'line', text, speechId, ...(stillWanted ? { stillWanted } : {}) });
      return speechId;
    },
    // The session's notes: the loop's replies and the stages' own brain requests read the same list.
    note: (text) => this.d.session.notes.push({ afterSeq: this.d.session.log.length, text }),
    colour: (text) => this.sources.colour(text),
    state: () => this.state,
    ended: () => this.d.session.ended !== null,
  };

  constructor(private readonly d: TurnQueueDeps) {
    const cfg = d.session.snapshot.config;
    // spec 2: greeting_hold_ms waits for session context before the first generated turn; 0 disables the hold.
    this.greeting = new GreetingHold({
      enabled: cfg.greeting_enabled,
      holdMs: cfg.greeting_hold_ms,
      clock: d.clock,
      onGreet: () => this.pipeline.push({ type: 'greeting', speechId: this.nextSpeechId() }),
    });
    this.sources = new ReplySources({
      session: d.session,
      brain: d.parts.brain,
      clock: d.clock,
      log: d.log,
      ctx: this.ctx,
    });
    this.slot = new PostCommitSlot(this.ctx);
    const send: TurnSend = d.announce ?? ((msg) => d.session.broadcast(['control', 'events'], msg));
    // The order frames take: the queue, then a committed reply's announcer, recorder and post-commit slot.
    this.pipeline.add(this);
    this.pipeline.add(new TurnAnnouncer(d.session, send));
    this.pipeline.add(new TurnRecorder(d.session, d.store));
    this.pipeline.add(this.slot);
    d.session.onEnd((reason) => this.pipeline.push({ type: 'end', reason }));
    void warmTypedLanguage();
  }

  /**
   * Plug a stage in: it gets every control event; a post-commit stage also sees each
   * committed user turn, a pre-speech gate each user turn before its reply is generated.
   */
  addStage(
    stage: Stage | PostCommitStage | PreSpeechStage | (PostCommitStage & PreSpeechStage),
  ): void {
    this.pipeline.add(stage);
    if ('committed' in stage) this.slot.stages.push(stage);
    if ('gate' in stage) this.sources.addGate(stage);
  }

  /** A reply source (a conversation script): tried, in the order added, before the gates and the brain. */
  addSource(source: ReplySource): void {
    this.pipeline.add(source);
    this.sources.addSource(source);
  }

  /** Queue an avatar line that fails as a brain that is down (a script's `fail` step after a wait). */
  failLine(message: string): void {
    this.pipeline.push({ type: 'line', text: '', fails: message, speechId: this.nextSpeechId() });
  }

  /** Run `run` once everything queued before it has been answered and played (a script's `end`). */
  afterQueued(run: () => void): void {
    this.pipeline.push({ type: 'act', run });
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
    this.pipeline.push({ type: 'typed-turn', text });
    if (this.state !== 'listening') this.pipeline.push({ type: 'barge-in', by: 'typed' });
    return this.userTurn({ text, source: 'typed' });
  }

  /** The user started speaking over a reply (decided by the mic stage). */
  bargeIn(): void {
    this.pipeline.push({ type: 'barge-in', by: 'speech' });
  }

  /** Turn commit: a user turn, typed or recognised, is answered after the ones before it. */
  userTurn(turn: UserTurn | string, opts: { unrecognised?: boolean } = {}): string {
    const t: UserTurn =
      typeof turn === 'string'
        ? { text: turn, source: 'speech', ...(opts.unrecognised ? { unrecognised: true } : {}) }
        : turn;
    const speechId = this.nextSpeechId();
    this.pipeline.push({ type: 'user-turn', turn: t, speechId });
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

  /** What the queue takes: what a reply answers, one at a time, in order. */
  process(f: DataFrame): void {
    if (f.type === 'reply-committed' || f.type === 'reply-ended') return;
    const cue: Cue =
      f.type === 'user-turn' && !f.speechId ? { ...f, speechId: this.nextSpeechId() } : f;
    if (f.type === 'user-turn') {
      // The user spoke first: no greeting.
      this.greeting.userTookTurn();
      this.d.session.activity();
    }
    // A failure is reported and the queue goes on.
    this.queue = this.queue
      .then(() => this.answer(cue))
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

  private nextSpeechId(): string {
    return `sp_${this.d.session.id.slice(0, 8)}_${++this.seq}`;
  }

  private setState(s: TalkState): void {
    this.state = s;
    // A session with no socket ends when idle (live-session.ts); a reply being made or played is not idle.
    this.d.session.busy(s !== 'listening');
  }

  /** The reply language (docs/edge.md "Reply language"): a typed turn's own language when its text tells. */
  private async languageOf(cue: Cue): Promise<string> {
    const s = this.d.session.snapshot;
    const typed = cue.type === 'user-turn' && cue.turn.source === 'typed';
    const own =
      typed && !s.responseLanguage
        ? await typedLanguage(cue.turn.text, [this.helloLang, s.avatar.language])
        : null;
    return replyLanguage(s, this.helloLang, own);
  }

  /** One reply: a user turn's answer, the greeting, or a stage's line. */
  private async answer(cue: Cue): Promise<void> {
    const s = this.d.session;
    if (cue.type === 'act') return cue.run();
    // A stage's line that is no longer wanted when its turn comes (a stale tool follow-up) is not said.
    if (cue.type === 'line' && cue.stillWanted && !cue.stillWanted()) return;
    const index = cue.type === 'user-turn' ? this.userTurns++ : -1;
    const user = cue.type === 'user-turn' ? cue.turn : null;
    const speechId = cue.speechId ?? this.nextSpeechId();
    const language = await this.languageOf(cue);
    const ended = (said: string, cutBy: Reply['cutBy']) =>
      this.pipeline.push({
        type: 'reply-ended',
        speechId,
        user: user?.text ?? null,
        language,
        said,
        cutBy,
        announced: false,
      });
    // The user's words were accepted (/chat answered ok): they reach the transcript, unanswered.
    if (s.ended) return ended('', null);
    const reply = this.open(speechId, language);
    const { out, sourced } = await this.sources.make(cue, reply, language, index);
    try {
      await reply.generate(out);
    } catch (err) {
      // The brain failed mid-reply (an --llm-url upstream down or cut off): what is on air is
      // cut (nothing talks on while the session listens); the user's turn is still stored,
      // with what was said; process() says turn_failed.
      reply.cut('cancel');
      ended(reply.speaker ? await reply.heard() : '', reply.cutBy);
      if (this.current === reply) this.current = null;
      throw err;
    }
    if (s.ended) {
      // The sockets closed while the reply was being made: nobody got the turn message; the
      // stored reply is what was actually said before the end (usually nothing).
      ended(reply.speaker ? await reply.heard() : '', reply.cutBy);
      return this.close(reply);
    }
    // An avatar turn cut (a user turn came first) before any of it reached the listener:
    // the user's turn replaces it, so no turn goes out.
    if (user === null && reply.cutBy && reply.unheard) return this.close(reply);
    const usage: BrainUsage = await out.usage.catch(() => ({
      promptTokens: 0,
      completionTokens: 0,
    }));
    // The turn reports the language the reply text is in (a brain without a phrase for the
    // asked language answers in English and says so), not the one asked for.
    const lang = usage.language ?? language;
    this.pipeline.push({
      type: 'reply-committed',
      speechId,
      user,
      greeting: cue.type === 'greeting',
      text: reply.text,
      language: lang,
      usage,
      spoken: reply.speaker !== null,
      by: sourced?.by ?? this.d.parts.brain.name,
      sourced,
    });
    if (reply.speaker) {
      await reply.played();
      const said = reply.cutBy ? await reply.heard() : reply.text;
      this.pipeline.push({
        type: 'reply-ended',
        speechId,
        user: user?.text ?? null,
        language: lang,
        said,
        cutBy: reply.cutBy,
        announced: true,
      });
    }
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
}
