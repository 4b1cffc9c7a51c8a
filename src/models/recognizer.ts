/**
 * Speech recognition (ARCHITECTURE property 5): edge turns and compat-a
 * `audio/transcriptions`. Honest by default: when nothing on the machine can recognise
 * speech, `recognised` is false and `text` says so; words are never invented.
 * Implementations live in src/models/recognizer/ (pocketsphinx when installed, an
 * OpenAI-compatible `--asr-url`, the honest fallback).
 */
export interface RecognitionSegment {
  startS: number;
  endS: number;
  text: string;
}

export interface Recognition {
  text: string;
  /** false when no recogniser was available or it could not make out words. */
  recognised: boolean;
  language?: string;
  segments?: RecognitionSegment[];
}

export interface Recognizer {
  readonly name: string;
  /** Whether it can really recognise speech on this machine. */
  readonly available: boolean;
  /** Mono PCM16 at 16 kHz. */
  transcribe(samples: Int16Array, opts?: { lang?: string; signal?: AbortSignal }): Promise<Recognition>;
}
