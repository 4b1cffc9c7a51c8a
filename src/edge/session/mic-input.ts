/**
 * The mic stage and the voice-activity stage (pipeline.ts; spec 4.6 /mic_stream, 6.1
 * partial/turn): 100 ms mic frames go through the utterance detector (VAD) of
 * src/edge/turns; utterances go to the recognition stage (recognition.ts), frame by frame
 * while they are spoken; the barge-in rule (user speech while the avatar talks) sends a
 * `barge-in` control event to every stage (server-side, spec 4.6). How long a pause ends the
 * turn is the end-of-turn stage's call (end-of-turn.ts): sooner after a complete question,
 * later after "and" or "um", from the words the streaming recogniser heard.
 */
import type { RecognitionContext, Recognizer, Vad } from '../../models/index.js';
import {
  BargeIn,
  UtteranceDetector,
  type EndOfTurnTunables,
  type UtteranceEvent,
} from '../turns/index.js';
import type { LiveSession } from './live-session.js';
import { EndOfTurnStage } from './end-of-turn.js';
import type { ControlEvent, Pipeline, Stage } from './pipeline.js';
import { RecognitionStage } from './recognition.js';
import type { TalkState } from './turn-queue.js';

/** Where the mic stage pushes its frames (a recognised user turn, a barge-in), and the state it reads. */
export interface MicOutlet {
  readonly pipeline: Pipeline;
  readonly state: TalkState;
}

export class MicInput implements Stage {
  readonly name = 'mic';
  private readonly detector: UtteranceDetector;
  private readonly bargeIn = new BargeIn();
  readonly recognition: RecognitionStage;
  readonly endOfTurn: EndOfTurnStage;
  private ended = false;

  constructor(
    private readonly session: LiveSession,
    private readonly out: MicOutlet,
    vad: Vad,
    recognizer: Recognizer,
    opts: {
      /** What this session can be about: the recogniser's per-session language model. */
      context?: RecognitionContext;
      /** The end-of-turn waits (END_OF_TURN_DEFAULTS; the bench sets them to the hangover to compare). */
      endOfTurn?: Partial<EndOfTurnTunables>;
    } = {},
  ) {
    this.endOfTurn = new EndOfTurnStage(opts.endOfTurn ?? {});
    this.detector = new UtteranceDetector(vad, {}, this.endOfTurn);
    this.recognition = new RecognitionStage(
      recognizer,
      {
        partial: (text) => {
          if (!session.ended) session.broadcast('control', { type: 'partial', text });
        },
        words: (text) => this.endOfTurn.heard(text),
        // A spoken turn enters turn commit the way a typed one does.
        turn: (turn) => out.pipeline.push({ type: 'user-turn', turn }),
      },
      opts.context,
    );
    out.pipeline.add(this);
    out.pipeline.add(this.endOfTurn);
    out.pipeline.add(this.recognition);
  }

  setLang(lang: string | null): void {
    this.recognition.setLang(lang);
    this.endOfTurn.setLang(lang);
  }

  push(frame: Int16Array): void {
    if (this.ended) return;
    const inUtterance = this.detector.speaking;
    const events = isDigitalSilence(frame) && !inUtterance ? [] : this.detector.push(frame);
    // The frame belongs to the utterance under way (a new one takes it with its start).
    if (inUtterance) this.recognition.frame(frame, this.detector.speechRunMs > 0);
    // spec 4.6: barge-in is server-side.
    if (this.bargeIn.update(this.detector.speechRunMs, this.out.state !== 'listening'))
      this.out.pipeline.push({ type: 'barge-in', by: 'speech' });
    for (const e of events) this.handle(e);
  }

  control(e: ControlEvent): void {
    if (e.type === 'end') this.ended = true;
  }

  private handle(e: UtteranceEvent): void {
    if (e.type === 'speech-start') this.recognition.speechStart(e.samples);
    else if (e.type === 'partial-due') this.recognition.partialDue(e.samples, e.atMs);
    else this.recognition.utteranceEnd(e.samples);
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
