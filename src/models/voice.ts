/**
 * Text to speech: the pluggable Voice (ARCHITECTURE property 5). One interface serves the
 * edge's replies, speak/design (spec 4.10) and compat-a `audio/speech` (spec 4.12).
 * Implementations live in src/models/voice/ (the default: flite compiled to WASI, offline).
 */
export interface VoiceShape {
  /** Target median pitch in Hz (measured from a custom avatar's voice sample). */
  pitchHz?: number;
  /** Speaking rate: 1 is the voice's normal pace, 1.2 is 20% faster. */
  rate?: number;
  /** A named base voice of the implementation (see `Voice.voices`). */
  voice?: string;
}

/** One phone (or word) with its position in the audio, for lip sync and barge-in accounting. */
export interface SpeechMark {
  /** Phone symbol or word text. */
  text: string;
  startMs: number;
  endMs: number;
}

export interface Speech {
  sampleRate: number;
  /** Mono PCM16 samples. */
  samples: Int16Array;
  durationMs: number;
  /** Phone timings when the synthesizer reports them (flite does). */
  phones?: SpeechMark[];
  /** Word timings when known. */
  words?: SpeechMark[];
  /**
   * Word timings worked out on demand (memoized), when `words` was left out because the
   * caller asked for `lazyWords`. Resolves to [] when nothing can be timed.
   */
  timeWords?(): Promise<SpeechMark[]>;
  /**
   * Said by a stand-in after the chosen voice failed (espeak-ng timed out, flite read it;
   * voice/route.ts): good for this turn, never kept by the speech cache (voice/cache.ts).
   */
  fallback?: boolean;
}

export interface SynthesizeOptions {
  /** BCP-47 language of the text; an implementation that cannot speak it uses its closest voice. */
  lang?: string;
  shape?: VoiceShape;
  signal?: AbortSignal;
  /**
   * When the audio is needed, in ms from now: 0 when someone is waiting for these words (a
   * live reply's first chunk), the time left in the chunk on air for the next one. An
   * implementation that queues synthesis serves the earliest deadline first. Optional;
   * absent, the call is not live (a file, a clip): it is due a few seconds after it was
   * asked, behind the live words due before then and ahead of those due after.
   */
  neededInMs?: number;
  /**
   * Leave `words` out and offer `timeWords()` instead: word timings can cost as much as the
   * audio itself (flite runs a second pass), and a live reply needs them only when the user
   * barges in. Optional; default false.
   */
  lazyWords?: boolean;
}

export interface Voice {
  readonly name: string;
  /** The base voices this implementation really has (GET /api/voice/models lists them). */
  readonly voices: readonly { id: string; lang: string; gender?: 'female' | 'male' }[];
  synthesize(text: string, opts?: SynthesizeOptions): Promise<Speech>;
}
