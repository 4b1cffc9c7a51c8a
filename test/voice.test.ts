import { describe, expect, it } from 'vitest';
import {
  FliteVoice,
  measureVoice,
  voiceShapeFromSample,
  writeWav,
} from '../src/models/voice/index.js';
import { decodeAudio } from '../src/media/audio.js';
import { runFfmpeg, writeAsync } from '../src/media/ffmpeg.js';
import { BATCH_SLACK_MS, DeadlineQueue } from '../src/models/voice/flite-thread.js';

/** The default Voice (flite in WASI): real audio, phone and word timings, shaping. */
const voice = new FliteVoice();

describe('flite voice', () => {
  it('speaks 16 kHz audio whose length follows the text, with phone and word timings', async () => {
    const short = await voice.synthesize('Hello there.');
    const long = await voice.synthesize(
      'Hello there, the cats are sitting on the mat today, and they look happy.',
    );
    expect(short.sampleRate).toBe(16000);
    expect(long.durationMs).toBeGreaterThan(short.durationMs * 2);
    expect(long.samples.length).toBe(Math.round((long.durationMs * 16000) / 1000));
    // Phones tile the audio in order and end where it ends.
    const phones = long.phones!;
    for (let i = 1; i < phones.length; i++) expect(phones[i]!.startMs).toBe(phones[i - 1]!.endMs);
    expect(Math.abs(phones.at(-1)!.endMs - long.durationMs)).toBeLessThan(30);
    expect(long.words!.map((w) => w.text)).toEqual(
      'Hello there the cats are sitting on the mat today and they look happy'.split(' '),
    );
    const words = long.words!;
    for (let i = 1; i < words.length; i++)
      expect(words[i]!.startMs).toBeGreaterThanOrEqual(words[i - 1]!.endMs);
    // "happy" is said near the end, not spread evenly from the start.
    expect(words.at(-1)!.endMs).toBeGreaterThan(long.durationMs - 400);
  });

  it('times words only when asked (lazyWords): the same timings, worked out once', async () => {
    const text = 'Hello there, the cats are sitting on the mat today.';
    const eager = await voice.synthesize(text);
    const lazy = await voice.synthesize(text, { lazyWords: true });
    expect(lazy.words).toBeUndefined();
    expect(lazy.samples).toEqual(eager.samples);
    const first = lazy.timeWords!();
    expect(lazy.timeWords!()).toBe(first);
    expect(await first).toEqual(eager.words);
  });

  it('places words right when flite reads abbreviations into the next word', async () => {
    const s = await voice.synthesize('Dr. Jones met Mrs. Brown at 10 a.m. today.');
    const said = (w: { startMs: number; endMs: number }) =>
      s
        .phones!.filter((p) => p.text !== 'pau' && p.startMs >= w.startMs && p.endMs <= w.endMs)
        .map((p) => p.text)
        .join(' ');
    const byText = Object.fromEntries(s.words!.map((w) => [w.text, said(w)]));
    expect(byText.Jones).toBe('jh ow n z');
    expect(byText.Brown).toBe('b r aw n');
    expect(byText.Dr).toBe('d aa k t er');
    expect(byText.today).toBe('t ax d ey');
  });

  it('follows a pitch target and a pace', async () => {
    const text = 'Hello there, the cats are sitting on the mat today.';
    for (const pitchHz of [95, 140, 220]) {
      const s = await voice.synthesize(text, { shape: { pitchHz } });
      expect(Math.abs(measureVoice(s.samples, s.sampleRate).pitchHz! - pitchHz)).toBeLessThan(
        pitchHz * 0.1,
      );
    }
    const normal = await voice.synthesize(text);
    const fast = await voice.synthesize(text, { shape: { rate: 1.4 } });
    expect(fast.durationMs).toBeLessThan(normal.durationMs * 0.8);
  });

  it('shapes a voice from a sample: its pitch and pace carry over', async () => {
    const sample = await voice.synthesize('This is my voice, and I speak rather low and quickly.', {
      shape: { voice: 'kal16', pitchHz: 120, rate: 1.3 },
    });
    const shape = voiceShapeFromSample(sample.samples, sample.sampleRate)!;
    expect(Math.abs(shape.pitchHz! - 120)).toBeLessThan(12);
    const plain = voiceShapeFromSample(
      (
        await voice.synthesize('This is my voice, and I speak rather low and quickly.', {
          shape: { voice: 'kal16' },
        })
      ).samples,
      16000,
    )!;
    expect(shape.rate!).toBeGreaterThan(plain.rate!);
    const reply = await voice.synthesize('Nice to meet you.', { shape });
    expect(Math.abs(measureVoice(reply.samples, 16000).pitchHz! - shape.pitchHz!)).toBeLessThan(15);
  });

  it('gives no shape for a sample with no voice in it (silence, low hiss)', () => {
    const hiss = new Int16Array(2 * 16_000);
    let seed = 1;
    for (let i = 0; i < hiss.length; i++)
      hiss[i] = ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 61) - 30;
    expect(voiceShapeFromSample(hiss, 16_000)).toBeNull();
    expect(voiceShapeFromSample(new Int16Array(2 * 16_000), 16_000)).toBeNull();
  });

  it('shapes from an MP3 sample too (decoded by ffmpeg)', async () => {
    const sample = await voice.synthesize(
      'This is my voice, recorded on my phone and sent as an MP3 file.',
      { shape: { voice: 'kal16', pitchHz: 130 } },
    );
    const wav = writeWav(sample.samples, sample.sampleRate);
    const mp3 = await runFfmpeg(
      [
        '-f',
        'wav',
        '-i',
        'pipe:0',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '64k',
        '-ar',
        '44100',
        '-f',
        'mp3',
        'pipe:1',
      ],
      (s) => writeAsync(s, wav),
    );
    const pcm = await decodeAudio(mp3);
    expect(Math.abs(pcm.length / 16000 - sample.durationMs / 1000)).toBeLessThan(0.2);
    expect(Math.abs(voiceShapeFromSample(pcm, 16000)!.pitchHz! - 130)).toBeLessThan(13);
  });

  it('runs on a worker thread in the built package, leaving the event loop free', async () => {
    const built = await import('../dist/models/voice/index.js');
    expect(built.fliteThreaded).toBe(true);
    built.warmFlite();
    const v = new built.FliteVoice();
    await v.synthesize('warm up');
    let ticks = 0;
    const iv = setInterval(() => ticks++, 1);
    const speech = await v.synthesize(
      'A long sentence keeps the synthesizer busy for a good while, word after word after word, until it ends.',
    );
    clearInterval(iv);
    expect(speech.durationMs).toBeGreaterThan(4000);
    expect(speech.words!.length).toBe(19);
    // The main thread kept ticking while flite worked (in-thread it would tick zero times).
    expect(ticks).toBeGreaterThan(3);
  });

  it("in the built package serves a reply's first words (due now) ahead of calls with no deadline", async () => {
    const built = await import('../dist/models/voice/index.js');
    built.warmFlite();
    const v = new built.FliteVoice();
    const order: string[] = [];
    const queued = Array.from({ length: 8 }, (_, i) =>
      v
        .synthesize(
          'Another long sentence from a reply that is still being spoken, queued behind the others.',
        )
        .then(() => order.push(`q${i}`)),
    );
    const first = v.synthesize('Hello there.', { neededInMs: 0 }).then(() => order.push('first'));
    await Promise.all([...queued, first]);
    // Two workers are busy with the first queued calls when it arrives; it goes next.
    expect(order.indexOf('first')).toBeLessThan(4);
  });

  it('in the built package, a freshly warmed pool answers the first calls with their own words, not the warm-up line, on one instance per worker', async () => {
    const { spawnSync } = await import('node:child_process');
    const url = new URL('../dist/models/voice/index.js', import.meta.url).href;
    // A new process: warmFlite starts the workers and each begins its warm-up line (~2 s of
    // speech); the calls asked at once wait behind it and must get their own audio.
    const script = `const m = await import(${JSON.stringify(url)}); m.warmFlite();
      const v = new m.FliteVoice();
      const r = await Promise.all(['Yes.', 'The quick brown fox jumps over the lazy dog, twice.'].map((t) => v.synthesize(t)));
      const workers = await m.workerStats();
      console.log(JSON.stringify({ lines: r.map((x) => ({ words: x.words.map((w) => w.text), ms: x.durationMs })), workers }));`;
    // A script file, not `-e`: workers inherit the process's flags, and --input-type stops them.
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { dirname } = await import('node:path');
    const file = `${mkdtempSync(`${tmpdir()}/warm-`)}/warm.mjs`;
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
    rmSync(dirname(file), { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // Word lists come from the text asked; the audio's length shows whose audio came back
    // (flite is deterministic: the same line here, in this thread, is as long).
    const { lines: got, workers } = JSON.parse(r.stdout) as {
      lines: { words: string[]; ms: number }[];
      workers: { instances: number; runs: number }[];
    };
    const own = await Promise.all(
      ['Yes.', 'The quick brown fox jumps over the lazy dog, twice.'].map((t) =>
        voice.synthesize(t),
      ),
    );
    expect(got.map((x) => x.ms)).toEqual(own.map((x) => x.durationMs));
    expect(got[0]!.words).toEqual(['Yes']);
    // Calls that came while a worker was still compiling waited for its one instance: each
    // worker made one (~35 MB), and ran its two warm-up lines besides the calls.
    expect(workers.length).toBeGreaterThan(0);
    for (const w of workers) expect(w.instances).toBe(1);
    // Runs: two warm-up lines per worker; "Yes." one run, the fox its audio and word probe.
    expect(workers.reduce((n, w) => n + w.runs, 0)).toBe(2 * workers.length + 3);
  });

  it('the synthesis queue takes the earliest deadline first, calls due together in the order asked', () => {
    const q = new DeadlineQueue<string>();
    // A file with no deadline (due in BATCH_SLACK_MS), a later sentence, the rest of a first
    // sentence, two replies' first words (due now), asked in that order.
    q.push('file', 100 + BATCH_SLACK_MS);
    q.push('second sentence', 100 + 2600);
    q.push('rest of the first sentence', 100 + 700);
    q.push('first words A', 100);
    q.push('first words B', 100);
    const taken: (string | undefined)[] = [];
    while (q.size) taken.push(q.take());
    expect(taken).toEqual([
      'first words A',
      'first words B',
      'rest of the first sentence',
      'second sentence',
      'file',
    ]);
    expect(q.take()).toBeUndefined();
  });

  it('a process that warmed flite (a box at start) still exits on its own', async () => {
    const { spawnSync } = await import('node:child_process');
    const url = new URL('../dist/models/voice/index.js', import.meta.url).href;
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `(await import(${JSON.stringify(url)})).warmFlite()`],
      { timeout: 20_000 },
    );
    expect(r.signal).toBeNull(); // not killed by the timeout: the idle workers let it exit
    expect(r.status).toBe(0);
  });

  it('says nothing speakable as a short silence, and stops on abort', async () => {
    const s = await voice.synthesize('😀 ...');
    expect(s.durationMs).toBeLessThan(1000);
    const ac = new AbortController();
    ac.abort();
    await expect(voice.synthesize('Hello', { signal: ac.signal })).rejects.toThrow();
  });
});
