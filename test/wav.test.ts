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

  it('takes the first channel of a stereo file and refuses what is not a WAV', () => {
    const w = new wavefile.WaveFile();
    w.fromScratch(2, 8000, '16', [Int16Array.from([1, 2]), Int16Array.from([3, 4])]);
    expect([...readWav(Buffer.from(w.toBuffer())).samples]).toEqual([1, 2]);
    expect(() => readWav(Buffer.from('not a wave file at all, just text'))).toThrow(/WAVE/);
  });
});
