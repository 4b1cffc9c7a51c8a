/**
 * Barge-in (issue 8 item 4; spec 4.6 "barge-in is server-side"): user speech while the avatar
 * speaks cuts the reply short. The decision is here; the coordinator does the cutting.
 * - `BargeIn.update()` per mic frame with the speech heard in a row (the utterance detector's
 *   `speechRunMs`) and whether the avatar is speaking: true once, when the run reaches
 *   `minSpeechMs` during a reply. A cough or a click (shorter runs) does not interrupt; the
 *   next reply can be interrupted again.
 * The reply is cut by the media stream itself at the end of the fragment being played
 * (ReplyHandle.interrupt in src/media), so the cut lands within one fragment.
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
