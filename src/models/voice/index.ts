/**
 * The Voice implementations (src/models/voice.ts). flite is the offline default; espeak-ng,
 * when installed, speaks the other languages; `--tts-url` an upstream (route.ts).
 */
import type { Voice } from '../voice.js';
import { cachingVoice, type CachingVoice } from './cache.js';
import { EspeakVoice, probeEspeak } from './espeak.js';
import { FliteVoice } from './flite.js';
import { languageVoice } from './route.js';

export { FliteVoice, FLITE_SAMPLE_RATE } from './flite.js';
export {
  measureVoice,
  voiceShapeFromSample,
  REFERENCE_SYLLABLES_PER_S,
  type VoiceMeasure,
} from './shape.js';
export { readWav, writeWav, resample } from './pcm.js';
export { warmFlite, fliteThreaded, workerStats } from './flite-thread.js';
export { cachingVoice, SPEECH_CACHE_BYTES, type CachingVoice } from './cache.js';
export { EspeakVoice, probeEspeak, ESPEAK_INSTALL } from './espeak.js';
export { OpenAIVoice } from './openai.js';
export { languageVoice, upstreamFirst } from './route.js';

let shared: FliteVoice | null = null;

/** The process-wide default Voice (one cached WASI module behind it). */
export function defaultVoice(): Voice {
  shared ??= new FliteVoice();
  return shared;
}

let system: EspeakVoice | null | undefined;

/** espeak-ng when it is installed (looked for once per process), else null. */
export function systemVoice(): EspeakVoice | null {
  if (system === undefined) {
    const probe = probeEspeak();
    system = probe ? new EspeakVoice(probe) : null;
  }
  return system;
}

let cached: CachingVoice | null = null;

/**
 * The local voice of live replies behind the process-wide speech cache (cache.ts): flite for
 * English, espeak-ng (when installed) for the languages it has voices for (route.ts).
 */
export function cachedDefaultVoice(): CachingVoice {
  cached ??= cachingVoice(languageVoice(defaultVoice(), systemVoice()));
  return cached;
}
