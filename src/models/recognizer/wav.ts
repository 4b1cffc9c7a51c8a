/** What the recognizers take: mono 16 kHz PCM16, as a WAV file by the one writer (src/models/wav.ts). */
import { writeWav } from '../wav.js';

export const ASR_SAMPLE_RATE = 16_000;

export const encodeWav = (samples: Int16Array): Buffer => writeWav(samples, ASR_SAMPLE_RATE);
