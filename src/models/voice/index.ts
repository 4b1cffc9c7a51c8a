/** The Voice implementations (src/models/voice.ts). flite is the offline default. */
import type { Voice } from '../voice.js';
import { FliteVoice } from './flite.js';

export { FliteVoice, FLITE_SAMPLE_RATE } from './flite.js';
export { measureVoice, voiceShapeFromSample, REFERENCE_SYLLABLES_PER_S, type VoiceMeasure } from './shape.js';
export { readWav, writeWav, resample } from './pcm.js';

let shared: FliteVoice | null = null;

/** The process-wide default Voice (one cached WASI module behind it). */
export function defaultVoice(): Voice {
  shared ??= new FliteVoice();
  return shared;
}
