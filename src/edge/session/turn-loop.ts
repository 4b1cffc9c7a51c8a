/**
 * The session coordinator (spec 4.6, 6.1): typed and spoken user turns go to the brain;
 * the reply goes out as a `turn` message and, unless the session is brain-only
 * (`render: false`), as speech on the media stream. It owns the listening / thinking /
 * speaking state, the greeting and its hold, and barge-in (mic speech, or a typed turn).
 * Every accepted user turn reaches the transcript, answered or not (the session may end
 * first). Mic audio reaches it through mic-input.ts; it knows nothing of sockets.
 */
import type { BrainUsage } from '../../models/brain.js';
import type { VoiceShape } from '../../models/index.js';
import type { EdgeClock, EdgeTimer } from '../clock.js';
import { brainRequest, replyLanguage, SentenceSplitter } from './conversation.js';
import { greetingPrompt } from './greeting.js';
import type { LiveSession, LoggedTurn } from './live-session.js';
import type { EdgeParts, SessionStream } from './parts.js';
import { ReplySpeaker } from './reply-speaker.js';
import { typedLanguage, warmTypedLanguage } from './typed-language.js';

/** The reply to speech the recogniser could not make out (the turn's text says why). */
export const UNRECOGNISED_REPLY = 'Sorry, I could not make out what you said. Could you say it again, or type it?';

function fixedReply(text: string) {
  return {
    deltas: (async function* () {
      yield text;
    })(),
    usage: Promise.resolve({ promptTokens: 0, completionTokens: 0 }),
  };
}

export type TalkState = 'listening' | 'thinking' | 'speaking';

export interface TurnLoopDeps {
  session: LiveSession;
  parts: EdgeParts;
  clock: EdgeClock;
  /** The media stream (absent in brain-only mode). */
  stream: SessionStream | null;
  voiceShape?: VoiceShape;
  /** Store a committed turn on the control plane (spec 4.5 transcript, `source: store`). */
  store(turn: LoggedTurn): void;
  log(msg: string): void;
}

interface Reply {
  speechId: string;
  abort: AbortController;
  speaker: ReplySpeaker | null;
}

export class TurnLoop {
  state: TalkState = 'listening';
  helloLang: string | null = null;
  private seq = 0;
  private current: Reply | null = null;
  private queue: Promise<void> = Promise.resolve();
  private greetingTimer: EdgeTimer | null = null;
  private greetingDue: boolean;
  private started = false;
  /** Fires when a spoken reply's first audio is queued (bench: /chat to first reply fragment). */
  onFirstAudio: ((speechId: string) => void) | null = null;
  /**
   * Post-commit slot (src/edge/tools/tool-stage.ts): called once a user turn's reply has
   * committed; never for the greeting, avatar-initiated lines or unrecognised speech.
   */
  onUserTurnCommitted: ((turn: LoggedTurn) => void) | null = null;
  /** A line that colours the next reply (a tool result the user talked over), taken once. */
  private colourNext: string | null = null;

  constructor(private readonly d: TurnLoopDeps) {
    this.greetingDue = d.session.snapshot.config.greeting_enabled;
    d.session.onEnd(() => this.stop());
    void warmTypedLanguage();
  }

  /** The first client socket is open: the greeting hold starts (a greeting needs someone to hear it). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const cfg = this.d.session.snapshot.config;
    // spec 2: greeting_hold_ms waits for session context before the first generated turn; 0 disables the hold.
    if (!this.greetingDue) return;
    if (cfg.greeting_hold_ms <= 0) this.greet();
    else this.greetingTimer = this.d.clock.setTimeout(() => this.greet(), cfg.greeting_hold_ms);
  }

  get speechId(): string | null {
    return this.current?.speechId ?? null;
  }

  /** Session context arrived (the mic `hello`, docs/edge.md): the hold ends and the greeting goes now. */
  context(lang: string | null): void {
    if (lang) this.helloLang = lang;
    if (this.greetingTimer) this.greet();
  }

  /** A committed user turn, typed (/chat) or recognised. The user spoke first: no greeting. */
  userTurn(text: string, opts: { unrecognised?: boolean; typed?: boolean } = {}): string {
    this.cancelGreeting();
    this.d.session.activity();
    const speechId = this.nextSpeechId();
    this.enqueue(() => this.respond(text, speechId, opts.unrecognised ? UNRECOGNISED_REPLY : null, !!opts.typed));
    return speechId;
  }

  /**
   * A typed turn (/chat, v2 `chat`): a new user turn barges in like mic speech does
   * (spec 4.6): the reply on air is cut and stored as said, then this one is answered.
   */
  typedTurn(text: string): string {
    if (this.state !== 'listening') this.bargeIn();
    return this.userTurn(text, { typed: true });
  }

  /** The user started speaking over a reply (barge-in decided by the mic input). */
  bargeIn(): void {
    const r = this.current;
    if (!r) return;
    r.speaker?.interrupt();
    r.abort.abort();
  }

  /**
   * An avatar-initiated line (a tool's follow-up or filler): spoken after the reply on air,
   * if `stillWanted()` when its turn comes; a `turn` message with empty `text`. It never
   * dispatches a tool (spec 6.2 step 6).
   */
  say(text: string, stillWanted: () => boolean = () => true): void {
    this.enqueue(async () => {
      if (stillWanted() && !this.d.session.ended) await this.respond(null, this.nextSpeechId(), text, false, true);
    });
  }

  /** The next user turn's reply starts with this line (spec 6.2 step 4: the result colours it). */
  colour(text: string): void {
    this.colourNext = text;
  }

  private greet(): void {
    if (!this.greetingDue) return;
    this.cancelGreeting();
    this.enqueue(() => this.respond(null, this.nextSpeechId()));
  }

  private cancelGreeting(): void {
    this.greetingDue = false;
    this.greetingTimer?.cancel();
    this.greetingTimer = null;
  }

  private nextSpeechId(): string {
    return `sp_${this.d.session.id.slice(0, 8)}_${++this.seq}`;
  }

  private enqueue(job: () => Promise<void>): void {
    // One reply at a time, in order; a failure is reported and the loop goes on.
    this.queue = this.queue.then(job).catch((err: unknown) => {
      this.d.log(`turn failed: ${(err as Error).message}`);
      this.d.session.broadcast('control', { type: 'error', error: 'turn_failed', detail: (err as Error).message });
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

  /** One turn: brain -> turn message -> speech; `user` null is the greeting. */
  private async respond(user: string | null, speechId: string, fixed: string | null = null, typed = false, line = false): Promise<void> {
    const s = this.d.session;
    // A typed turn's own language, when its text tells it (docs/edge.md "Reply language").
    const own = typed && user !== null && !s.snapshot.responseLanguage ? await typedLanguage(user, [this.helloLang, s.snapshot.avatar.language]) : null;
    let language = replyLanguage(s.snapshot, this.helloLang, own);
    if (s.ended) {
      // The user's words were accepted (/chat answered ok): they reach the transcript, unanswered.
      if (user !== null) this.commit({ user_text: user, reply_text: '', language, speech_id: speechId, outcome: 'unanswered' });
      return;
    }
    const abort = new AbortController();
    const render = s.snapshot.config.render && this.d.stream && this.d.parts.voice;
    const speaker = render
      ? new ReplySpeaker(this.d.parts.voice!, this.d.stream!, language, this.d.voiceShape, () => {
          this.setState('speaking');
          this.onFirstAudio?.(speechId);
        })
      : null;
    this.current = { speechId, abort, speaker };
    this.setState('thinking');
    const req = brainRequest(s.snapshot, s.log, user, language, abort.signal, user === null ? greetingPrompt(s.snapshot, language) : undefined, s.notes);
    // Speech nobody could recognise is not sent to the brain as if it were words (issue 8: honest recogniser).
    const out = fixed !== null ? fixedReply(fixed) : this.d.parts.brain.reply(req);
    const split = new SentenceSplitter();
    // A tool result the user talked over colours this reply (src/edge/tools/tool-stage.ts).
    const colour = user !== null && fixed === null ? this.colourNext : null;
    if (colour) this.colourNext = null;
    let reply = colour ? `${colour} ` : '';
    if (colour && speaker) for (const sentence of split.push(`${colour} `)) speaker.say(sentence);
    let failed: Error | null = null;
    try {
      for await (const delta of out.deltas) {
        reply += delta;
        if (speaker) for (const sentence of split.push(delta)) speaker.say(sentence);
        if (abort.signal.aborted) break;
      }
    } catch (err) {
      if (!abort.signal.aborted) failed = err instanceof Error ? err : new Error(String(err));
    }
    if (failed !== null) {
      // The brain failed mid-reply (an --llm-url upstream down or cut off): the reply cannot
      // be finished, so what is on air is cut (nothing talks on while the session listens);
      // the user's turn is still stored, with what was said; enqueue() says turn_failed.
      speaker?.interrupt();
      await this.storeUnfinished(user, speechId, language, speaker, reply.trim());
      throw failed;
    }
    if (speaker && !abort.signal.aborted) for (const sentence of split.flush()) speaker.say(sentence);
    reply = reply.trim();
    if (s.ended) {
      // The sockets closed while the reply was being made: nobody got the turn message; the
      // stored reply is what was actually said before the end (usually nothing).
      await this.storeUnfinished(user, speechId, language, speaker, reply);
      this.setState('listening');
      return;
    }
    if (user === null && abort.signal.aborted && (speaker ? speaker.audioMs === 0 : reply === '')) {
      // The greeting was cut (a user turn came first) before any of it reached the media (or,
      // brain-only, was made): a user turn before the greeting replaces it, so no turn goes out.
      if (this.current?.speechId === speechId) this.current = null;
      this.setState('listening');
      return;
    }
    const usage: BrainUsage = await out.usage.catch(() => ({ promptTokens: 0, completionTokens: 0 }));
    // The turn reports the language the reply text is in (a brain without a phrase for the
    // asked language answers in English and says so), not the one asked for.
    language = usage.language ?? language;
    // spec 6.1: the turn message when it commits; brain-only adds the brain payload (docs/edge.md).
    const msg: Record<string, unknown> = { type: 'turn', text: user ?? '', reply, language, speech_id: speechId };
    if (!render) {
      msg.brain = { name: this.d.parts.brain.name, reply, usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens } };
    }
    if (user === null && !line) msg.greeting = true;
    s.broadcast(['control', 'events'], msg);
    // Stored as it commits; a barge-in then rewrites it to what was actually said (same seq).
    // A spoken greeting has no user words to keep: it is stored once it is known what of it
    // was said, and not at all when a user turn cut it before its first word.
    const greeting = user === null && speaker !== null && !line;
    const turn = greeting ? null : this.commit({ user_text: user ?? '', reply_text: reply, language, speech_id: speechId, outcome: speaker ? 'spoken' : 'text' });
    if (turn && user !== null && fixed === null) this.onUserTurnCommitted?.(turn);
    if (speaker) {
      await speaker.finished();
      const said = speaker.interrupted ? await speaker.said(reply) : reply;
      if (speaker.interrupted) s.broadcast('events', { type: 'speech', speech_id: speechId, status: 'interrupted', said });
      if (turn && speaker.interrupted) {
        turn.reply_text = said;
        turn.outcome = 'interrupted';
        this.d.store(turn);
      } else if (greeting && said) {
        this.commit({ user_text: '', reply_text: said, language, speech_id: speechId, outcome: speaker.interrupted ? 'interrupted' : 'spoken' });
      }
    }
    if (this.current?.speechId === speechId) this.current = null;
    this.setState('listening');
  }

  /** A turn whose reply was cut before its `turn` message: stored with the words said (usually none). */
  private async storeUnfinished(user: string | null, speechId: string, language: string, speaker: ReplySpeaker | null, reply: string): Promise<void> {
    const said = speaker ? await speaker.said(reply) : '';
    if (user !== null || said) this.commit({ user_text: user ?? '', reply_text: said, language, speech_id: speechId, outcome: said ? 'interrupted' : 'unanswered' });
    if (this.current?.speechId === speechId) this.current = null;
  }

  private stop(): void {
    this.cancelGreeting();
    this.bargeIn();
  }
}
