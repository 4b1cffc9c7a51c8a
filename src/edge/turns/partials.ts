/**
 * What `partial` says while the user speaks (spec 6.1: "interim transcript of the user").
 * - With a recogniser that can recognise speech: the audio so far is recognised again on
 *   each `partial-due` (utterance-detector.ts), at most one recognition at a time and at
 *   most every `minIntervalMs` of mic audio; a partial is sent only when its text changed,
 *   and never after the utterance it belongs to has ended (a late result is dropped).
 * - Without one: one honest placeholder per utterance at speech start (PARTIAL_PLACEHOLDER),
 *   never guessed words.
 * Times are mic-stream positions (`atMs` of the detector's events), so no clock is needed.
 */
import type { Recognizer } from '../../models/recognizer.js';

export const PARTIAL_PLACEHOLDER = '[speaking…]';

export interface PartialPolicyOptions {
  recognizer?: Recognizer | null;
  /** Least mic time between two recognitions of partial audio (default 2000 ms: a pocketsphinx run costs about a second of CPU). */
  minIntervalMs?: number;
  /** The mic hello's `lang`. */
  lang?: string;
  placeholder?: string;
}

export class PartialPolicy {
  private utterance = 0;
  private busy = false;
  private lastAtMs = -Infinity;
  private lastText = '';
  private readonly recognize: boolean;

  constructor(private readonly opts: PartialPolicyOptions = {}) {
    this.recognize = Boolean(opts.recognizer?.available);
  }

  /** At speech start: the placeholder to send when there is no recogniser, else null. */
  onSpeechStart(): string | null {
    this.utterance++;
    this.lastAtMs = -Infinity;
    this.lastText = '';
    return this.recognize ? null : (this.opts.placeholder ?? PARTIAL_PLACEHOLDER);
  }

  /**
   * On `partial-due`: the partial text to send, or null (no recogniser, one already running,
   * too soon, no words yet, unchanged, or the utterance ended meanwhile).
   */
  async onPartialDue(
    samples: Int16Array,
    atMs: number,
    signal?: AbortSignal,
  ): Promise<string | null> {
    if (!this.recognize || this.busy || atMs - this.lastAtMs < (this.opts.minIntervalMs ?? 2000))
      return null;
    const mine = this.utterance;
    this.busy = true;
    this.lastAtMs = atMs;
    try {
      const r = await this.opts.recognizer!.transcribe(samples, { lang: this.opts.lang, signal });
      if (mine !== this.utterance || !r.recognised) return null;
      const text = r.text.trim();
      if (!text || text === this.lastText) return null;
      this.lastText = text;
      return text;
    } catch {
      // A failed partial is not worth a message: the final recognition reports failures.
      return null;
    } finally {
      this.busy = false;
    }
  }

  /** At utterance end: results of recognitions still running are dropped. */
  onUtteranceEnd(): void {
    this.utterance++;
  }
}
