import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { readWav, wavHeader, writeWav } from '../src/models/wav.js';

describe('the one WAV writer and reader (src/models/wav.ts)', () => {
  it('reads back what it writes, rate and samples', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    const back = readWav(writeWav(samples, 24_000));
    expect(back.sampleRate).toBe(24_000);
    expect([...back.samples]).toEqual([...samples]);
  });

  it('a streamed file (header sized on close) is a WAV another reader accepts', () => {
    const pcm = Int16Array.from({ length: 1600 }, (_, i) => (i * 37) % 2000);
    const data = Buffer.from(pcm.buffer);
    const file = Buffer.concat([wavHeader(data.length, 16_000), data]);
    const w = new wavefile.WaveFile(file);
    expect((w.fmt as { sampleRate: number }).sampleRate).toBe(16_000);
    expect([...(w.getSamples(false, Int16Array) as unknown as Int16Array)]).toEqual([...pcm]);
    expect(file.readUInt32LE(4)).toBe(file.length - 8);
  });

  it('reads exactly what wavefile decodes, from a buffer at any offset, mono and three channels', () => {
    for (const channels of [1, 3]) {
      const pcm = Array.from({ length: channels }, (_, c) =>
        Int16Array.from({ length: 4001 }, (_, i) => ((i * 7919 + c * 104729) % 65536) - 32768),
      );
      const w = new wavefile.WaveFile();
      w.fromScratch(channels, 22_050, '16', channels === 1 ? pcm[0]! : pcm);
      const file = Buffer.from(w.toBuffer());
      // An odd byte offset into a larger buffer, as a file read into a pooled buffer can be.
      const shifted = Buffer.concat([Buffer.from([9]), file]).subarray(1);
      for (const b of [file, shifted]) {
        const back = readWav(b);
        expect(back.sampleRate).toBe(22_050);
        const viaWavefile = new wavefile.WaveFile(b).getSamples(false, Int16Array) as unknown as
          | Int16Array
          | Int16Array[];
        const expected = channels === 1 ? viaWavefile : (viaWavefile as Int16Array[])[0]!;
        expect([...back.samples]).toEqual([...(expected as Int16Array)]);
      }
    }
  });

  it('reads big-endian RIFX, an odd-length data chunk and a LIST chunk before the data', () => {
    const pcm = Int16Array.from([1, -2, 300, -32768, 32767, 4660]);
    const w = new wavefile.WaveFile();
    w.fromScratch(1, 8000, '16', pcm);
    w.toRIFX();
    expect([...readWav(Buffer.from(w.toBuffer())).samples]).toEqual([...pcm]);
    // RIFF, a LIST chunk between fmt and data, and a data chunk with a stray last byte.
    const riff = Buffer.from(writeWav(pcm, 8000));
    const list = Buffer.concat([
      Buffer.from('LIST'),
      Buffer.from([4, 0, 0, 0]),
      Buffer.from('INFO'),
    ]);
    const data = Buffer.concat([riff.subarray(44), Buffer.from([7])]);
    const dataHead = Buffer.from('data\0\0\0\0', 'latin1');
    dataHead.writeUInt32LE(data.length, 4);
    const file = Buffer.concat([riff.subarray(0, 36), list, dataHead, data, Buffer.from([0])]);
    file.writeUInt32LE(file.length - 8, 4);
    expect([...readWav(file).samples]).toEqual([...pcm]);
  });

  it('takes the first channel of a stereo file and refuses what is not a WAV', () => {
    const w = new wavefile.WaveFile();
    w.fromScratch(2, 8000, '16', [Int16Array.from([1, 2]), Int16Array.from([3, 4])]);
    expect([...readWav(Buffer.from(w.toBuffer())).samples]).toEqual([1, 2]);
    expect(() => readWav(Buffer.from('not a wave file at all, just text'))).toThrow(/WAVE/);
  });
});
