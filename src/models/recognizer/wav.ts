/** Mono 16 kHz PCM16 samples as a WAV file (wavefile writes the RIFF header). */
import wavefile from 'wavefile';

export const ASR_SAMPLE_RATE = 16_000;

export function encodeWav(samples: Int16Array, sampleRate = ASR_SAMPLE_RATE): Buffer {
  const w = new wavefile.WaveFile();
  w.fromScratch(1, sampleRate, '16', samples);
  return Buffer.from(w.toBuffer());
}
