/**
 * Picks the recogniser, in this order (issue 8):
 * 1. `--asr-url` (+ `--asr-model`, key from AVATAR_ASR_API_KEY) -> OpenAIRecognizer;
 * 2. Debian pocketsphinx + pocketsphinx-en-us when both are installed -> PocketsphinxRecognizer;
 * 3. otherwise UnavailableRecognizer, whose text names what to install.
 * `pocketsphinx: false` skips step 2 (tests, or an operator who wants the fallback).
 */
import { checkHttpUrl } from '../brain/index.js';
import type { Recognizer } from '../recognizer.js';
import { OpenAIRecognizer } from './openai.js';
import { PocketsphinxRecognizer, probePocketsphinx } from './pocketsphinx.js';
import { UnavailableRecognizer } from './unavailable.js';

export { OpenAIRecognizer } from './openai.js';
export { PocketsphinxRecognizer, probePocketsphinx } from './pocketsphinx.js';
export { parseTimedWords } from './segments.js';
export { PocketsphinxStream, STREAM_FINAL_WAIT_MS } from './pocketsphinx-stream.js';
export {
  UnavailableRecognizer,
  notRecognisedText,
  nothingHeardText,
  INSTALL_HINT,
} from './unavailable.js';
export { encodeWav, ASR_SAMPLE_RATE } from './wav.js';

export interface RecognizerOptions {
  /** `--asr-url`: base URL of an OpenAI-compatible API (`.../v1`) or its `/audio/transcriptions`. */
  asrUrl?: string;
  /** `--asr-model` (default `whisper-1`). */
  asrModel?: string;
  /** Defaults to `env.AVATAR_ASR_API_KEY`. */
  apiKey?: string;
  /** PATH is searched for pocketsphinx here (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** false: never use pocketsphinx; else how many pocketsphinx processes may run at once. */
  pocketsphinx?: false | { maxConcurrent?: number };
  timeoutMs?: number;
}

export function createRecognizer(opts: RecognizerOptions = {}): Recognizer {
  const env = opts.env ?? process.env;
  if (opts.asrUrl) {
    checkHttpUrl('--asr-url', opts.asrUrl);
    return new OpenAIRecognizer({
      url: opts.asrUrl,
      model: opts.asrModel,
      apiKey: opts.apiKey ?? env.AVATAR_ASR_API_KEY,
      timeoutMs: opts.timeoutMs,
    });
  }
  if (opts.pocketsphinx === false) return new UnavailableRecognizer();
  const probe = probePocketsphinx(env);
  if (probe.binary && probe.modelDir)
    return new PocketsphinxRecognizer({
      binary: probe.binary,
      maxConcurrent: opts.pocketsphinx?.maxConcurrent,
    });
  return new UnavailableRecognizer(probe.missing);
}
