import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { IDLE_RETRY_MS, sessionMedia, sessionVoiceShape } from '../src/edge/media-part.js';
import type { MediaRequest, SessionStream } from '../src/edge/session/parts.js';
import type { SessionSnapshot } from '../src/edge/session/snapshot.js';
import { runFfmpeg, writeAsync } from '../src/media/ffmpeg.js';
import { FliteVoice, writeWav } from '../src/models/voice/index.js';
import { png } from './helpers/avatar-media.js';
import { waitUntil } from './helpers/wait.js';

/** How a box builds a custom avatar's media: voice samples in any format, idle loops that are missing, broken or arrive late. */
let n = 0;
function request(
  clock: ManualClock,
  fetch: (kind: 'face' | 'idle' | 'voice') => Buffer | null,
): MediaRequest {
  const snapshot = {
    id: `ses_mediapart_${++n}`,
    avatar: {
      kind: 'custom',
      persona: null,
      avatarId: 'av_1',
      versionId: `ver_mediapart_${n}`,
      media: { face: 'f', voice: 'v', idle: 'i', idle_status: 'ready' },
    },
  } as unknown as SessionSnapshot;
  return {
    snapshot,
    clock: { now: () => clock.now(), setTimeout: (fn, ms) => clock.setTimeout(fn, ms) },
    fetchMedia: async (k) => fetch(k),
  };
}

let stream: SessionStream | null = null;
afterEach(() => stream?.close());

describe('edge media part', () => {
  it("shapes the voice from an MP3 voice sample (the sample's pitch carries over)", async () => {
    const sample = await new FliteVoice().synthesize(
      'This is my voice, recorded on my phone and sent as an MP3 file.',
      { shape: { voice: 'kal16', pitchHz: 130 } },
    );
    const mp3 = await runFfmpeg(
      ['-f', 'wav', '-i', 'pipe:0', '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', 'pipe:1'],
      (s) => writeAsync(s, writeWav(sample.samples, sample.sampleRate)),
    );
    const shape = await sessionVoiceShape(
      request(new ManualClock(), (k) => (k === 'voice' ? mp3 : null)),
    );
    expect(Math.abs(shape!.pitchHz! - 130)).toBeLessThan(13);
    // Bytes no decoder reads shape nothing (the stock voice speaks), never an error.
    expect(
      await sessionVoiceShape(
        request(new ManualClock(), (k) => (k === 'voice' ? Buffer.from('not audio') : null)),
      ),
    ).toBeUndefined();
  });

  it('plays the still loop when the idle bytes are unusable, and swaps the idle loop in once it is ready', async () => {
    const clock = new ManualClock();
    let idle: Buffer = Buffer.from('not an mp4 at all');
    stream = await sessionMedia(
      request(clock, (k) => (k === 'face' ? png() : k === 'idle' ? idle : null)),
    );
    await stream.ready();
    const kinds: string[] = [];
    stream.on('fragment', (_b: Buffer, info: { kind: string }) => kinds.push(info.kind));
    await waitUntil(() => kinds.length >= 3, 10_000, 'three fragments');
    expect(new Set(kinds)).toEqual(new Set(['still']));
    // The version's loop is built meanwhile (the ava fixture has the same encoder settings and size).
    idle = readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'idle.mp4'));
    clock.advance(IDLE_RETRY_MS);
    await waitUntil(() => kinds.includes('idle'), 10_000, 'the idle loop');
    expect(kinds).toContain('idle');
  }, 20_000);
});
