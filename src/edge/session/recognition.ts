/**
 * The recognition stage (pipeline.ts): utterances in, user turns and partials out. With a
 * streaming recogniser (`Recognizer.stream`, e.g. one long-lived pocketsphinx per session)
 * it hears each utterance while it is spoken: the utterance's start goes in at
 * `speech-start`, each frame as it comes, and the final text is ready when the hangover
 * ends; partials come from the same stream. Without one (an `--asr-url`, a stream that
 * broke, all streams taken) the utterance is recognised in batch when it ends and partials
 * follow the batch policy (partials.ts).
 */
import {
  StreamBehind,
  type Recognition,
  type RecognitionContext,
  type RecognitionStream,
  type Recognizer,
} from '../../models/recognizer.js';
import { nothingHeardText } from '../../models/recognizer/index.js';
import { PartialPolicy } from '../turns/index.js';
import type { ControlEvent, Stage, UserTurn } from './pipeline.js';
import type { SessionSnapshot } from './snapshot.js';

export interface RecognitionOutput {
  partial(text: string): void;
  /** The utterance's words so far, as a streaming recogniser hears them (the end-of-turn stage reads them). */
  words?(text: string): void;
  turn(turn: UserTurn): void;
}

export class RecognitionStage implements Stage {
  readonly name = 'recognition';
  private stream: RecognitionStream | null = null;
  private partials: PartialPolicy;
  private lang: string | null = null;
  private ended = false;
  private lastPartial = '';

  constructor(
    private readonly recognizer: Recognizer,
    private readonly out: RecognitionOutput,
    /** What the session can be about: the stream is opened with it (issue 30, a recogniser may expect these words). */
    private context?: RecognitionContext,
  ) {
    this.partials = new PartialPolicy({ recognizer });
    // The session's model is made now, while the session opens, not at its first utterance.
    if (context) recognizer.prepare?.(context);
  }

  /**
   * What the session can be about, once the tools' descriptions are read (edge-session.ts):
   * the recogniser prepares for it; a stream already open keeps its own.
   */
  setContext(context: RecognitionContext): void {
    this.context = context;
    this.recognizer.prepare?.(context);
  }

  /** The mic `hello` language: a stream for another language is opened at the next utterance. */
  setLang(lang: string | null): void {
    if (lang === this.lang) return;
    this.lang = lang;
    this.partials = new PartialPolicy({ recognizer: this.recognizer, ...(lang ? { lang } : {}) });
    this.stream?.close();
    this.stream = null;
  }

  speechStart(samples: Int16Array): void {
    if (this.ended) return;
    this.lastPartial = '';
    // The stream is opened at the first utterance (a session that never speaks holds no decoder).
    this.stream ??=
      this.recognizer.stream?.({
        ...(this.lang ? { lang: this.lang } : {}),
        ...(this.context ? { context: this.context } : {}),
      }) ?? null;
    if (this.stream) {
      this.stream.onPartial = (text) => {
        if (!this.ended) this.out.words?.(text);
        this.partial(text);
      };
      this.stream.begin(samples);
      this.partials.onSpeechStart();
      return;
    }
    const placeholder = this.partials.onSpeechStart();
    if (placeholder) this.out.partial(placeholder);
  }

  frame(frame: Int16Array, speech: boolean): void {
    this.stream?.push(frame, speech);
  }

  partialDue(samples: Int16Array, atMs: number): void {
    if (this.stream) return;
    void this.partials.onPartialDue(samples, atMs).then((text) => text && this.partial(text));
  }

  utteranceEnd(samples: Int16Array): void {
    this.partials.onUtteranceEnd();
    const stream = this.stream;
    if (stream) stream.onPartial = null;
    void this.final(stream, samples).then((r) => {
      // A session that ended while the recogniser worked still gets the turn: turn commit
      // stores it unanswered (docs/edge.md: a turn the session ended before answering).
      // Issue 8: speech the recogniser heard no words in still makes a turn, and its text says
      // so (a recogniser answers "" then); the avatar asks again instead of answering nothing.
      const heard = r.text.trim() !== '';
      this.out.turn({
        text: heard ? r.text : nothingHeardText(this.recognizer.name),
        source: 'speech',
        ...(!r.recognised || !heard ? { unrecognised: true } : {}),
      });
    });
  }

  control(e: ControlEvent): void {
    if (e.type !== 'end') return;
    this.ended = true;
    this.stream?.close();
    this.stream = null;
  }

  private async final(stream: RecognitionStream | null, samples: Int16Array): Promise<Recognition> {
    if (stream) {
      try {
        return await stream.end();
      } catch (e) {
        // Behind (or no speech it could hear): this utterance in batch, the stream goes on.
        // Broken (its process died): this utterance in batch, a new stream next time.
        if (!(e instanceof StreamBehind)) {
          stream.close();
          if (this.stream === stream) this.stream = null;
        }
      }
    }
    return this.recognizer
      .transcribe(samples, this.lang ? { lang: this.lang } : {})
      .catch((err: Error) => ({
        text: `[speech not recognised: ${err.message}]`,
        recognised: false,
      }));
  }

  private partial(text: string): void {
    if (this.ended || text === this.lastPartial) return;
    this.lastPartial = text;
    this.out.partial(text);
  }
}

/**
 * The recognition context of a session: what its mint froze (persona, prompt, backstory,
 * tool names), with the tools' descriptions when the box has read them (`tools`).
 */
export function recognitionContext(
  s: SessionSnapshot,
  tools: readonly { name: string; description?: string }[] = [],
): RecognitionContext {
  const described = new Map(tools.map((t) => [t.name, t.description]));
  return {
    persona: s.avatar.persona,
    versionId: s.avatar.versionId,
    systemPrompt: s.systemPrompt,
    backstory: s.backstory,
    tools: s.toolNames.map((name) => {
      const description = described.get(name);
      return description ? { name, description } : { name };
    }),
  };
}
