/** Small PCM helpers for the Voice: resample mono PCM16; WAV files are src/models/wav.ts's. */

export { readWav, writeWav } from '../wav.js';

/** Linear-interpolation resampling (speech only: flite's 8 kHz voice up to 16 kHz). */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const n = Math.round((samples.length * to) / from);
  const out = new Int16Array(n);
  const step = from / to;
  for (let i = 0; i < n; i++) {
    const x = i * step;
    const i0 = Math.floor(x);
    const a = samples[i0] ?? 0;
    const b = samples[i0 + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - i0));
  }
  return out;
}
