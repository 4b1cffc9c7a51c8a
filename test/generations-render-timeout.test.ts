/**
 * A speak render whose encoder never finishes is cut off after `speakRenderTimeoutMs` (on
 * the injected clock): 502 render_failed, the encoder killed, the render cell free again.
 * ffmpeg is wrapped by a script (`AVATAR_FFMPEG`, read at each spawn; this file runs in its
 * own process) that hangs on the H.264 encode and runs the real ffmpeg for everything else.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { png } from './helpers/avatar-media.js';
import { useEmulator } from './helpers/emulator.js';
import { dataUri, spokenWav } from './helpers/generation-media.js';
import { hangingFfmpeg } from './helpers/hanging-ffmpeg.js';

const { pids, alive, until } = hangingFfmpeg('libx264');

describe('speak render time bound', () => {
  const clock = new ManualClock();
  const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false, renderCells: 1, clock, speakRenderTimeoutMs: 60_000 });

  it('502 render_failed after speakRenderTimeoutMs; the encoder is killed and the cell freed', async () => {
    const ref = await spokenWav('A voice for the timeout test.', { voice: 'slt' });
    const body = { text: 'This render never ends.', image: dataUri('image/png', png()), voice_ref: dataUri('audio/wav', ref) };
    const pending = h.api('/api/v1/speak', { body });
    await until(() => pids().length > 0);
    expect(pids()).toHaveLength(1);
    // The cell is taken meanwhile.
    expect((await h.api('/api/v1/speak', { body })).status).toBe(429);
    clock.advance(60_000);
    const r = await pending;
    expect(r).toMatchObject({ status: 502, body: { error: 'render_failed', message: expect.stringMatching(/timed out after 60000 ms/) } });
    await until(() => !alive(pids()[0]!));
    expect(alive(pids()[0]!)).toBe(false);
    // Free again: the next render starts (and hangs in turn; the emulator's stop ends it).
    const next = h.api('/api/v1/speak', { body });
    await until(() => pids().length > 1);
    expect(pids()).toHaveLength(2);
    clock.advance(60_000);
    expect((await next).status).toBe(502);
  });
});
