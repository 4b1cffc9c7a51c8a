/**
 * Mic audio into turns (spec 4.6 /mic_stream, 6.1 partial/turn): each 100 ms frame goes
 * through the VAD; an utterance starts after `startFrames` of speech and commits after
 * `endFrames` of silence; while it lasts a `partial` goes out about every `partialEveryMs`;
 * on commit the recognizer transcribes it and the turn loop answers. Speech that starts
 * while the avatar talks is barge-in (server-side, spec 4.6).
 */
import type { Recognizer, Vad } from '../../models/index.js';
import type { LiveSession } from './live-session.js';
import type { TurnLoop } from './turn-loop.js';

export interface MicInputOptions {
  startFrames: number;
  endFrames: number;
  partialEveryFrames: number;
}

const defaults: MicInputOptions = { startFrames: 2, endFrames: 6, partialEveryFrames: 5 };

export class MicInput {
  lang: string | null = null;
  private speechRun = 0;
  private silenceRun = 0;
  private inUtterance = false;
  private frames: Int16Array[] = [];
  private sincePartial = 0;
  private partialBusy = false;
  /** Fires when an utterance ends (bench: end of speech to `turn`). */
  onSpeechEnd: (() => void) | null = null;

  constructor(
    private readonly session: LiveSession,
    private readonly loop: TurnLoop,
    private readonly vad: Vad,
    private readonly recognizer: Recognizer,
    private readonly opts: MicInputOptions = defaults,
  ) {}

  push(frame: Int16Array): void {
    const speech = !isDigitalSilence(frame) && this.vad.isSpeech(frame);
    if (speech) {
      this.speechRun++;
      this.silenceRun = 0;
    } else {
      this.silenceRun++;
      this.speechRun = 0;
    }
    if (!this.inUtterance) {
      this.frames.push(frame);
      // keep a short pre-roll so the first syllable is not lost
      if (this.frames.length > this.opts.startFrames + 1) this.frames.shift();
      if (this.speechRun >= this.opts.startFrames) {
        this.inUtterance = true;
        this.sincePartial = 0;
        // spec 4.6: barge-in is server-side; user speech during a reply cuts it.
        if (this.loop.state !== 'listening' || this.loop.speechId) this.loop.bargeIn();
      }
      return;
    }
    this.frames.push(frame);
    if (++this.sincePartial >= this.opts.partialEveryFrames) {
      this.sincePartial = 0;
      void this.partial();
    }
    if (this.silenceRun >= this.opts.endFrames) void this.commit();
  }

  private async partial(): Promise<void> {
    if (this.partialBusy) return;
    this.partialBusy = true;
    try {
      const r = await this.recognizer.transcribe(concat(this.frames), this.lang ? { lang: this.lang } : {});
      if (this.inUtterance && !this.session.ended) this.session.broadcast('control', { type: 'partial', text: r.text });
    } finally {
      this.partialBusy = false;
    }
  }

  private async commit(): Promise<void> {
    const audio = concat(this.frames);
    this.inUtterance = false;
    this.frames = [];
    this.speechRun = this.silenceRun = 0;
    this.vad.reset();
    this.onSpeechEnd?.();
    const r = await this.recognizer.transcribe(audio, this.lang ? { lang: this.lang } : {});
    if (this.session.ended) return;
    this.loop.userTurn(r.text, { unrecognised: !r.recognised });
  }
}

/**
 * Zeroed or near-zero frames (spec 4.6: "silence or zeroed frames keep cadence") are not
 * speech: skipping the VAD for them keeps a listening session nearly free.
 */
function isDigitalSilence(frame: Int16Array): boolean {
  for (let i = 0; i < frame.length; i++) if (frame[i]! > 32 || frame[i]! < -32) return false;
  return true;
}

function concat(frames: Int16Array[]): Int16Array {
  const out = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of frames) {
    out.set(f, o);
    o += f.length;
  }
  return out;
}
