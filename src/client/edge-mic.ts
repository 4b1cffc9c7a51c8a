/**
 * The /mic_stream uplink at real-time cadence (spec 4.6): one 3,200-byte frame (100 ms of
 * 16 kHz mono PCM16) every 100 ms, whatever the source does. A file is fed all at once and
 * drains at cadence; a microphone feeds as it records. When the source has nothing (a file
 * that ended, a mic that lags) or the mic is gated (the avatar is speaking and the terminal
 * has no echo canceller), zeroed frames keep the cadence. A held source (a file waiting for
 * the avatar) stops at its next quiet frame and keeps its audio until released.
 */
import { MIC_FRAME_BYTES, MIC_FRAME_MS } from './edge-events.js';

/** Time for pacing; tests drive it, the CLI uses the real one. */
export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realPacerClock: PacerClock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const t = setTimeout(done, Math.max(0, ms));
      function done() {
        signal?.removeEventListener('abort', done);
        clearTimeout(t);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

export interface MicFrameInfo {
  /** RMS level of what the source gave, in dBFS (-Infinity for silence). */
  levelDb: number;
  /** True when the frame carried source audio (not fill). */
  fromSource: boolean;
  gated: boolean;
  /** Frames sent so far, this one included. */
  sent: number;
}

export interface MicPumpOptions {
  send(frame: Uint8Array): void;
  clock?: PacerClock;
  /** Called after every frame (level meter, counters). */
  onFrame?(info: MicFrameInfo): void;
  /** Audio buffered beyond this is dropped (oldest first) to keep a live mic's latency low; default unlimited (files). */
  maxBufferedMs?: number;
  /**
   * A file said one utterance at a time (`sessions live --mic-file`): once the source has
   * spoken and then has at least this much quiet ahead, it is held (zeroed frames close the
   * utterance at the edge) until `hold(false)`, so the next question waits for the answer.
   */
  pauseAfterUtteranceMs?: number;
}

/** Quieter than this (dBFS over 100 ms) is a pause in the source, where a hold may begin. */
const PAUSE_DB = -50;

export class MicPump {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private gated = false;
  private holding = false;
  private held = false;
  private sourceEnded = false;
  /** The source has sent speech since the last utterance hold. */
  private spoke = false;
  /** The edge's turn for that speech has come (turnArrived). */
  private answered = false;
  private sent = 0;
  private readonly clock: PacerClock;

  constructor(private readonly opts: MicPumpOptions) {
    this.clock = opts.clock ?? realPacerClock;
  }

  /** Append source PCM16 (any chunk size; frames are cut here). */
  feed(pcm: Uint8Array): void {
    if (pcm.length === 0) return;
    this.chunks.push(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    this.buffered += pcm.length;
    const max = this.opts.maxBufferedMs;
    if (max !== undefined) {
      const limit = Math.ceil(max / MIC_FRAME_MS) * MIC_FRAME_BYTES;
      if (this.buffered > limit) this.take(this.buffered - limit);
    }
  }

  /** The source has no more audio: silence from now on. */
  end(): void {
    this.sourceEnded = true;
  }

  /** Gate the mic (zeroed frames) while the avatar speaks. */
  setGated(on: boolean): void {
    this.gated = on;
  }

  /**
   * Hold the source (`sessions live --mic-file` while a tool follow-up is due): from its next
   * quiet frame (never inside an utterance) zeroed frames keep the cadence and the source's
   * audio waits, unsent, until `hold(false)`.
   */
  hold(on: boolean): void {
    this.holding = on;
    if (!on) this.held = false;
  }

  /**
   * The source has said something whose answer has not released it yet: speech sent since
   * the last hold, or an utterance hold still on (`sessions live --mic-file`). The user's turn
   * is under way even when no partial of it has arrived (a busy recogniser sends none).
   */
  get utterancePending(): boolean {
    return (this.spoke || this.holding) && !this.answered;
  }

  /** The edge committed the user turn of what the source said (utterancePending turns false). */
  turnArrived(): void {
    this.answered = true;
  }

  /** The hold has begun: the source is paused at a quiet frame. */
  get paused(): boolean {
    return this.held;
  }

  /** Source audio not yet sent, in ms. */
  get pendingMs(): number {
    return (this.buffered / MIC_FRAME_BYTES) * MIC_FRAME_MS;
  }

  /** True once the source ended and everything it gave was sent. */
  get drained(): boolean {
    return this.sourceEnded && this.buffered === 0;
  }

  /** Send frames at cadence until `signal` aborts. Deadlines are absolute, so timer jitter never accumulates. */
  async run(signal: AbortSignal): Promise<void> {
    const t0 = this.clock.now();
    for (let n = 0; !signal.aborted; n++) {
      const due = t0 + n * MIC_FRAME_MS;
      const wait = due - this.clock.now();
      if (wait > 0) await this.clock.sleep(wait, signal);
      if (signal.aborted) break;
      this.tick();
    }
  }

  /** Send exactly one frame now (the cadence loop calls this every 100 ms). */
  tick(): void {
    if (this.spoke && !this.holding && this.utteranceEnded()) {
      this.spoke = false;
      this.holding = true;
    }
    if (this.holding && !this.held) {
      const next = this.peek(MIC_FRAME_BYTES);
      if (next.length === 0 || levelDb(next) < PAUSE_DB) this.held = true;
    }
    const fromSource =
      !this.held && (this.buffered >= MIC_FRAME_BYTES || (this.sourceEnded && this.buffered > 0));
    const src = fromSource ? this.take(Math.min(MIC_FRAME_BYTES, this.buffered)) : undefined;
    const frame = Buffer.alloc(MIC_FRAME_BYTES);
    if (src && levelDb(src) >= PAUSE_DB && !this.spoke) {
      this.spoke = true;
      this.answered = false;
    }
    if (src && !this.gated) src.copy(frame);
    this.opts.send(frame);
    this.sent++;
    this.opts.onFrame?.({
      levelDb: src ? levelDb(src) : -Infinity,
      fromSource,
      gated: this.gated,
      sent: this.sent,
    });
  }

  /** With pauseAfterUtteranceMs: the source has that much quiet ahead (or only quiet until its end). */
  private utteranceEnded(): boolean {
    const ms = this.opts.pauseAfterUtteranceMs;
    if (ms === undefined) return false;
    const frames = Math.ceil(ms / MIC_FRAME_MS);
    const ahead = this.peek(frames * MIC_FRAME_BYTES);
    if (ahead.length < frames * MIC_FRAME_BYTES && !this.sourceEnded) return false;
    for (let o = 0; o < ahead.length; o += MIC_FRAME_BYTES)
      if (levelDb(ahead.subarray(o, o + MIC_FRAME_BYTES)) >= PAUSE_DB) return false;
    return true;
  }

  /** Up to `n` bytes of the source, left in place. */
  private peek(n: number): Buffer {
    const out: Buffer[] = [];
    let got = 0;
    for (const c of this.chunks) {
      if (got >= n) break;
      const part = c.subarray(0, n - got);
      out.push(part);
      got += part.length;
    }
    return Buffer.concat(out);
  }

  private take(n: number): Buffer {
    const out = Buffer.alloc(n);
    let off = 0;
    while (off < n) {
      const c = this.chunks[0]!;
      const k = Math.min(c.length, n - off);
      c.copy(out, off, 0, k);
      off += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.buffered -= n;
    return out;
  }
}

/** RMS of PCM16 little-endian samples in dBFS. */
export function levelDb(pcm: Uint8Array): number {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength - (pcm.byteLength % 2));
  const n = view.byteLength / 2;
  if (n === 0) return -Infinity;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = view.getInt16(i * 2, true) / 32768;
    sum += s * s;
  }
  const rms = Math.sqrt(sum / n);
  return rms === 0 ? -Infinity : 20 * Math.log10(rms);
}
