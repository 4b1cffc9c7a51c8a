/**
 * Utterance detection (issue 8 item 4): 100 ms mic frames in, turn boundaries out. Driven by
 * frame counts only (a frame is 100 ms of the user's audio), so it is the same at any speed
 * and tests feed frames instead of waiting.
 *
 * - `speech-start` once `minSpeechMs` of speech frames came in a row, with the audio so far;
 *   the utterance includes `preRollMs` of audio from before that point, so soft onsets are
 *   not clipped. A streaming recogniser gets that audio, then each frame as it comes.
 * - `partial-due` every `partialEveryMs` of utterance while it lasts, with the audio so far
 *   (the partial policy decides what, if anything, to send: partials.ts).
 * - `utterance-end` after the end-of-turn policy's wait of non-speech (reason `silence`; the
 *   plain `hangoverMs` by default, sooner or later from the words heard: end-of-turn.ts), at `maxUtteranceMs`
 *   (reason `max-length`, so a user who never pauses still gets answered), or on `flush()`
 *   (reason `flush`: the mic closed). Its samples run from the pre-roll to the last speech
 *   frame plus the hangover.
 * Defaults are in UTTERANCE_DEFAULTS (docs/turns.md explains each).
 */
import type { Vad } from '../../models/vad.js';
import { HANGOVER_ONLY, type EndOfTurnPolicy } from './end-of-turn.js';
import { FRAME_MS, FRAME_SAMPLES } from './frames.js';

export interface UtteranceTunables {
  /** Speech needed in a row before a turn starts (filters clicks and coughs). */
  minSpeechMs: number;
  /** Audio kept from before the start (the onset the VAD needed time to hear). */
  preRollMs: number;
  /** Non-speech that ends the utterance. */
  hangoverMs: number;
  /** An utterance ends at this length even if the user has not paused. */
  maxUtteranceMs: number;
  /** Spacing of `partial-due` events while the user speaks. */
  partialEveryMs: number;
}

export const UTTERANCE_DEFAULTS: UtteranceTunables = {
  minSpeechMs: 200,
  preRollMs: 300,
  hangoverMs: 700,
  maxUtteranceMs: 15_000,
  partialEveryMs: 1_000,
};

export type UtteranceEvent =
  /** `atMs`: position in the mic stream (frames pushed x 100 ms) at the end of this frame; `samples`: the utterance so far (pre-roll included). */
  | { type: 'speech-start'; atMs: number; samples: Int16Array }
  | { type: 'partial-due'; atMs: number; samples: Int16Array }
  | {
      type: 'utterance-end';
      atMs: number;
      samples: Int16Array;
      reason: 'silence' | 'max-length' | 'flush';
      speechMs: number;
    };

export class UtteranceDetector {
  readonly tunables: UtteranceTunables;
  private frames = 0;
  /** Frames before an utterance (the pre-roll ring) or of the current utterance. */
  private history: Int16Array[] = [];
  private run = 0; // speech frames in a row
  private inUtterance = false;
  private silentFrames = 0;
  private speechFrames = 0;
  private sincePartial = 0;

  constructor(
    private readonly vad: Vad,
    tunables: Partial<UtteranceTunables> = {},
    /** How long a silence ends the turn (end-of-turn.ts); the plain hangover by default. */
    private readonly endOfTurn: EndOfTurnPolicy = HANGOVER_ONLY,
  ) {
    this.tunables = { ...UTTERANCE_DEFAULTS, ...tunables };
  }

  /** Whether an utterance is under way. */
  get speaking(): boolean {
    return this.inUtterance;
  }

  /** Speech heard in a row up to the last frame, in ms (for barge-in). */
  get speechRunMs(): number {
    return this.run * FRAME_MS;
  }

  /** Feeds one 100 ms frame (1600 samples); returns what it completed, in order. */
  push(frame: Int16Array): UtteranceEvent[] {
    if (frame.length !== FRAME_SAMPLES)
      throw new RangeError(
        `mic frames are ${FRAME_SAMPLES} samples (100 ms at 16 kHz), got ${frame.length}`,
      );
    const t = this.tunables;
    const speech = this.vad.isSpeech(frame);
    this.frames++;
    const atMs = this.frames * FRAME_MS;
    this.run = speech ? this.run + 1 : 0;
    this.history.push(frame.slice());
    const out: UtteranceEvent[] = [];

    if (!this.inUtterance) {
      const keep = frames(t.preRollMs) + frames(t.minSpeechMs);
      if (this.history.length > keep) this.history.splice(0, this.history.length - keep);
      if (this.run >= Math.max(1, frames(t.minSpeechMs))) {
        this.inUtterance = true;
        this.silentFrames = 0;
        this.speechFrames = this.run;
        this.sincePartial = 0;
        this.endOfTurn.reset();
        out.push({ type: 'speech-start', atMs, samples: join(this.history) });
      }
      return out;
    }

    if (speech) {
      this.speechFrames++;
      this.silentFrames = 0;
      this.endOfTurn.speech();
    } else this.silentFrames++;
    this.sincePartial++;
    if (this.silentFrames >= frames(this.endOfTurn.waitMs(t.hangoverMs)))
      return [this.end('silence', atMs)];
    if (this.history.length >= frames(t.maxUtteranceMs)) return [this.end('max-length', atMs)];
    if (this.sincePartial >= frames(t.partialEveryMs)) {
      this.sincePartial = 0;
      out.push({ type: 'partial-due', atMs, samples: join(this.history) });
    }
    return out;
  }

  /** The mic closed: ends an utterance under way. */
  flush(): UtteranceEvent[] {
    return this.inUtterance ? [this.end('flush', this.frames * FRAME_MS)] : [];
  }

  /** Forgets any utterance under way and the VAD's state (e.g. after a mic reconnect). */
  reset(): void {
    this.history = [];
    this.run = 0;
    this.inUtterance = false;
    this.endOfTurn.reset();
    this.vad.reset();
  }

  private end(reason: 'silence' | 'max-length' | 'flush', atMs: number): UtteranceEvent {
    const samples = join(this.history);
    const speechMs = this.speechFrames * FRAME_MS;
    this.history = [];
    this.inUtterance = false;
    this.endOfTurn.reset();
    // Cut at max length mid-speech: the next speech frame starts the next utterance at once.
    if (reason !== 'max-length') this.run = 0;
    return { type: 'utterance-end', atMs, samples, reason, speechMs };
  }
}

const frames = (ms: number) => Math.round(ms / FRAME_MS);

function join(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.length * FRAME_SAMPLES);
  parts.forEach((p, i) => out.set(p, i * FRAME_SAMPLES));
  return out;
}
