import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { ffmpegPath, runFfmpeg, writeAsync } from '../src/media/ffmpeg.js';
import { faceFromPhoto, faceFromStyle } from '../src/media/face-source.js';
import { renderSpeechClip } from '../src/media/speech-clip.js';
import { FliteVoice } from '../src/models/voice/index.js';
import { rgbFrames } from './helpers/generation-media.js';

/** speak's offline render (spec 4.10): a plain MP4 whose duration follows the speech, ending on the end frame. */
const ctx = { fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0];

async function probe(mp4: Buffer, w: number, h: number) {
  const info = await runFfmpeg(['-i', 'pipe:0', '-f', 'null', '-'], (s) =>
    writeAsync(s, mp4),
  ).catch((e: Error) => e.message);
  const raw = await rgbFrames(mp4);
  const pcm = await runFfmpeg(
    ['-i', 'pipe:0', '-map', '0:a:0', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'],
    (s) => writeAsync(s, mp4),
  );
  const size = w * h * 3;
  return {
    info,
    frames: raw.length / size,
    last: raw.subarray(raw.length - size),
    audioMs: (pcm.length / 2 / 16000) * 1000,
  };
}

describe('renderSpeechClip', () => {
  it('renders a plain MP4 as long as the speech, at the asked size and rate, ending on the end face', async () => {
    const speech = await new FliteVoice().synthesize(
      'Hello there, this clip is rendered for the speak route.',
    );
    const face = faceFromStyle(personaStyle(ctx, 'ava')!, 320, 480);
    const endFace = await faceFromPhoto(
      readFileSync(join(FIXTURES_DIR, 'personas', 'leo', 'face.png')),
      320,
      480,
    );
    const mp4 = await renderSpeechClip({ face, endFace, speech, width: 320, height: 480, fps: 20 });
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(mp4.includes(Buffer.from('moof'))).toBe(false); // not fragmented
    const p = await probe(mp4, 320, 480);
    expect(p.frames).toBe(Math.ceil((speech.durationMs / 1000) * 20));
    expect(Math.abs(p.audioMs - speech.durationMs)).toBeLessThan(100);
    // The last frame is the end face (mouth closed), not the start face.
    const endStill = endFace.frames.render({ mouth: 0, eyes: 1 });
    const startStill = face.frames.render({ mouth: 0, eyes: 1 });
    const diff = (a: Buffer, b: Buffer) =>
      a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;
    expect(diff(p.last, endStill)).toBeLessThan(8);
    expect(diff(p.last, startStill)).toBeGreaterThan(20);
  });

  it('keeps a one-word clip as long as its speech: the MP4 duration within 10 % (not counting the AAC priming)', async () => {
    const speech = await new FliteVoice().synthesize('hi');
    const mp4 = await renderSpeechClip({ face: faceFromStyle(personaStyle(ctx, 'sam')!), speech });
    const p = await probe(mp4, 352, 480);
    // The container's own duration, as a player reads it (ffmpeg prints it for an input).
    const info = spawnSync(ffmpegPath(), ['-hide_banner', '-i', 'pipe:0'], {
      input: mp4,
    }).stderr.toString();
    const [, h, m, s] = /Duration: (\d+):(\d+):([\d.]+)/.exec(info)!;
    const containerMs = (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
    expect(speech.durationMs).toBeLessThan(1000);
    expect(Math.abs(containerMs - speech.durationMs)).toBeLessThan(speech.durationMs * 0.1);
    expect(Math.abs(p.audioMs - speech.durationMs)).toBeLessThan(speech.durationMs * 0.1);
    expect(Math.abs((p.frames / 24) * 1000 - speech.durationMs)).toBeLessThan(
      speech.durationMs * 0.1,
    );
  });

  it('renders odd sizes rounded down to even (4:2:0 video), from a face of another size', async () => {
    const speech = await new FliteVoice().synthesize('Short one.');
    const mp4 = await renderSpeechClip({
      face: faceFromStyle(personaStyle(ctx, 'sam')!),
      speech,
      width: 201,
      height: 301,
      fps: 24,
    });
    const p = await probe(mp4, 200, 300);
    expect(p.frames).toBe(Math.ceil((speech.durationMs / 1000) * 24));
  });
});
