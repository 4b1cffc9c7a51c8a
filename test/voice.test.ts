import { describe, expect, it } from 'vitest';
import { FliteVoice, measureVoice, voiceShapeFromSample, writeWav } from '../src/models/voice/index.js';
import { decodeAudio } from '../src/media/audio.js';
import { runFfmpeg, writeAsync } from '../src/media/ffmpeg.js';

/** The default Voice (flite in WASI): real audio, phone and word timings, shaping. */
const voice = new FliteVoice();

describe('flite voice', () => {
  it('speaks 16 kHz audio whose length follows the text, with phone and word timings', async () => {
    const short = await voice.synthesize('Hello there.');
    const long = await voice.synthesize('Hello there, the cats are sitting on the mat today, and they look happy.');
    expect(short.sampleRate).toBe(16000);
    expect(long.durationMs).toBeGreaterThan(short.durationMs * 2);
    expect(long.samples.length).toBe(Math.round((long.durationMs * 16000) / 1000));
    // Phones tile the audio in order and end where it ends.
    const phones = long.phones!;
    for (let i = 1; i < phones.length; i++) expect(phones[i]!.startMs).toBe(phones[i - 1]!.endMs);
    expect(Math.abs(phones.at(-1)!.endMs - long.durationMs)).toBeLessThan(30);
    expect(long.words!.map((w) => w.text)).toEqual('Hello there the cats are sitting on the mat today and they look happy'.split(' '));
    const words = long.words!;
    for (let i = 1; i < words.length; i++) expect(words[i]!.startMs).toBeGreaterThanOrEqual(words[i - 1]!.endMs);
    // "happy" is said near the end, not spread evenly from the start.
    expect(words.at(-1)!.endMs).toBeGreaterThan(long.durationMs - 400);
  });

  it('follows a pitch target and a pace', async () => {
    const text = 'Hello there, the cats are sitting on the mat today.';
    for (const pitchHz of [95, 140, 220]) {
      const s = await voice.synthesize(text, { shape: { pitchHz } });
      expect(Math.abs(measureVoice(s.samples, s.sampleRate).pitchHz! - pitchHz)).toBeLessThan(pitchHz * 0.1);
    }
    const normal = await voice.synthesize(text);
    const fast = await voice.synthesize(text, { shape: { rate: 1.4 } });
    expect(fast.durationMs).toBeLessThan(normal.durationMs * 0.8);
  });

  it('shapes a voice from a sample: its pitch and pace carry over', async () => {
    const sample = await voice.synthesize('This is my voice, and I speak rather low and quickly.', { shape: { voice: 'kal16', pitchHz: 120, rate: 1.3 } });
    const shape = voiceShapeFromSample(sample.samples, sample.sampleRate);
    expect(Math.abs(shape.pitchHz! - 120)).toBeLessThan(12);
    const plain = voiceShapeFromSample((await voice.synthesize('This is my voice, and I speak rather low and quickly.', { shape: { voice: 'kal16' } })).samples, 16000);
    expect(shape.rate!).toBeGreaterThan(plain.rate!);
    const reply = await voice.synthesize('Nice to meet you.', { shape });
    expect(Math.abs(measureVoice(reply.samples, 16000).pitchHz! - shape.pitchHz!)).toBeLessThan(15);
  });

  it('shapes from an MP3 sample too (decoded by ffmpeg)', async () => {
    const sample = await voice.synthesize('This is my voice, recorded on my phone and sent as an MP3 file.', { shape: { voice: 'kal16', pitchHz: 130 } });
    const wav = writeWav(sample.samples, sample.sampleRate);
    const mp3 = await runFfmpeg(['-f', 'wav', '-i', 'pipe:0', '-c:a', 'libmp3lame', '-b:a', '64k', '-ar', '44100', '-f', 'mp3', 'pipe:1'], (s) => writeAsync(s, wav));
    const pcm = await decodeAudio(mp3);
    expect(Math.abs(pcm.length / 16000 - sample.durationMs / 1000)).toBeLessThan(0.2);
    expect(Math.abs(voiceShapeFromSample(pcm, 16000).pitchHz! - 130)).toBeLessThan(13);
  });

  it('says nothing speakable as a short silence, and stops on abort', async () => {
    const s = await voice.synthesize('😀 ...');
    expect(s.durationMs).toBeLessThan(1000);
    const ac = new AbortController();
    ac.abort();
    await expect(voice.synthesize('Hello', { signal: ac.signal })).rejects.toThrow();
  });
});
