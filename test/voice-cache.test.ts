import { describe, expect, it } from 'vitest';
import { cachingVoice } from '../src/models/voice/cache.js';
import { FliteVoice, languageVoice } from '../src/models/voice/index.js';
import type { Speech, SynthesizeOptions, Voice } from '../src/models/voice.js';

/** A voice that counts what it is asked to say; each line's audio is 100 samples per character. */
function countingVoice(fail = new Set<string>()) {
  const calls: string[] = [];
  let release: (() => void) | null = null;
  const voice: Voice = {
    name: 'counting',
    voices: [],
    async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
      calls.push(`${text}|${opts.shape?.pitchHz ?? ''}`);
      if (release === null) await Promise.resolve();
      else await new Promise<void>((r) => (release = r));
      if (fail.has(text)) throw new Error(`cannot say ${text}`);
      return {
        sampleRate: 16000,
        samples: new Int16Array(100 * text.length),
        durationMs: text.length * 6,
      };
    },
  };
  return { voice, calls, hold: () => (release = () => {}), go: () => release?.() };
}

describe('speech cache', () => {
  it('says a line once and serves it from memory after that', async () => {
    const c = countingVoice();
    const voice = cachingVoice(c.voice);
    const a = await voice.synthesize('Hi, I am Ava.');
    const b = await voice.synthesize('Hi, I am Ava.', { neededInMs: 0 });
    expect(b).toBe(a);
    await voice.synthesize('Hi, I am Ava.', { shape: { pitchHz: 120 } }); // another voice: another line
    expect(c.calls).toEqual(['Hi, I am Ava.|', 'Hi, I am Ava.|120']);
    expect(voice.stats).toMatchObject({ hits: 1, misses: 2, entries: 2 });
  });

  it('shares one synthesis between callers asking at the same time', async () => {
    const c = countingVoice();
    c.hold();
    const voice = cachingVoice(c.voice);
    const first = voice.synthesize('Welcome back.');
    const second = voice.synthesize('Welcome back.');
    await Promise.resolve();
    c.go();
    expect(await second).toBe(await first);
    expect(c.calls).toHaveLength(1);
  });

  it('keeps no failure: the next call tries again', async () => {
    const fail = new Set(['Oops.']);
    const c = countingVoice(fail);
    const voice = cachingVoice(c.voice);
    await expect(voice.synthesize('Oops.')).rejects.toThrow('cannot say Oops.');
    fail.clear();
    expect((await voice.synthesize('Oops.')).durationMs).toBe(30);
    expect(c.calls).toHaveLength(2);
  });

  it('drops the least recently used lines past its byte budget', async () => {
    const c = countingVoice();
    const voice = cachingVoice(c.voice, 2 * 100 * 2 * 10); // room for two 10-character lines
    await voice.synthesize('line one..');
    await voice.synthesize('line two..');
    await voice.synthesize('line one..'); // used again: now the most recent
    await voice.synthesize('line three');
    expect(voice.stats.entries).toBe(2);
    await voice.synthesize('line one..');
    await voice.synthesize('line two..'); // was evicted: said again
    expect(c.calls.filter((x) => x.startsWith('line two'))).toHaveLength(2);
    expect(c.calls.filter((x) => x.startsWith('line one'))).toHaveLength(1);
  });

  it('lets a caller stop waiting without spoiling the line for others', async () => {
    const c = countingVoice();
    c.hold();
    const voice = cachingVoice(c.voice);
    const ac = new AbortController();
    const gaveUp = voice.synthesize('Long answer.', { signal: ac.signal });
    const other = voice.synthesize('Long answer.');
    await Promise.resolve();
    ac.abort(new Error('barge-in'));
    await expect(gaveUp).rejects.toThrow('barge-in');
    c.go();
    expect((await other).durationMs).toBe(72);
  });

  it('serves real flite speech unchanged, word timings included', async () => {
    const voice = cachingVoice(new FliteVoice());
    const a = await voice.synthesize('Hello there, nice to meet you.', { lazyWords: true });
    const b = await voice.synthesize('Hello there, nice to meet you.', { lazyWords: true });
    expect(b.samples).toBe(a.samples);
    expect((await b.timeWords!()).map((w) => w.text)).toEqual([
      'Hello',
      'there',
      'nice',
      'to',
      'meet',
      'you',
    ]);
  });

  it('keeps no fallback: a line flite read because espeak-ng failed once is asked of espeak-ng again', async () => {
    const line = (n: number): Speech => ({
      sampleRate: 16000,
      samples: new Int16Array(n),
      durationMs: n / 16,
    });
    const english: Voice = { name: 'flite', voices: [], synthesize: async () => line(160) };
    let failures = 1;
    const espeak = {
      voiceFor: (lang: string | null | undefined) => (lang === 'fr' ? 'fr' : null),
      async synthesize() {
        if (failures-- > 0) throw new Error('espeak-ng timed out');
        return line(320);
      },
    };
    const voice = cachingVoice(languageVoice(english, espeak));
    const text = "J'ai grandi dans un petit village.";
    // espeak-ng timed out under load: flite reads this one (English rules, but the turn is answered).
    expect((await voice.synthesize(text, { lang: 'fr' })).samples.length).toBe(160);
    // The next time, the French voice says it, and that is what is kept.
    expect((await voice.synthesize(text, { lang: 'fr' })).samples.length).toBe(320);
    expect((await voice.synthesize(text, { lang: 'fr' })).samples.length).toBe(320);
    expect(voice.stats).toMatchObject({ hits: 1, misses: 2, entries: 1 });
  });
});
