/** The Voice implementations (src/models/voice.ts). flite is the offline default. */
import type { Voice } from '../voice.js';
import { cachingVoice, type CachingVoice } from './cache.js';
import { FliteVoice } from './flite.js';

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

let shared: FliteVoice | null = null;

/** The process-wide default Voice (one cached WASI module behind it). */
export function defaultVoice(): Voice {
  shared ??= new FliteVoice();
  return shared;
}

let cached: CachingVoice | null = null;

/** The default Voice behind the process-wide speech cache (live replies: cache.ts). */
export function cachedDefaultVoice(): CachingVoice {
  cached ??= cachingVoice(defaultVoice());
  return cached;
}
