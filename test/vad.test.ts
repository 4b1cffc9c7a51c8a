/**
 * The VAD (issue 8 item 4): WebRTC VAD in WASM on real synthesized speech (flite), on
 * silence and on noise, fed as the edge feeds it: 100 ms mic frames (spec 4.6).
 */
import { describe, expect, it } from 'vitest';
import { createWebRtcVad, speechRegions } from '../src/models/vad/index.js';
import { concat, frames, noise, silence, speak } from './helpers/speech.js';

const speechFrames = async (samples: Int16Array, opts = {}) => {
  const vad = await createWebRtcVad(opts);
  return frames(samples).map((f) => vad.isSpeech(f));
};

describe('WebRTC VAD', () => {
  it('hears speech through an utterance and nothing in silence', async () => {
    const s = await speak('Hello, what is your name and where do you live?');
    const marks = await speechFrames(concat(silence(1000), s, silence(1000)));
    const inSpeech = marks.slice(10, 10 + Math.floor(s.length / 1600));
    expect(inSpeech.filter(Boolean).length / inSpeech.length).toBeGreaterThan(0.85);
    expect(marks.slice(0, 10).some(Boolean)).toBe(false);
    expect(marks.slice(-9).some(Boolean)).toBe(false);
  });

  it('does not call steady noise speech, at any level', async () => {
    for (const amplitude of [300, 1500, 6000]) {
      const marks = await speechFrames(noise(3000, amplitude, amplitude));
      expect(marks.filter(Boolean).length, `noise at ${amplitude}`).toBe(0);
    }
  });

  it('still hears speech over noise (about 8 dB SNR)', async () => {
    const s = await speak('Where do you live?');
    const n = noise(s.length / 16, 2000, 9);
    const mixed = Int16Array.from(s, (x, i) => Math.max(-32768, Math.min(32767, x + n[i])));
    const marks = await speechFrames(mixed);
    expect(marks.filter(Boolean).length / marks.length).toBeGreaterThan(0.6);
  });

  it('takes any multiple of 10 ms and refuses other sizes clearly', async () => {
    const vad = await createWebRtcVad();
    expect(vad.isSpeech(new Int16Array(160))).toBe(false);
    expect(vad.isSpeech(new Int16Array(480))).toBe(false);
    expect(() => vad.isSpeech(new Int16Array(1000))).toThrow(/multiple of 10 ms/);
    vad.dispose();
    expect(() => vad.isSpeech(new Int16Array(160))).toThrow(/disposed/);
  });

  it('finds where the speech is (segments for verbose_json)', async () => {
    const a = await speak('Good morning.');
    const b = await speak('See you tomorrow.');
    const regions = speechRegions(
      concat(silence(500), a, silence(1500), b, silence(500)),
      await createWebRtcVad(),
    );
    expect(regions).toHaveLength(2);
    const aEnd = (8000 + a.length) / 16000;
    expect(regions[0].startS).toBeGreaterThanOrEqual(0.4);
    expect(regions[0].startS).toBeLessThan(0.8);
    expect(regions[0].endS).toBeGreaterThan(aEnd - 0.3);
    expect(regions[1].startS).toBeGreaterThan(aEnd + 1);
  });
});
