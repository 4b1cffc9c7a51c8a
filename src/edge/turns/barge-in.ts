/**
 * Barge-in (issue 8 item 4; spec 4.6 "barge-in is server-side"): user speech while the avatar
 * speaks cuts the reply short. The decision is here; the coordinator does the cutting.
 * - `BargeIn.update()` per mic frame with the speech heard in a row (the utterance detector's
 *   `speechRunMs`) and whether the avatar is speaking: true once, when the run reaches
 *   `minSpeechMs` during a reply. A cough or a click (shorter runs) does not interrupt; the
 *   next reply can be interrupted again.
 * - `cutPoint()`: where in the media timeline to stop: the end of the fragment being
 *   played, so the cut lands within one fragment (at most 250 ms, issue 8 item 5).
 */
export const BARGE_IN_MIN_SPEECH_MS = 300;

export class BargeIn {
  private fired = false;
  readonly minSpeechMs: number;

  constructor(opts: { minSpeechMs?: number } = {}) {
    this.minSpeechMs = opts.minSpeechMs ?? BARGE_IN_MIN_SPEECH_MS;
  }

  /** true exactly once per reply: the moment the user's speech run reaches minSpeechMs. */
  update(speechRunMs: number, avatarSpeaking: boolean): boolean {
    if (!avatarSpeaking) {
      this.fired = false;
      return false;
    }
    if (this.fired || speechRunMs < this.minSpeechMs) return false;
    this.fired = true;
    return true;
  }
}

/** The first fragment boundary at or after `nowMs` on the media timeline. */
export function cutPoint(nowMs: number, fragmentMs: number): number {
  if (!(fragmentMs > 0)) throw new RangeError('fragmentMs must be positive');
  return Math.ceil(nowMs / fragmentMs) * fragmentMs;
}
