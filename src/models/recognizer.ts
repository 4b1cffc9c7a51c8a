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
  /** Batch: one whole recording (transcriptions, and turns when there is no stream). Mono PCM16 at 16 kHz. */
  transcribe(
    samples: Int16Array,
    opts?: { lang?: string; signal?: AbortSignal },
  ): Promise<Recognition>;
  /**
   * Streaming: a recogniser that hears each utterance while it is spoken (one per live
   * session, keeping its model loaded), so the final text is ready when the utterance ends.
   * Absent, or null for this language or when no stream is free: the caller uses `transcribe`.
   */
  stream?(opts?: { lang?: string; context?: RecognitionContext }): RecognitionStream | null;
  /**
   * A session opened with this context: get ready for its stream now (pocketsphinx builds the
   * session's language model), so its first utterance does not wait for that. Never throws.
   */
  prepare?(context: RecognitionContext): void;
}

/**
 * What a session can be about, handed to its recognition stream when it opens (issue 30): a
 * recogniser may expect these words (pocketsphinx builds a language model from them; the
 * OpenAI one passes them on as its `prompt`).
 */
export interface RecognitionContext {
  /** Stock persona id, or null for a custom avatar. */
  persona: string | null;
  /** The avatar version (custom avatars), or null. */
  versionId: string | null;
  systemPrompt: string | null;
  backstory: string | null;
  /** The session's tools; descriptions when known. */
  tools: { name: string; description?: string }[];
}

/**
 * One session's recognition stream. Audio goes in utterance by utterance, as it is heard:
 * `begin` with the audio of its start (pre-roll included), `push` each further 100 ms frame
 * (saying whether the VAD heard speech in it), `end` when the turn detector ends it.
 */
export interface RecognitionStream {
  begin(samples: Int16Array): void;
  push(samples: Int16Array, speech: boolean): void;
  /**
   * The utterance's final recognition. Rejects when the stream could not give it (use
   * `transcribe` on the utterance then): with `StreamBehind` when the decoder had not heard
   * all of it in time (the stream stays usable), with any other error when it broke.
   */
  end(): Promise<Recognition>;
  /** Interim text of the utterance under way, from the same stream, as it grows. */
  onPartial: ((text: string) => void) | null;
  close(): void;
}

/** A stream's decoder had not heard the whole utterance in time: recognise it in batch; the stream goes on. */
export class StreamBehind extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'StreamBehind';
  }
}
