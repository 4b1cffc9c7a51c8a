import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import { describe, expect, it, vi } from 'vitest';
import { chooseAudioOut, missingAudioOutMessage } from '../src/cli/live/audio-out.js';
import { runFfmpeg as ffmpeg } from '../src/media/ffmpeg.js';
import { decodeToMicPcm, micFromDevice, MissingPieceError } from '../src/cli/live/mic-source.js';
import { ReplyAudio } from '../src/cli/live/reply-audio.js';
import { StreamRecording } from '../src/cli/live/stream-record.js';
import { hasPackage, installHint } from '../src/cli/live/system-pieces.js';

const dir = mkdtempSync(join(tmpdir(), 'avatar-live-audio-'));

/** A live-style fragmented MP4 (H.264 + AAC, 100 ms fragments, empty moov) made by the shipped ffmpeg. */
async function fmp4(seconds: number, toneFrom = 0): Promise<Buffer> {
  return ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=176x240:rate=24:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=300:sample_rate=24000:duration=${seconds}`,
    '-af',
    `volume=enable='lt(t,${toneFrom})':volume=0`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-profile:v',
    'baseline',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '24',
    '-c:a',
    'aac',
    '-ac',
    '1',
    '-shortest',
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    '-frag_duration',
    '100000',
    '-f',
    'mp4',
    'pipe:1',
  ]);
}

describe('--mic-file decoding (spec 4.6: 16 kHz mono PCM16)', () => {
  it('reads an MP3 at 44.1 kHz stereo and resamples it', async () => {
    const mp3 = join(dir, 'q.mp3');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100:duration=1.5',
      '-ac',
      '2',
      '-y',
      mp3,
    ]);
    const pcm = await decodeToMicPcm(mp3);
    expect(Math.abs(pcm.length - 1.5 * 16000 * 2)).toBeLessThan(16000 * 2 * 0.1);
  });

  it('says which file is wrong: missing, or not audio', async () => {
    await expect(decodeToMicPcm(join(dir, 'nope.wav'))).rejects.toThrow(/nope.wav: no such file/);
    const junk = join(dir, 'junk.wav');
    writeFileSync(junk, 'not audio at all');
    await expect(decodeToMicPcm(junk)).rejects.toThrow(/junk.wav: ffmpeg cannot read it as audio/);
  });
});

describe('missing system pieces say what to install', () => {
  it('--mic with no recorder on PATH names the package for this OS', () => {
    expect(() => micFromDevice({ PATH: '' })).toThrow(MissingPieceError);
    expect(() => micFromDevice({ PATH: '' })).toThrow(
      /apt-get install sox.*--mic-file and typed text work/,
    );
    expect(installHint('recorder', 'darwin')).toBe('install SoX: brew install sox');
    expect(installHint('player', 'linux')).toMatch(
      /apt-get install sox.*alsa-utils.*libasound2-dev && npm i speaker/,
    );
  });

  it('no player on PATH (and no speaker package) means no output, with a hint', () => {
    const choice = chooseAudioOut({ PATH: '' });
    if (hasPackage('speaker')) expect(choice?.name).toBe('speaker');
    else expect(choice).toBeUndefined();
    expect(missingAudioOutMessage()).toMatch(/--record out.mp4/);
  });
});

describe('--record', () => {
  it('keeps the stream as a plain MP4 with video and audio of the streamed length', async () => {
    const bytes = await fmp4(2);
    const rec = new StreamRecording(join(dir, 'out.mp4'));
    for (let i = 0; i < bytes.length; i += 4096) rec.write(bytes.subarray(i, i + 4096));
    const r = await rec.finish();
    // The size reported is the file's (the remux rewrites the index), not the bytes received.
    expect(r).toMatchObject({ remuxed: true, bytes: statSync(r.path).size });
    expect(statSync(r.path).size).not.toBe(bytes.length);
    const meta = await parseFile(r.path);
    expect(meta.format.duration).toBeGreaterThan(1.8);
    expect(meta.format.duration).toBeLessThan(2.3);
    expect(meta.format.trackInfo.map((t) => t.codecName ?? t.type).join(' ')).toMatch(/avc|264/i);
    expect(meta.format.trackInfo.some((t) => /aac|mp4a/i.test(String(t.codecName)))).toBe(true);
  });
});

describe('reply audio', () => {
  it('decodes the fMP4 audio track to 24 kHz PCM for the output and reports when the avatar is audible', async () => {
    const out = join(dir, 'played.pcm');
    const sink = {
      name: 'file',
      cmd: process.execPath,
      args: ['-e', `process.stdin.pipe(require('fs').createWriteStream(${JSON.stringify(out)}))`],
    };
    const speaking: boolean[] = [];
    const fail = vi.fn();
    const ra = new ReplyAudio({ out: sink, onSpeaking: (s) => speaking.push(s), onFail: fail });
    ra.write(await fmp4(1.5, 0.5)); // silent first 0.5 s, then a tone
    await vi.waitFor(() => expect(speaking).toContain(true), { timeout: 10_000 });
    ra.close();
    await vi.waitFor(
      async () => {
        const { statSync } = await import('node:fs');
        expect(statSync(out).size).toBeGreaterThan(1.3 * 24000 * 2);
      },
      { timeout: 10_000 },
    );
    expect(fail).not.toHaveBeenCalled();
  });
});
