/**
 * The one WAV writer and reader (mono PCM16), on `wavefile`: the recognizer's uploads to
 * pocketsphinx and upstream ASR, the Voice's flite output, `tts`/`speak` audio and the
 * edge's `mic.wav` recordings all go through here.
 */
import wavefile from 'wavefile';

/** Mono PCM16 samples as a WAV file. */
export function writeWav(samples: Int16Array, sampleRate: number): Buffer {
  const w = new wavefile.WaveFile();
  w.fromScratch(1, sampleRate, '16', samples);
  return Buffer.from(w.toBuffer());
}

/**
 * The 44-byte header of a mono PCM16 WAV whose data is `dataBytes` long, for a file written
 * as a stream (the edge's mic recording): write it with 0 first, write it again at offset 0
 * once the length is known.
 */
export function wavHeader(dataBytes: number, sampleRate: number): Buffer {
  const h = writeWav(new Int16Array(0), sampleRate);
  h.writeUInt32LE(36 + dataBytes, 4); // RIFF chunk size
  h.writeUInt32LE(dataBytes, h.length - 4); // data chunk size
  return h;
}

/** Samples and rate of a mono (or first-channel) PCM16 WAV file; throws on anything else. */
export function readWav(buf: Uint8Array): { sampleRate: number; samples: Int16Array } {
  const w = new wavefile.WaveFile();
  try {
    w.fromBuffer(buf);
  } catch (e) {
    throw new Error(`not a WAVE file (${(e as Error).message})`);
  }
  const fmt = w.fmt as { sampleRate: number; bitsPerSample: number; numChannels: number };
  if (fmt.bitsPerSample !== 16)
    throw new Error(`unsupported WAVE sample size ${fmt.bitsPerSample}`);
  const s = w.getSamples(false, Int16Array) as unknown as Int16Array | Int16Array[];
  return {
    sampleRate: fmt.sampleRate,
    samples: fmt.numChannels > 1 ? (s as Int16Array[])[0]! : (s as Int16Array),
  };
}
