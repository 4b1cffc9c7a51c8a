/**
 * The session media stream: the API the edge's `/mse` (and v2) sockets consume (spec 4.6,
 * issue 8 item 5, ARCHITECTURE property 4).
 *
 * ```ts
 * const stream = createSessionStream({ face, idle });   // face: faceFromStyle/faceFromPhoto
 * await stream.ready();                                 // then: stream.mime, stream.initSegment
 * ws.send(JSON.stringify({ mime: stream.mime }));  ws.send(stream.initSegment);
 * stream.on('fragment', (buf, info) => ws.send(buf));   // moof+mdat, paced at real time
 * const reply = stream.speak(await voice.synthesize(sentence));
 * reply.interrupt();                                    // barge-in: ms of the reply heard
 * stream.close();
 * ```
 *
 * One continuous fMP4 timeline per session: the init segment once, then moof+mdat
 * fragments (<= 250 ms) with a monotonic `tfdt` per track and `mfhd` sequence numbers
 * 1, 2, 3... The stream paces itself: each fragment is emitted when its media time comes
 * on the clock, `leadMs` early. While listening it replays the pre-encoded idle loop (or,
 * until one exists, a 320 ms still loop encoded once at `ready()`), re-timing fragments in
 * place: no encoder runs. `speak()` makes one talking clip, spliced from the face's
 * pre-encoded mouth shapes with its sound from a shared audio encoder (visemes.ts, aac.ts;
 * `talk: 'encoded'` or a face with no shape bank: one live encode, talk-clip.ts); its
 * fragments replace the idle loop at the next fragment boundary. A live encode is fed only
 * ENCODE_AHEAD_MS ahead of where it plays: the box spends its CPU as the media is due, so
 * a reply that starts while others are talking is not queued behind their bursts (its
 * first fragment is what a listener waits for). Audio never stops (the loops carry
 * silent AAC). Every fragment ends both tracks together (encoder.ts), so each clip starts
 * where the last fragment sent ended, with no gap in either track.
 *
 * Events: `fragment` (buf, { kind: 'idle'|'still'|'talk', startMs, durationMs }),
 * `state` ('listening'|'speaking'), `encoder-error` (Error; the reply ends as interrupted;
 * deliberately not `error`, which would throw with no listener), `close`.
 */
import { EventEmitter } from 'node:events';
import type { Speech } from '../models/voice.js';
import { monotonicClock, type Clock } from '../contract/clock.js';
import type { FaceSource } from './face-source.js';
import { mimeOf, type Fragment, type TrackInfo } from './fmp4.js';
import { Timeline, type Shift } from './timeline.js';
import { renderStillLoop, type IdleLoop } from './idle-loop.js';
import { liveInit, warmEncoder } from './encoder.js';
import { encodeTalk, type TalkEncode } from './talk-clip.js';
import { spliceTalk, visemeBank, type VisemeBank } from './visemes.js';

export type FragmentKind = 'idle' | 'still' | 'talk';
export interface FragmentInfo {
  kind: FragmentKind;
  /** Position on the session timeline (ms since the stream's first fragment). */
  startMs: number;
  durationMs: number;
}

export interface ReplyResult {
  /** Milliseconds of the speech the listener gets (sent before the cut), 0..speech.durationMs. */
  playedMs: number;
  interrupted: boolean;
}

/**
 * How far ahead of playback a reply is encoded. Enough to ride out a late encoder start
 * (a sentence queued behind the one playing starts its encode this long before it is due)
 * on a busy box; more only moves CPU work earlier.
 */
export const ENCODE_AHEAD_MS = 1200;

/** Fragments kept for a joining player (a GOP is 1.92 s, 12 fragments; this bounds a clip without keyframes). */
const MAX_CATCH_UP = 32;

export interface ReplyHandle {
  id: string;
  /** Resolves when the reply's first fragment goes out (or it ends unplayed). */
  started: Promise<void>;
  /** Cut the reply at the next fragment (or drop it if not started); returns the ms of speech sent. Idempotent. */
  interrupt(): number;
  /** Resolves once the reply's last fragment has played out on the clock, or at the cut. */
  done: Promise<ReplyResult>;
}

export interface SessionStreamOptions {
  face: FaceSource;
  /** The version's pre-built idle loop (loadIdleLoop), or null while `assets_status` is not ready. */
  idle: IdleLoop | null;
  /** Must match the face's frame size when given (the face decides it). */
  width?: number;
  height?: number;
  /** Only 25 is supported (encoder.ts explains why); other values throw. */
  fps?: number;
  clock?: Clock;
  /** How far ahead of its media time a fragment is sent (default 150 ms). */
  leadMs?: number;
  /** Every byte sent, in order: the init segment, then each fragment (recording: true). */
  onRecord?: (buf: Buffer) => void;
  /**
   * How talking pictures are made: `spliced` (default) from the face's pre-encoded mouth
   * shapes (visemes.ts), `encoded` by a live encode per reply (talk-clip.ts; also what
   * `spliced` falls back to when a face's shape bank cannot be built).
   */
  talk?: 'spliced' | 'encoded';
}

export interface SessionStream extends EventEmitter {
  ready(): Promise<void>;
  readonly mime: string;
  readonly initSegment: Buffer;
  speak(speech: Speech): ReplyHandle;
  /** Swap in an idle loop that became ready mid-session (used from the next loop start). */
  setIdle(idle: IdleLoop): void;
  readonly state: 'listening' | 'speaking';
  /** Session media clock: ms of timeline played since the first fragment. */
  readonly clockMs: number;
  /** Media sent ahead of the clock, ms. */
  readonly bufferedMs: number;
  /**
   * The fragments sent since the last keyframe (at most a GOP, 1.92 s), as sent: a player
   * joining now gets them after the init segment and can decode at once instead of
   * waiting for the next keyframe.
   */
  readonly catchUp: readonly Buffer[];
  close(): void;
  on(event: 'fragment', fn: (buf: Buffer, info: FragmentInfo) => void): this;
  on(event: 'state', fn: (state: 'listening' | 'speaking') => void): this;
  on(event: 'encoder-error', fn: (err: Error) => void): this;
  on(event: 'close', fn: () => void): this;
}

interface Reply {
  id: string;
  speech: Speech;
  fragments: Fragment[];
  complete: boolean;
  encode: TalkEncode | null;
  /** Clip time (ms) of the end of the audio sent so far; 0 before the first fragment. */
  sentMs: number;
  cut: boolean;
  settled: boolean;
  resolve: (r: ReplyResult) => void;
  /** Session media time (ms) where the reply's first fragment starts; null until sent. */
  startMs: number | null;
  onStart: () => void;
}

/** An encoder feed held until its media time is within ENCODE_AHEAD_MS of playback. */
interface Held {
  reply: Reply;
  ms: number;
  go: () => void;
}

interface Playing {
  kind: FragmentKind;
  fragments: Fragment[];
  next: number;
  shift: Shift;
  reply?: Reply;
}

export function createSessionStream(opts: SessionStreamOptions): SessionStream {
  return new Stream(opts);
}

class Stream extends EventEmitter implements SessionStream {
  private readonly clock: Clock;
  private readonly lead: number;
  private idle: IdleLoop | null;
  private still: IdleLoop | null = null;
  private tracks: TrackInfo[] = [];
  private init: Buffer | null = null;
  private readyP: Promise<void> | null = null;
  private t0 = 0;
  private seq = 0;
  private timeline: Timeline | null = null;
  private playing: Playing | null = null;
  private readonly replies: Reply[] = [];
  private timer: { cancel(): void } | null = null;
  private closed = false;
  private started = false;
  private isReady = false;
  private replySeq = 0;
  private speaking = false;
  private held: Held[] = [];
  private recent: Buffer[] = [];
  private paceTimer: { cancel(): void } | null = null;
  private bank: VisemeBank | null = null;

  constructor(private readonly opts: SessionStreamOptions) {
    super();
    this.clock = opts.clock ?? monotonicClock;
    this.lead = opts.leadMs ?? 150;
    this.idle = opts.idle;
    const { frames } = opts.face;
    if (
      (opts.width && opts.width !== frames.width) ||
      (opts.height && opts.height !== frames.height)
    ) {
      throw new Error(
        `stream size ${opts.width}x${opts.height} differs from the face's ${frames.width}x${frames.height}`,
      );
    }
    if (opts.fps !== undefined && opts.fps !== 25)
      throw new Error('the session stream runs at 25 fps');
    if (this.idle && (this.idle.width !== frames.width || this.idle.height !== frames.height))
      this.idle = null;
    this.on('newListener', (event: string) => {
      if (event === 'fragment') queueMicrotask(() => this.maybeStart());
    });
    void this.ready().catch(() => {});
  }

  get mime(): string {
    if (!this.init) throw new Error('mime is known after ready()');
    return mimeOf(this.tracks);
  }

  get initSegment(): Buffer {
    if (!this.init) throw new Error('initSegment is known after ready()');
    return this.init;
  }

  get state(): 'listening' | 'speaking' {
    return this.speaking ? 'speaking' : 'listening';
  }

  get clockMs(): number {
    return this.started ? Math.max(0, this.clock.now() - this.t0) : 0;
  }

  get catchUp(): readonly Buffer[] {
    return [...this.recent];
  }

  get bufferedMs(): number {
    return Math.max(0, (this.timeline?.endMs ?? 0) - this.clockMs);
  }

  ready(): Promise<void> {
    this.readyP ??= (async () => {
      const { width, height } = this.opts.face.frames;
      // A loop whose init segment is not the live encoder's (another build made it) would
      // make every reply's clip be refused: the still loop plays instead. (Unknown when
      // ffmpeg fails here: the loop is kept, as before, and a failing encoder says so.)
      const bank =
        this.opts.talk === 'encoded' ? null : visemeBank(this.opts.face).catch(() => null);
      if (
        this.idle &&
        !(await liveInit(width, height).then(
          (init) => init.equals(this.idle!.init),
          () => true,
        ))
      )
        this.idle = null;
      if (this.closed) return;
      // The still loop doubles as the source of the init segment when no idle loop exists.
      const source = this.idle ?? (this.still = await renderStillLoop(this.opts.face));
      if (this.closed) return;
      // Talking is spliced from the face's mouth shapes when their init segment is this one.
      this.bank = await bank;
      if (this.closed) return;
      if (this.bank && !this.bank.init.equals(source.init)) this.bank = null;
      if (!this.bank) warmEncoder(width, height);
      this.init = source.init;
      this.tracks = source.tracks;
      this.timeline = new Timeline(source.tracks);
      this.opts.onRecord?.(this.init);
      this.isReady = true;
      this.maybeStart();
    })();
    return this.readyP;
  }

  /** The timeline starts once ready and someone listens for fragments (none is ever missed). */
  private maybeStart(): void {
    if (this.started || this.closed || !this.isReady || this.listenerCount('fragment') === 0)
      return;
    this.started = true;
    this.t0 = this.clock.now();
    this.pump();
  }

  setIdle(idle: IdleLoop): void {
    if (this.init && Buffer.compare(idle.init, this.init) !== 0) return; // another encoder setting: unusable here
    this.idle = idle;
  }

  speak(speech: Speech): ReplyHandle {
    let resolve!: (r: ReplyResult) => void;
    const done = new Promise<ReplyResult>((r) => (resolve = r));
    let onStart!: () => void;
    const started = new Promise<void>((r) => (onStart = r));
    const reply: Reply = {
      id: `reply_${++this.replySeq}`,
      speech,
      fragments: [],
      complete: false,
      encode: null,
      sentMs: 0,
      cut: false,
      settled: false,
      resolve,
      startMs: null,
      onStart,
    };
    if (this.closed) {
      reply.settled = true;
      onStart();
      resolve({ playedMs: 0, interrupted: true });
      return { id: reply.id, started, interrupt: () => 0, done };
    }
    this.replies.push(reply);
    this.setSpeaking(true);
    this.startEncodes();
    return { id: reply.id, started, interrupt: () => this.interrupt(reply), done };
  }

  /** One live encode at a time per session, in reply order (the next starts when one ends). */
  private startEncodes(): void {
    if (this.closed || this.replies.some((r) => r.encode && !r.complete)) return;
    const reply = this.replies.find((r) => !r.encode && !r.cut);
    if (!reply) return;
    const onFragment = (f: Fragment) => {
      if (reply.cut) return;
      reply.fragments.push(f);
      this.pump();
    };
    // Cannot happen with one encoder setting; never splice a foreign init into the timeline.
    const onInit = (init: Buffer) => {
      if (!this.init || Buffer.compare(init, this.init) === 0) return;
      reply.cut = true;
      reply.encode?.abort();
      this.emit(
        'encoder-error',
        new Error('talk clip init segment differs from the session init segment'),
      );
    };
    reply.encode = this.bank
      ? spliceTalk(this.bank, reply.speech, onFragment)
      : encodeTalk(this.opts.face, reply.speech, onInit, onFragment, {
          pace: (ms) => this.pace(reply, ms),
        });
    reply.encode.done.then(
      () => {
        reply.complete = true;
        this.startEncodes();
        this.pump();
      },
      (e: Error) => {
        reply.complete = true;
        if (!reply.cut && !this.closed) {
          reply.cut = true;
          this.emit('encoder-error', e);
        }
        this.startEncodes();
        this.pump();
      },
    );
  }

  private interrupt(reply: Reply): number {
    if (!reply.cut && !reply.settled) {
      reply.cut = true;
      if (!reply.encode) reply.complete = true;
      reply.encode?.abort();
      this.release();
      this.pump();
    }
    return this.playedMs(reply);
  }

  /** The encoder feed for `reply` at clip time `ms`: held while it is ENCODE_AHEAD_MS ahead of playback. */
  private pace(reply: Reply, ms: number): Promise<void> | void {
    if (this.mayFeed(reply, ms)) return;
    return new Promise<void>((go) => {
      this.held.push({ reply, ms, go });
      this.armPace();
    });
  }

  private mayFeed(reply: Reply, ms: number): boolean {
    if (reply.cut || this.closed) return true; // the encode is being aborted: let it run out
    const played = reply.startMs === null ? 0 : Math.max(0, this.clockMs - reply.startMs);
    return ms <= played + ENCODE_AHEAD_MS;
  }

  /** Let every held feed whose time has come go on. */
  private release(): void {
    const still: Held[] = [];
    for (const h of this.held) {
      if (this.mayFeed(h.reply, h.ms)) h.go();
      else still.push(h);
    }
    this.held = still;
  }

  /** One timer for the earliest held feed of a reply already playing (others wait for its start). */
  private armPace(): void {
    this.paceTimer?.cancel();
    this.paceTimer = null;
    let at = Infinity;
    for (const h of this.held)
      if (h.reply.startMs !== null) at = Math.min(at, h.reply.startMs + h.ms - ENCODE_AHEAD_MS);
    if (at === Infinity || this.closed) return;
    this.paceTimer = this.clock.setTimeout(
      () => {
        this.paceTimer = null;
        this.release();
        this.armPace();
      },
      Math.max(0, at - this.clockMs),
    );
  }

  /** Speech ms sent: the end of the audio sent, in clip time, past where the speech starts. */
  private playedMs(reply: Reply): number {
    if (reply.sentMs === 0 || !reply.encode) return 0;
    const heard = reply.sentMs - reply.encode.speechStartMs + reply.encode.trimMs;
    return Math.max(0, Math.min(reply.speech.durationMs, Math.round(heard)));
  }

  private settle(reply: Reply): void {
    if (reply.settled) return;
    reply.settled = true;
    reply.onStart();
    const i = this.replies.indexOf(reply);
    if (i >= 0) this.replies.splice(i, 1);
    reply.resolve({ playedMs: this.playedMs(reply), interrupted: reply.cut });
    if (this.replies.length === 0) this.setSpeaking(false);
  }

  private setSpeaking(on: boolean): void {
    if (this.speaking === on) return;
    this.speaking = on;
    this.emit('state', this.state);
  }

  /** Emit every fragment that is due; arm one timer for the next. */
  private pump(): void {
    if (this.closed || !this.started) return;
    this.timer?.cancel();
    this.timer = null;
    for (;;) {
      // Interrupted or failed replies at the head of the queue end now.
      while (this.replies[0]?.cut && this.playing?.reply !== this.replies[0])
        this.settle(this.replies[0]!);
      const head = this.replies[0];
      if (this.playing && this.playing.kind !== 'talk' && head && head.fragments.length > 0)
        this.playing = null; // cut the loop
      if (this.playing?.reply?.cut) {
        this.finishReply(this.playing.reply);
        continue;
      }
      if (!this.playing) {
        if (head && head.fragments.length > 0)
          this.playing = this.begin('talk', head.fragments, head);
        else {
          const loop = this.idle ?? this.still;
          if (!loop) return;
          this.playing = this.begin(this.idle ? 'idle' : 'still', loop.fragments);
        }
      }
      const p = this.playing;
      if (p.next >= p.fragments.length) {
        if (p.reply && !p.reply.complete) return; // encoder still working; its next fragment pumps
        if (p.reply) this.finishReply(p.reply);
        else this.playing = null;
        continue;
      }
      const f = p.fragments[p.next]!;
      const startMs = this.timeline!.msOf(f, p.shift, 'start');
      const now = this.clock.now() - this.t0;
      // A reply's first fragment goes out as soon as it exists: it starts where the media
      // already sent ends, so it is never more than one fragment earlier than the lead.
      let wait = p.reply && p.next === 0 ? 0 : startMs - this.lead - now;
      if (wait < -1000) {
        // We fell behind (a slow encode): the player stalled; re-anchor instead of bursting.
        this.t0 += -wait - this.lead;
        wait = 0;
      }
      if (wait > 0) {
        this.timer = this.clock.setTimeout(() => this.pump(), wait);
        return;
      }
      p.next++;
      this.emitFragment(f, p);
    }
  }

  private finishReply(reply: Reply): void {
    this.playing = null;
    reply.encode?.abort();
    if (reply.cut) return this.settle(reply);
    // Played out when the clock reaches the end of what was sent.
    const wait = (this.timeline?.endMs ?? 0) - (this.clock.now() - this.t0);
    const i = this.replies.indexOf(reply);
    if (i >= 0) this.replies.splice(i, 1);
    if (wait <= 0) return this.settleLater(reply);
    this.clock.setTimeout(() => this.settleLater(reply), wait);
  }

  private settleLater(reply: Reply): void {
    if (reply.settled) return;
    reply.settled = true;
    reply.onStart();
    reply.resolve({ playedMs: this.playedMs(reply), interrupted: false });
    if (this.replies.length === 0 && this.playing?.kind !== 'talk') this.setSpeaking(false);
  }

  private begin(kind: FragmentKind, fragments: Fragment[], reply?: Reply): Playing {
    return { kind, fragments, next: 0, shift: this.timeline!.place(fragments[0]!), reply };
  }

  private emitFragment(f: Fragment, p: Playing): void {
    const { buf, startMs, endMs } = this.timeline!.emit(f, p.shift);
    if (p.reply && p.reply.startMs === null) {
      p.reply.startMs = startMs;
      p.reply.onStart();
      this.release();
      this.armPace();
    }
    if (p.reply) {
      // Clip time of the end of the reply's audio sent so far.
      const audio = this.tracks.find((t) => t.kind === 'audio');
      const a = audio && f.tracks.find((t) => t.id === audio.id);
      const end = a ? ((a.start + a.duration) * 1000) / audio.timescale : 0;
      p.reply.sentMs = Math.max(p.reply.sentMs, end);
    }
    // A keyframe starts the catch-up afresh; the bound only matters for a clip with no keyframe.
    if (f.key || this.recent.length >= MAX_CATCH_UP) this.recent = [];
    this.recent.push(buf);
    this.opts.onRecord?.(buf);
    this.emit('fragment', buf, {
      kind: p.kind,
      startMs: Math.round(startMs),
      durationMs: Math.round(endMs - startMs),
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.timer?.cancel();
    this.paceTimer?.cancel();
    this.release();
    for (const r of [...this.replies, ...(this.playing?.reply ? [this.playing.reply] : [])]) {
      r.cut = true;
      r.encode?.abort();
      this.settle(r);
    }
    this.emit('close');
  }
}
