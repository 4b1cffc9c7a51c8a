/**
 * Speak's time bound covers the whole render: a call to ffmpeg that never finishes, be it
 * the H.264 encode or the decode of the face (a decompression bomb, a stuck ffmpeg), is cut
 * off after `speakRenderTimeoutMs` on the injected clock: 502 render_failed, that ffmpeg
 * killed, the render cell free again. ffmpeg is a wrapper script that hangs on one kind of
 * call (the encode: libx264; the photo decode: rgb24 out) and runs the real one otherwise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { png } from './helpers/avatar-media.js';
import { useEmulator } from './helpers/emulator.js';
import { dataUri, spokenWav } from './helpers/generation-media.js';
import { hangingFfmpeg } from './helpers/hanging-ffmpeg.js';

describe.each([
  ['the encode', 'libx264'],
  ['the face decode', 'rgb24'],
])('speak time bound: %s never ends', (_step, pattern) => {
  const ffmpeg = hangingFfmpeg(pattern);
  beforeAll(() => ffmpeg.use());
  const clock = new ManualClock();
  const h = useEmulator({
    idleMedia: false,
    transcribeVoiceRefs: false,
    renderCells: 1,
    clock,
    speakRenderTimeoutMs: 60_000,
  });

  it('is 502 render_failed after speakRenderTimeoutMs; that ffmpeg is killed and the cell freed', async () => {
    const { pids, alive, until } = ffmpeg;
    const ref = await spokenWav('A voice for the time bound test.', { voice: 'slt' });
    const body = {
      text: 'This render never ends.',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
    };
    const pending = h.api('/api/v1/speak', { body });
    await until(() => pids().length > 0);
    expect(pids()).toHaveLength(1);
    // The cell is taken meanwhile.
    expect((await h.api('/api/v1/speak', { body })).status).toBe(429);
    clock.advance(60_000);
    const r = await pending;
    expect(r).toMatchObject({
      status: 502,
      body: { error: 'render_failed', message: expect.stringMatching(/timed out after 60000 ms/) },
    });
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
