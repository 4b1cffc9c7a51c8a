/**
 * One session on a box, assembled: its life (LiveSession), its media stream, the turn
 * loop, the mic input, the recorder and the 10 Hz status frames of /events (spec 6.1).
 */
import type { z } from 'zod';
import type { StatusMessage } from '../../contract/edge/messages.js';
import { type Clock, type TimerHandle } from '../../contract/clock.js';
import type { Channel } from './channel.js';
import { LiveSession, type LiveSessionHooks, type LoggedTurn } from './live-session.js';
import { MicInput } from './mic-input.js';
import type { EdgeParts, MediaRequest, SessionStream } from './parts.js';
import { Recorder } from './recorder.js';
import type { SessionSnapshot } from './snapshot.js';
import { TurnQueue } from './turn-queue.js';
import { attachTools, toolStageFor, type ToolLink } from '../tools/session-tools.js';
import type { ToolStage } from '../tools/tool-stage.js';
import type { Script } from '../../contract/resources/script.js';
import { delayedTurns, faultyBrain, faultyRecognizer, type SessionFaults } from './faults.js';
import { recognitionContext } from './recognition.js';
import { ScriptSource } from './script-source.js';

export interface EdgeSessionDeps {
  parts: EdgeParts;
  clock: Clock;
  hooks: LiveSessionHooks;
  /** Where `recording: true` captures go (null: this box records nothing). */
  captureRoot: string | null;
  fetchMedia(sessionId: string, kind: 'face' | 'idle' | 'voice'): Promise<Buffer | null>;
  store(sessionId: string, turn: LoggedTurn): void;
  log(line: string): void;
  /** The tool gateway link (absent: this box runs no tools). */
  toolLink?: ToolLink;
  /** Stream faults of a session (absent: this box meets none; box/stream-faults.ts). */
  faults?: (sessionId: string) => SessionFaults;
  /** The session's conversation script (null: none; absent: this box runs no scripts). */
  script?: (sessionId: string) => Promise<Script | null>;
}

export const STATUS_INTERVAL_MS = 100;

export class EdgeSession {
  readonly live: LiveSession;
  loop!: TurnQueue; // set in open(), after the media stream (whose fragments may already flow)
  mic: MicInput | null = null;
  stream: SessionStream | null = null;
  recorder: Recorder | null = null;
  /** Where this session meets stream faults (null: nowhere). */
  readonly faults: SessionFaults | null;
  private ticker: TimerHandle | null = null;

  private constructor(
    snapshot: SessionSnapshot,
    private readonly d: EdgeSessionDeps,
  ) {
    this.live = new LiveSession(snapshot, d.clock, d.hooks);
    this.faults = d.faults?.(snapshot.id) ?? null;
  }

  get clock(): Clock {
    return this.d.clock;
  }

  static async open(snapshot: SessionSnapshot, d: EdgeSessionDeps): Promise<EdgeSession> {
    const s = new EdgeSession(snapshot, d);
    const log = (m: string) => snapshot.sessionLogs && d.log(`[session ${snapshot.id}] ${m}`);
    // Read while the media starts; a user turn that comes first waits for it (script-source.ts).
    const script = d.script?.(snapshot.id).catch(() => null) ?? null;
    if (snapshot.recording && d.captureRoot) s.recorder = new Recorder(d.captureRoot, snapshot.id);
    const req: MediaRequest = {
      snapshot,
      clock: d.clock,
      fetchMedia: (k) => d.fetchMedia(snapshot.id, k),
    };
    if (snapshot.config.render && d.parts.media) {
      const stream = await d.parts.media(req);
      await stream.ready();
      s.stream = stream;
      if (s.recorder) s.recorder.media(stream.initSegment);
      stream.on('encoder-error', (e: Error) => log(`media encoder error: ${e.message}`));
      let announced: string | null = null;
      stream.on('fragment', (buf: Buffer, info?: { kind: string; startMs: number }) => {
        s.recorder?.media(buf);
        for (const ch of s.live.channels) if (ch.streams.has('media')) ch.sendMedia(buf);
        // The reply's first fragment just went out: say where it starts on the media timeline.
        const id = s.loop?.speechId;
        if (info?.kind === 'talk' && id && announced !== id) {
          announced = id;
          s.live.broadcast('events', {
            type: 'speech',
            speech_id: id,
            status: 'started',
            media_ms: info.startMs,
          });
        }
      });
    }
    d.parts.opened?.(snapshot);
    const voiceShape = s.stream && d.parts.voiceShape ? await d.parts.voiceShape(req) : undefined;
    s.loop = new TurnQueue({
      session: s.live,
      // Stream faults wrap the parts they fail (faults.ts): brain_fail the brain, delay_turn the turn channel.
      parts: { ...d.parts, brain: faultyBrain(d.parts.brain, s.faults) },
      clock: d.clock,
      stream: s.stream,
      ...(voiceShape ? { voiceShape } : {}),
      store: (t) => d.store(snapshot.id, t),
      log,
      announce: delayedTurns(
        (msg) => s.live.broadcast(['control', 'events'], msg),
        s.faults,
        d.clock,
      ),
    });
    for (const stage of d.parts.stages?.(snapshot) ?? []) s.loop.addStage(stage);
    // A recognizer_fail fault wraps the recogniser (faults.ts). With tools to read, the
    // recognition context (its language model) waits for their descriptions, below.
    const toolsToRead = snapshot.toolNames.length > 0 && !!d.toolLink;
    if (d.parts.vad)
      s.mic = new MicInput(
        s.live,
        s.loop,
        await d.parts.vad(),
        faultyRecognizer(d.parts.recognizer, s.faults),
        toolsToRead ? {} : { context: recognitionContext(snapshot) },
      );
    // spec 6.2: the tool lifecycle, a post-commit stage of the turn loop (src/edge/tools).
    const toolDeps = {
      live: s.live,
      loop: s.loop,
      parts: d.parts,
      clock: d.clock,
      link: d.toolLink ?? null,
      log,
    };
    let tools: ToolStage | null = null;
    if (toolsToRead && d.toolLink) {
      tools = await attachTools({ ...toolDeps, link: d.toolLink }).catch((e: unknown) => {
        log(`tools unavailable: ${(e as Error).message}`);
        return null;
      });
      s.mic?.recognition.setContext(recognitionContext(snapshot, tools?.tools ?? []));
    }
    // The conversation script, the first reply source (docs/turns.md "Conversation scripts at run time").
    if (script) {
      const loop = s.loop;
      loop.addSource(
        new ScriptSource(script, {
          clock: d.clock,
          log,
          // A session without tools still runs a script's tool step: it fails as `unknown_tool`.
          tool: (seq, name, args, followUp) =>
            (tools ??= toolStageFor(toolDeps, [])).scripted(seq, name, args, followUp),
          say: (text, wanted) => loop.ctx.say(text, wanted),
          fail: (message) => loop.failLine(message),
          end: (reason) => loop.afterQueued(() => s.live.end('script', reason)),
        }),
      );
    }
    s.live.onEnd((reason) => {
      log(`ended: ${reason}`);
      s.ticker?.cancel();
      s.stream?.close();
      s.recorder?.close(); // synchronous: the captures are final before the end is reported
    });
    s.tick();
    log('connected');
    return s;
  }

  /** A channel joins: media channels get the mime and the init segment first (spec 4.6). */
  attach(ch: Channel): void {
    if (ch.streams.has('media') && this.stream) {
      ch.sendMime(this.stream.mime);
      ch.sendMedia(this.stream.initSegment);
      // From the last keyframe: the player decodes at once, however late it joins (docs/edge.md).
      for (const f of this.stream.catchUp ?? []) ch.sendMedia(f);
    }
    this.live.attach(ch);
    this.loop.start();
  }

  /** The mic `hello` (spec 4.6): the language of the user and, for the greeting hold, session context. */
  hello(lang: string | null): void {
    this.mic?.setLang(lang);
    this.loop.context(lang);
  }

  micFrame(frame: Int16Array): void {
    this.recorder?.micFrame(frame);
    this.mic?.push(frame);
  }

  /** The status frame of /events (docs/edge.md). */
  status(): z.input<typeof StatusMessage> {
    return {
      type: 'status',
      state: this.loop.state,
      speech_id: this.loop.speechId,
      buffered_ms: this.stream ? Math.round(this.stream.bufferedMs) : 0,
      media_ms: this.stream ? Math.round(this.stream.clockMs) : null,
      session_ms: this.live.clockMs,
      cap_seconds: this.live.snapshot.capSeconds,
      render: !!this.stream,
    };
  }

  private tick(): void {
    if (this.live.ended) return;
    if (this.live.has('events')) this.live.broadcast('events', this.status());
    this.ticker = this.d.clock.setTimeout(() => this.tick(), STATUS_INTERVAL_MS);
  }
}
