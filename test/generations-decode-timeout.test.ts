/**
 * The speak time bound covers the whole render, media decoding included: a face whose
 * decode never finishes (a decompression bomb, a stuck ffmpeg) is cut off after
 * `speakRenderTimeoutMs` on the injected clock: 502 render_failed, ffmpeg killed, the cell
 * free. ffmpeg is wrapped by a script (`AVATAR_FFMPEG`, read at each spawn; this file runs
 * in its own process) that hangs on the photo decode (rgb24 out) and runs the real one else.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { png } from './helpers/avatar-media.js';
import { useEmulator } from './helpers/emulator.js';
import { dataUri, spokenWav } from './helpers/generation-media.js';
import { hangingFfmpeg } from './helpers/hanging-ffmpeg.js';

const { pids, alive, until } = hangingFfmpeg('rgb24');

describe('speak time bound over media decoding', () => {
  const clock = new ManualClock();
  const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false, renderCells: 1, clock, speakRenderTimeoutMs: 60_000 });

  it('a face decode that never ends is 502 render_failed after speakRenderTimeoutMs; ffmpeg is killed and the cell freed', async () => {
    const ref = await spokenWav('A voice for the decode timeout test.', { voice: 'slt' });
    const body = { text: 'This face never decodes.', image: dataUri('image/png', png()), voice_ref: dataUri('audio/wav', ref) };
    const pending = h.api('/api/v1/speak', { body });
    await until(() => pids().length > 0);
    expect(pids()).toHaveLength(1);
    expect((await h.api('/api/v1/speak', { body })).status).toBe(429);
    clock.advance(60_000);
    const r = await pending;
    expect(r).toMatchObject({ status: 502, body: { error: 'render_failed', message: expect.stringMatching(/timed out after 60000 ms/) } });
    await until(() => !alive(pids()[0]!));
    expect(alive(pids()[0]!)).toBe(false);
    const next = h.api('/api/v1/speak', { body });
    await until(() => pids().length > 1);
    expect(pids()).toHaveLength(2);
    clock.advance(60_000);
    expect((await next).status).toBe(502);
  });
});
