/**
 * One live conversation (issue 9): connect the edge the mint assigned, feed the mic,
 * play and record the reply stream, follow the transcript, and end (for a reason, always
 * releasing the seat). The view and the printers only observe; `say` and `end` are the
 * two things a user can do.
 */
import { connectEdge } from '../../client/edge-connect.js';
import type { ClosedEvent, EdgeConnection, EdgeEvent } from '../../client/edge-events.js';
import { MicPump, type PacerClock } from '../../client/edge-mic.js';
import type { MintReady } from '../../contract/resources/session.js';
import type { AudioOutChoice } from './audio-out.js';
import { coverLinesOf, FollowUps, type Settled } from './follow-ups.js';
import {
  interruptedNote,
  type LiveEndReason,
  type LiveLogEvent,
  type Stamped,
} from './live-log.js';
import { LiveStore } from './live-state.js';
import type { MicSource } from './mic-source.js';
import { ReplyAudio } from './reply-audio.js';
import { StreamRecording } from './stream-record.js';

export interface LiveRunOptions {
  minted: MintReady & { protocol_version?: number };
  label: string;
  mic?: MicSource;
  /** Play replies here (undefined: do not play). */
  audioOut?: AudioOutChoice;
  /** `--record`: the whole stream to this file. */
  record?: string;
  /** `--headphones`: no echo to fear, never gate the mic. */
  headphones?: boolean;
  /** `--turns N`: end once the N-th reply has been spoken. */
  turns?: number;
  /** `--say`: typed messages sent once connected. */
  say?: string[];
  lang?: string;
  /** `--origin`: sent as `Origin` on the edge sockets and /chat (the mint's domain_allowlist is checked against it). */
  origin?: string;
  /** Frees the seat (POST .../release with the seat_token). */
  release(): Promise<void>;
  onLog?(e: Stamped): void;
  /** Every frame sent on the uplink, with the log's `t` (`--save-session`). */
  onMicFrame?(frame: Uint8Array, t: number): void;
  clock?: PacerClock;
  /** Start the mic once the greeting has been spoken (the demo: do not talk over the avatar). */
  micAfterGreeting?: boolean;
  /** A mic source that fails ends the session (no terminal: nobody can type instead). */
  endOnMicFailure?: boolean;
  /** After the N-th turn, end even if no audible reply is detected after this long (ms). */
  replyWaitMs?: number;
  /**
   * `--mic-file` without `--turns` (issue 24 item 10): once the file has been streamed and
   * the edge has had MIC_FILE_SETTLE_MS of silence to end the last utterance, the input is
   * over, as for a piped stdin: the session ends once the last reply has been spoken.
   */
  endAfterMicFile?: boolean;
  /** Fillers a tool may say while its call is slow (its `cover_line`), besides the built-ins' (follow-ups.ts). */
  coverLines?: string[];
  /** How long a tool follow-up is waited for after its `calling` (default FOLLOW_UP_WAIT_MS). */
  followUpWaitMs?: number;
}

/** Silence after a --mic-file's end for the edge's VAD to close the last utterance. */
const MIC_FILE_SETTLE_MS = 3000;
/**
 * A --mic-file is said one utterance at a time: quiet this long in the file ends one, and
 * the next waits until the avatar has answered it (and said any tool follow-up it owes).
 */
const MIC_FILE_UTTERANCE_GAP_MS = 500;
/** A held --mic-file goes on when the edge has shown nothing of its utterance for this long (it heard none). */
const MIC_FILE_UNHEARD_MS = 10_000;

export interface LiveSummary {
  reason: LiveEndReason;
  detail?: string;
  durationS: number;
  turns: number;
  mediaBytes: number;
  released: boolean;
  connectMs?: number;
  firstMediaMs?: number;
  firstTurnMs?: number;
  /** When the mic source started, ms after the connect began. */
  micStartMs?: number;
}

/** How long after connecting `--say` waits for a greeting to begin before it sends its first line. */
const SCRIPTED_WAIT_MS = 600;

export class LiveRunner {
  readonly store: LiveStore;
  private conn: EdgeConnection | undefined;
  private t0: number;
  private connectedAt: number | undefined;
  private turns = 0;
  /**
   * `--say` lines not sent yet. They go one at a time, each once the avatar has finished
   * speaking (its greeting, or the reply to the line before): a typed turn cuts off a reply
   * in progress (docs/edge.md), so sending them all at once would talk over the avatar.
   */
  private scripted: string[] = [];
  private scriptedTimer: NodeJS.Timeout | undefined;
  /** A typed line was sent and its turn has not come back yet. */
  private awaitingTurn = false;
  /** The avatar has had its chance to greet (a reply closed, or the wait for one ran out). */
  private mayType = false;
  /** Piped input ended: end once its last line has been answered and spoken. */
  private inputDone = false;
  private edgeState: string | undefined;
  /** Turns the user asked (the greeting, a turn with no user text, is not one of them). */
  private userTurns = 0;
  /** The edge said this session has no media (brain-only): replies are text only. */
  private textOnly = false;
  private lastTyped: string | undefined;
  /** The greeting's speech_id, to name it when barge-in cuts it. */
  private greetingSpeechId: string | undefined;
  private ending: { reason: LiveEndReason; detail?: string } | undefined;
  private wake!: () => void;
  private readonly woken = new Promise<void>((r) => (this.wake = r));
  private readonly clock: PacerClock;
  /**
   * The reply being spoken. It is over when the edge's status frames stop saying `speaking`
   * for its speech_id (docs/edge.md), or, with no such frames, when reply audio that began
   * after the turn (a rising edge: the greeting's tail does not count) falls silent.
   */
  private reply:
    | {
        seq: number;
        greeting: boolean;
        /** A line the avatar began itself (no user turn before it). */
        avatarLine: boolean;
        speechId?: string;
        bytes: number;
        segments: number;
        loud: boolean;
        edgeSpeaking: boolean;
        spoke: boolean;
      }
    | undefined;
  private replyGrace: NodeJS.Timeout | undefined;
  private micStarted = false;
  private startMic: (() => void) | undefined;
  private micFallback: NodeJS.Timeout | undefined;
  private summary: Partial<LiveSummary> = {};
  private lastMediaLog = -Infinity;
  private pump: MicPump | undefined;
  private micFileDrainedAt: number | undefined;
  /** Since when a held --mic-file has seen the edge listen with nothing heard. */
  private micFileQuietSince: number | undefined;
  /** Tool calls whose follow-up line is due: pacing holds the next line meanwhile. */
  private readonly followUps: FollowUps;
  /** The call the view has been told pacing waits for. */
  private waitNoted: string | undefined;
  /** The partial of an utterance whose turn has not come yet. */
  private hearing = false;
  private inputWhat = 'input';

  constructor(private readonly opts: LiveRunOptions) {
    this.clock = opts.clock ?? {
      now: () => performance.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    };
    this.t0 = this.clock.now();
    this.followUps = new FollowUps({
      coverLines: opts.coverLines ?? coverLinesOf(),
      waitMs: opts.followUpWaitMs,
      setTimer: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
      onSettled: (s) => this.onFollowUpSettled(s),
    });
    this.store = new LiveStore({
      sessionId: opts.minted.session_id,
      label: opts.label,
      protocol: opts.minted.protocol_version === 2 ? 2 : 1,
      capSeconds: opts.minted.cap_seconds,
      micLabel: opts.mic?.label ?? null,
      output: opts.audioOut?.name ?? null,
    });
  }

  private log(e: LiveLogEvent): void {
    this.opts.onLog?.({ ...e, t: Math.round(this.clock.now() - this.t0) / 1000 } as Stamped);
  }

  /** A typed message (POST /chat, spec 4.6). */
  async say(text: string): Promise<void> {
    const t = text.trim();
    if (!t || !this.conn) return;
    this.store.addLine('user', `${t}  (typed)`);
    this.lastTyped = t;
    this.log({ event: 'said', text: t });
    this.awaitingTurn = true;
    await this.conn.chat(t).catch((e: Error) => {
      this.awaitingTurn = false;
      this.fail(e.message);
    });
  }

  /**
   * A line typed on a pipe (`printf 'Hi\n' | avatar sessions live`): queued like a --say
   * line, sent at once when the avatar is quiet, else after the reply in progress.
   */
  typeLine(text: string): void {
    const t = text.trim();
    if (!t || this.ending) return;
    this.scripted.push(t);
    if (this.conn && this.mayType && !this.reply && !this.awaitingTurn && !this.followUps.due)
      this.sendScripted();
  }

  /**
   * The input has ended (a piped stdin, or a --mic-file streamed whole): the session ends
   * once every line is answered and spoken. `what` names it in the end's detail.
   */
  inputEnded(what = 'input'): void {
    if (this.inputDone) return;
    this.inputDone = true;
    this.inputWhat = what;
    this.endIfInputDone();
  }

  private endIfInputDone(): void {
    if (
      !this.inputDone ||
      this.userTurns === 0 ||
      this.scripted.length ||
      this.awaitingTurn ||
      this.hearing ||
      this.reply ||
      this.followUps.due
    )
      return;
    const short = this.opts.turns !== undefined && this.userTurns < this.opts.turns;
    this.end(
      'turns_done',
      short
        ? `end of ${this.inputWhat}: ${this.userTurns} of ${this.opts.turns} turns`
        : `end of ${this.inputWhat}`,
    );
  }

  /** Seconds since the connect began (the `t` of the log). */
  elapsedS(): number {
    return Math.round(this.clock.now() - this.t0) / 1000;
  }

  /** End the session for this reason (the first reason wins). */
  end(reason: LiveEndReason, detail?: string): void {
    if (!this.ending) this.ending = { reason, detail };
    this.wake();
  }

  private fail(message: string): void {
    this.store.addLine('error', message);
    this.log({ event: 'error', error: message });
  }

  async run(): Promise<LiveSummary> {
    const { minted } = this.opts;
    // Times count from here: loading the view is not part of the connect.
    this.t0 = this.clock.now();
    const protocol = minted.protocol_version === 2 ? 2 : 1;
    this.log({
      event: 'minted',
      session_id: minted.session_id,
      cap_seconds: minted.cap_seconds,
      protocol,
      connect_url: minted.connect_url,
    });
    const ctrl = new AbortController();
    const recording = this.opts.record ? new StreamRecording(this.opts.record) : undefined;
    let playing = !!this.opts.audioOut;
    const audio = new ReplyAudio({
      out: this.opts.audioOut,
      onFail: (m) => this.fail(m),
      // Nothing audible any more: no echo to fear, so the mic opens, and the screen says so.
      onOutputFail: (m) => {
        playing = false;
        this.gate(false);
        this.store.update({ output: null });
        // No audio device is the machine's state, not the session's failure: a quiet note.
        const note = `replies are not played: ${m} (transcript and --record continue)`;
        this.store.addLine('info', note);
        this.log({ event: 'notice', message: note });
      },
      onSpeaking: (s) => this.onSpeaking(s, pump),
    });
    const pump = new MicPump({
      send: (f) => {
        this.conn?.sendAudio(f);
        this.opts.onMicFrame?.(f, this.elapsedS());
      },
      clock: this.clock,
      maxBufferedMs: this.opts.mic?.kind === 'mic' ? 500 : undefined,
      ...(this.opts.mic?.kind === 'file'
        ? { pauseAfterUtteranceMs: MIC_FILE_UTTERANCE_GAP_MS }
        : {}),
      onFrame: (i) => {
        const s = this.store.getSnapshot();
        if (this.opts.mic && s.mic.gated !== i.gated)
          this.log({ event: 'mic_gate', gated: i.gated });
        if (s.mic.levelDb !== i.levelDb || s.mic.gated !== i.gated)
          this.store.update({ mic: { ...s.mic, levelDb: i.levelDb, gated: i.gated } });
      },
    });
    this.gate = (speaking) => pump.setGated(speaking && playing && !this.opts.headphones);
    this.pump = pump;
    let clockTimer: NodeJS.Timeout | undefined;
    try {
      const conn = await connectEdge({
        connectUrl: minted.connect_url,
        token: minted.session_token,
        protocol,
        lang: this.opts.lang,
        origin: this.opts.origin,
      });
      this.conn = conn;
      conn.on((e) => this.onEdge(e, audio, recording));
      conn.closed
        .then((c) => this.onClosed(c))
        .catch((e: unknown) => {
          if (!this.ending) this.end('error', (e as Error).message);
        });
      await conn.ready;
      if (this.ending) return await this.finish(audio, recording, ctrl);
      this.connectedAt = this.clock.now();
      this.summary.connectMs = Math.round(this.connectedAt - this.t0);
      this.log({ event: 'connected', connect_ms: this.summary.connectMs });
      this.store.update({ connected: true });
      if (this.opts.mic) {
        const mic = this.opts.mic;
        const start = () => {
          if (this.micStarted || this.ending) return;
          this.micStarted = true;
          this.summary.micStartMs = Math.round(this.clock.now() - this.t0);
          this.log({ event: 'mic', source: mic.label, duration_ms: mic.durationMs });
          mic.start(pump, (m) => {
            this.fail(m);
            // The view stops showing a meter for a mic that is not there (typing still works).
            this.store.update({ mic: { ...this.store.getSnapshot().mic, label: null } });
            if (this.opts.endOnMicFailure) this.end('error', m);
          });
        };
        if (this.opts.micAfterGreeting) {
          this.startMic = start;
          // No greeting within a few seconds (greeting disabled): start anyway.
          this.micFallback = setTimeout(start, 4000);
        } else start();
      }
      // Silence keeps the uplink's cadence even with no mic (spec 4.6).
      void pump.run(ctrl.signal);
      clockTimer = setInterval(() => this.tickClock(), 250);
      // --say first, then any line piped in while connecting.
      this.scripted = [...(this.opts.say ?? []), ...this.scripted];
      // No greeting under way shortly after connecting (disabled or held): the first line goes.
      this.scriptedTimer = setTimeout(() => {
        this.scriptedTimer = undefined;
        this.mayType = true;
        if (!this.reply && this.edgeState !== 'thinking' && !this.followUps.due)
          this.sendScripted();
      }, SCRIPTED_WAIT_MS);
      await this.woken;
    } catch (e) {
      if (!this.ending) this.end('error', (e as Error).message);
    } finally {
      if (clockTimer) clearInterval(clockTimer);
      clearTimeout(this.scriptedTimer);
    }
    return this.finish(audio, recording, ctrl);
  }

  private sendScripted(): void {
    clearTimeout(this.scriptedTimer);
    this.scriptedTimer = undefined;
    const next = this.ending ? undefined : this.scripted.shift();
    if (next !== undefined) void this.say(next);
  }

  private gate: (speaking: boolean) => void = () => undefined;
  private replyDeadline: NodeJS.Timeout | undefined;

  private tickClock(): void {
    if (this.connectedAt === undefined) return;
    const elapsedS = (this.clock.now() - this.connectedAt) / 1000;
    this.store.update({ elapsedS });
    // The edge enforces the cap (spec 4.5); this side ends too if it has not within a grace.
    if (elapsedS >= this.opts.minted.cap_seconds + 3)
      this.end('cap_reached', `${this.opts.minted.cap_seconds} s`);
    this.releaseUnheardMicFile();
    if (this.opts.endAfterMicFile && this.micStarted && this.pump?.drained) {
      this.micFileDrainedAt ??= this.clock.now();
      if (this.clock.now() - this.micFileDrainedAt >= MIC_FILE_SETTLE_MS)
        this.inputEnded('the mic file');
    }
  }

  /**
   * A --mic-file held after an utterance that the edge never took up (no partial, no turn,
   * no reply while it listened for MIC_FILE_UNHEARD_MS): the file goes on.
   */
  private releaseUnheardMicFile(): void {
    const quiet =
      this.pump?.paused &&
      !this.reply &&
      !this.hearing &&
      !this.followUps.due &&
      (this.edgeState === undefined || this.edgeState === 'listening');
    if (!quiet) {
      this.micFileQuietSince = undefined;
      return;
    }
    this.micFileQuietSince ??= this.clock.now();
    if (this.clock.now() - this.micFileQuietSince < MIC_FILE_UNHEARD_MS) return;
    this.micFileQuietSince = undefined;
    this.notice(
      `the edge heard nothing of the mic file's last utterance in ${MIC_FILE_UNHEARD_MS / 1000} s: going on`,
    );
    this.pump?.hold(false);
  }

  private onSpeaking(speaking: boolean, _pump: MicPump): void {
    this.gate(speaking);
    this.store.update({ speaking });
    if (!this.reply) return;
    if (speaking) this.reply.loud = this.reply.spoke = true;
    else if (this.reply.loud && !this.reply.edgeSpeaking) this.closeReply();
  }

  /** A brain-only reply closes after this many more status frames (closeTextReplyAfterStatus). */
  private textReplyFrames = 0;
  private textReplyFallback: NodeJS.Timeout | undefined;

  private closeTextReplyAfterStatus(r: NonNullable<typeof this.reply>): void {
    this.textReplyFrames = 2;
    clearTimeout(this.textReplyFallback);
    // No status frames (an edge that sends none): close it anyway, a moment later.
    this.textReplyFallback = setTimeout(() => {
      if (this.reply === r) this.closeReply();
    }, 1000);
  }

  /** Edge status frames (docs/edge.md: `state`, `speech_id` at about 10 Hz). */
  private onStatus(f: Record<string, unknown>): void {
    if (f.type === 'status' && typeof f.state === 'string') this.edgeState = f.state;
    if (f.type === 'status' && this.textReplyFrames > 0 && --this.textReplyFrames === 0) {
      clearTimeout(this.textReplyFallback);
      this.closeReply();
    }
    const r = this.reply;
    if (!r?.speechId || f.type !== 'status' || typeof f.state !== 'string') return;
    const mine = f.speech_id === r.speechId && f.state === 'speaking';
    if (mine) {
      r.edgeSpeaking = r.spoke = true;
      if (this.replyGrace) clearTimeout(this.replyGrace);
      this.replyGrace = undefined;
    } else if (r.edgeSpeaking && !this.replyGrace) {
      // The edge has sent the last of it; fragments still in flight get a moment to land.
      this.replyGrace = setTimeout(() => {
        this.replyGrace = undefined;
        if (this.reply === r) this.closeReply();
      }, 400);
    }
  }

  private closeReply(): void {
    const r = this.reply;
    if (!r) return;
    this.reply = undefined;
    // Its deadline is done with: a line that follows (a tool's follow-up) gets its own.
    if (this.replyDeadline) clearTimeout(this.replyDeadline);
    this.replyDeadline = undefined;
    if (!this.textOnly)
      this.log({
        event: 'reply_media',
        seq: r.seq,
        bytes: r.bytes,
        segments: r.segments,
        spoken: r.spoke,
        ...(r.greeting ? { greeting: true } : {}),
        ...(r.avatarLine ? { avatar_line: true } : {}),
      });
    if (r.greeting && this.startMic) {
      clearTimeout(this.micFallback);
      this.startMic();
    }
    // The avatar has finished speaking: the next --say line goes.
    this.mayType = true;
    this.paceOn();
  }

  /**
   * The avatar is quiet: the session ends once its turns are done, else the next queued line
   * goes; neither while a tool's follow-up line is due (it would be cut before a word).
   */
  private paceOn(): void {
    if (this.reply || this.ending) return;
    const due = this.followUps.due;
    if (!due) this.pump?.hold(false);
    if (due) {
      if (this.waitNoted !== due.callId) {
        this.waitNoted = due.callId;
        this.notice(
          `waiting for ${due.tool}'s follow-up line before going on (at most ${this.followUps.waitMs / 1000} s)`,
        );
      }
      return;
    }
    if (this.opts.turns !== undefined && this.userTurns >= this.opts.turns)
      return this.end('turns_done', `${this.opts.turns} turn${this.opts.turns === 1 ? '' : 's'}`);
    if (this.scripted.length) this.sendScripted();
    else this.endIfInputDone();
  }

  /** A due follow-up came (its line is tracked as a reply), or will not: pacing resumes. */
  private onFollowUpSettled(s: Settled): void {
    if (s.how !== 'timeout') return;
    this.notice(
      `no follow-up line from ${s.call.tool} within ${this.followUps.waitMs / 1000} s: going on`,
    );
    if (this.mayType) this.paceOn();
    else if (!this.followUps.due && !this.reply) this.pump?.hold(false);
  }

  private notice(message: string): void {
    this.store.addLine('info', message);
    this.log({ event: 'notice', message });
  }

  private onEdge(e: EdgeEvent, audio: ReplyAudio, recording: StreamRecording | undefined): void {
    switch (e.type) {
      case 'media_init':
        this.log({ event: 'media_init', mime: e.mime });
        return;
      case 'media': {
        audio.write(e.bytes);
        recording?.write(e.bytes);
        if (this.reply) {
          this.reply.bytes += e.bytes.length;
          this.reply.segments++;
        }
        this.store.update({ media: { bytes: e.total, segments: e.segments } });
        if (e.segments === 1) {
          this.summary.firstMediaMs = Math.round(this.clock.now() - this.t0);
          this.log({
            event: 'first_media',
            bytes: e.bytes.length,
            ms_since_connect: this.summary.firstMediaMs,
          });
        } else if (this.clock.now() - this.lastMediaLog >= 1000) {
          this.lastMediaLog = this.clock.now();
          this.log({ event: 'media', bytes: e.total, segments: e.segments });
        }
        return;
      }
      case 'partial':
        this.hearing = true;
        this.store.update({ partial: e.text });
        this.log({ event: 'partial', text: e.text });
        return;
      case 'turn': {
        this.closeReply();
        const seq = ++this.turns;
        // The edge marks its greeting; any other turn with no user text is a line the avatar
        // began itself (a tool's follow-up, filler or apology; docs/tools.md).
        const greeting = e.greeting === true;
        const avatarLine = !greeting && !e.text;
        const line = avatarLine ? this.followUps.avatarLine(e.reply) : undefined;
        if (!greeting && !avatarLine) {
          this.awaitingTurn = false;
          this.hearing = false;
          this.userTurns++;
          this.summary.firstTurnMs ??= Math.round(this.clock.now() - this.t0);
          // The user spoke: a result still to come colours the next reply, no line follows.
          this.followUps.userSpoke();
          this.pump?.turnArrived();
          this.store.update({ partial: '' });
          // A typed line is already on screen; the turn repeats it.
          if (e.text !== this.lastTyped) this.store.addLine('user', e.text);
          this.lastTyped = undefined;
        }
        this.store.addLine('avatar', e.reply);
        this.log({
          event: 'turn',
          seq,
          text: e.text,
          reply: e.reply,
          language: e.language,
          speech_id: e.speech_id,
          ...(greeting ? { greeting: true } : {}),
          ...(avatarLine ? { avatar_line: true } : {}),
          ...(line
            ? { tool_line: { kind: line.kind, tool: line.call.tool, call_id: line.call.callId } }
            : {}),
          // Brain-only sessions: which brain answered and its token counts (docs/edge.md).
          ...(e.brain ? { brain: e.brain } : {}),
        });
        void audio;
        if (greeting) this.greetingSpeechId = e.speech_id;
        if (greeting && this.startMic) clearTimeout(this.micFallback);
        this.reply = {
          seq,
          greeting,
          avatarLine,
          speechId: e.speech_id,
          bytes: 0,
          segments: 0,
          loud: false,
          edgeSpeaking: false,
          spoke: false,
        };
        // Brain-only: the reply is over when its text is here, but a tool the turn fires is
        // announced (`calling`, on /events) just after: pacing goes on after two status
        // frames of /events (about 0.2 s), by when a call this turn fires has been seen.
        if (this.textOnly) this.closeTextReplyAfterStatus(this.reply);
        else if (!greeting && this.opts.turns !== undefined && this.userTurns >= this.opts.turns) {
          // Never wait forever for audible speech (a silent voice, a lost decoder).
          this.replyDeadline = setTimeout(() => this.closeReply(), this.opts.replyWaitMs ?? 30_000);
        }
        return;
      }
      case 'agent_event':
        if (e.kind === 'calling' && e.call_id) {
          this.followUps.calling(
            e.call_id,
            e.tool ?? 'tool',
            // A file's utterance with no partial yet is a turn under way all the same.
            this.awaitingTurn ||
              this.hearing ||
              (this.opts.mic?.kind === 'file' && !!this.pump?.utterancePending),
          );
          // A mic file waits too: it stops at its next pause until the follow-up has been spoken.
          if (this.opts.mic?.kind === 'file') this.pump?.hold(true);
        } else if (e.call_id && (e.kind === 'image' || e.kind === 'image_pending'))
          this.followUps.answered(e.call_id);
        this.store.addLine(
          'tool',
          `${e.tool ?? 'tool'}: ${e.kind}${e.caption ? ` — ${e.caption}` : ''}${e.url ? ` ${e.url}` : ''}`,
        );
        this.log({
          event: 'agent_event',
          kind: e.kind,
          tool: e.tool,
          call_id: e.call_id,
          url: e.url,
          caption: e.caption,
        });
        return;
      case 'speech':
        if (e.status === 'interrupted') {
          const note = interruptedNote(
            e.speech_id !== undefined && e.speech_id === this.greetingSpeechId,
            e.said ?? '',
          );
          this.store.addLine('info', note);
          this.log({ event: 'notice', message: note });
        }
        return;
      case 'error':
        if (e.error.startsWith('render_disabled')) {
          this.textOnly = true;
          const note =
            'brain-only session (config.render false): replies come as text, with no media';
          this.store.addLine('info', note);
          this.log({ event: 'notice', message: `${note} (render_disabled)` });
          return;
        }
        this.fail(`edge: ${e.error}`);
        return;
      case 'telemetry':
        this.onStatus(e.frame);
        return;
      default:
        return;
    }
  }

  private onClosed(c: ClosedEvent): void {
    if (c.reason === 'client') return;
    const elapsed =
      this.connectedAt === undefined ? 0 : (this.clock.now() - this.connectedAt) / 1000;
    if (c.reason === 'refused') this.end('refused', c.detail);
    else if (c.reason === 'lost')
      this.end('socket_lost', c.detail ?? (c.code ? `close code ${c.code}` : undefined));
    // The edge says so in the close (4001 `session_cap: ...`); a bare close near the cap counts too.
    else if (
      c.code === 4001 ||
      (c.detail ?? '').startsWith('session_cap') ||
      elapsed >= this.opts.minted.cap_seconds - 2
    ) {
      this.end('cap_reached', c.detail || `${this.opts.minted.cap_seconds} s`);
    } else this.end('edge_closed', c.detail || (c.code ? `close code ${c.code}` : undefined));
  }

  private async finish(
    audio: ReplyAudio,
    recording: StreamRecording | undefined,
    ctrl: AbortController,
  ): Promise<LiveSummary> {
    if (this.replyDeadline) clearTimeout(this.replyDeadline);
    if (this.replyGrace) clearTimeout(this.replyGrace);
    this.followUps.clear();
    clearTimeout(this.micFallback);
    clearTimeout(this.textReplyFallback);
    ctrl.abort();
    this.opts.mic?.stop();
    this.closeReplyQuietly();
    await this.conn?.close();
    audio.close();
    let released = true;
    let releaseError: string | undefined;
    // Every exit path releases the seat (the edge frees it on close too; release is idempotent).
    try {
      await this.opts.release();
    } catch (e) {
      released = false;
      releaseError = (e as Error).message;
    }
    if (recording) {
      const r = await recording.finish();
      this.log({
        event: 'recorded',
        path: r.path,
        bytes: r.bytes,
        remuxed: r.remuxed,
        error: r.error,
      });
      // The ink view prints nothing of the log: its last frame says where the file went.
      this.store.update({
        recorded: {
          path: r.path,
          bytes: r.bytes,
          remuxed: r.remuxed,
          ...(r.error ? { error: r.error } : {}),
        },
      });
    }
    const ending = this.ending ?? { reason: 'error' as const, detail: 'ended without a reason' };
    const durationS =
      this.connectedAt === undefined ? 0 : (this.clock.now() - this.connectedAt) / 1000;
    const media = this.store.getSnapshot().media.bytes;
    this.store.update({ ended: ending });
    this.log({
      event: 'ended',
      reason: ending.reason,
      detail: ending.detail,
      duration_s: Math.round(durationS * 10) / 10,
      turns: this.userTurns,
      media_bytes: media,
      released,
      release_error: releaseError,
    });
    return {
      ...this.summary,
      reason: ending.reason,
      detail: ending.detail,
      durationS,
      turns: this.userTurns,
      mediaBytes: media,
      released,
    };
  }

  private closeReplyQuietly(): void {
    if (this.reply) {
      const r = this.reply;
      this.reply = undefined;
      if (!this.textOnly)
        this.log({
          event: 'reply_media',
          seq: r.seq,
          bytes: r.bytes,
          segments: r.segments,
          spoken: r.spoke,
          ...(r.greeting ? { greeting: true } : {}),
          ...(r.avatarLine ? { avatar_line: true } : {}),
        });
    }
  }
}
