/**
 * Mic audio into turns (spec 4.6 /mic_stream, 6.1 partial/turn), wiring the turn-taking
 * rules of src/edge/turns: the utterance detector (VAD over 100 ms frames), the partial
 * policy, and the barge-in decision (user speech while the avatar talks cuts the reply,
 * server-side). On `utterance-end` the recognizer transcribes and the turn loop answers.
 */
import type { Recognizer, Vad } from '../../models/index.js';
import { nothingHeardText } from '../../models/recognizer/index.js';
import { BargeIn, PartialPolicy, UtteranceDetector, type UtteranceEvent } from '../turns/index.js';
import type { LiveSession } from './live-session.js';
import type { TurnLoop } from './turn-loop.js';

export class MicInput {
  private detector: UtteranceDetector;
  private partials: PartialPolicy;
  private readonly bargeIn = new BargeIn();
  private lang: string | null = null;
  /** Fires when an utterance ends (bench: end of speech to `turn`). */
  onSpeechEnd: (() => void) | null = null;

  constructor(
    private readonly session: LiveSession,
    private readonly loop: TurnLoop,
    vad: Vad,
    private readonly recognizer: Recognizer,
  ) {
    this.detector = new UtteranceDetector(vad);
    this.partials = new PartialPolicy({ recognizer });
  }

  setLang(lang: string | null): void {
    this.lang = lang;
    this.partials = new PartialPolicy({ recognizer: this.recognizer, ...(lang ? { lang } : {}) });
  }

  push(frame: Int16Array): void {
    const events = isDigitalSilence(frame) && !this.detector.speaking ? [] : this.detector.push(frame);
    // spec 4.6: barge-in is server-side.
    if (this.bargeIn.update(this.detector.speechRunMs, this.loop.state !== 'listening')) this.loop.bargeIn();
    for (const e of events) this.handle(e);
  }

  private handle(e: UtteranceEvent): void {
    if (e.type === 'speech-start') {
      const placeholder = this.partials.onSpeechStart();
      if (placeholder) this.session.broadcast('control', { type: 'partial', text: placeholder });
    } else if (e.type === 'partial-due') {
      void this.partials.onPartialDue(e.samples, e.atMs).then((text) => {
        if (text && !this.session.ended) this.session.broadcast('control', { type: 'partial', text });
      });
    } else {
      this.partials.onUtteranceEnd();
      this.onSpeechEnd?.();
      void this.commit(e.samples);
    }
  }

  private async commit(samples: Int16Array): Promise<void> {
    const r = await this.recognizer.transcribe(samples, this.lang ? { lang: this.lang } : {}).catch((err: Error) => ({
      text: `[speech not recognised: ${err.message}]`,
      recognised: false,
    }));
    // A session that ended while the recogniser worked still gets the turn: the turn loop
    // stores it unanswered (docs/edge.md: a turn the session ended before answering).
    // Issue 8: speech the recogniser heard no words in still makes a turn, and its text says
    // so (a recogniser answers "" then); the avatar asks again instead of answering nothing.
    const heard = r.text.trim() !== '';
    this.loop.userTurn(heard ? r.text : nothingHeardText(this.recognizer.name), { unrecognised: !r.recognised || !heard });
  }
}

/**
 * Zeroed frames (spec 4.6: "silence or zeroed frames keep cadence") are not speech: between
 * utterances they skip the VAD, which keeps a listening session nearly free.
 */
function isDigitalSilence(frame: Int16Array): boolean {
  for (let i = 0; i < frame.length; i++) if (frame[i]! > 32 || frame[i]! < -32) return false;
  return true;
}
