/**
 * The one WAV writer and reader (mono PCM16), on `wavefile`: the recognizer's uploads to
 * pocketsphinx and upstream ASR, the Voice's flite output, `tts`/`speak` audio and the
 * edge's `mic.wav` recordings all go through here.
 */
import { endianness } from 'node:os';
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

/**
 * Samples and rate of a mono (or first-channel) PCM16 WAV file; throws on anything else.
 * wavefile finds the chunks; the samples are copied out of the data chunk as they are
 * (byte order swapped for RIFX), not through wavefile's sample-by-sample unpacking, which took
 * ~3 ms per second of audio on the box's main thread (every reply's flite output).
 */
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
  const { samples: data, chunkSize } = w.data as { samples: Uint8Array; chunkSize: number };
  // Whole samples of the chunk's declared size (a reader may hand over its pad byte too).
  const all = new Int16Array(Math.floor(Math.min(data.length, chunkSize) / 2));
  const bytes = new Uint8Array(all.buffer);
  bytes.set(data.subarray(0, bytes.length));
  // RIFF is little-endian, RIFX big-endian: swap when the file's order is not the host's.
  if ((w.container === 'RIFX') !== (endianness() === 'BE')) Buffer.from(all.buffer).swap16();
  const channels = Math.max(1, fmt.numChannels);
  if (channels === 1) return { sampleRate: fmt.sampleRate, samples: all };
  const first = new Int16Array(Math.floor(all.length / channels));
  for (let i = 0; i < first.length; i++) first[i] = all[i * channels]!;
  return { sampleRate: fmt.sampleRate, samples: first };
}
