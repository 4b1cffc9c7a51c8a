import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { openRecordedMic, openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { FAST_MIC_MS, streamFrames, utteranceFrames } from './helpers/utterance.js';

/** Issue 8: `recording: true` captures raw mic audio (and video when rendered); `observability: false` silences session logs. */

describe('recording and observability', () => {
  const lines: string[] = [];
  const h = useEmulator({
    boxes: 1,
    seats: 4,
    mintRatePerMinute: 0,
    edgeLog: (l: string) => lines.push(l),
  });

  it('recording: true keeps the raw mic audio as a WAV an operator can list and download; DELETE erases it', async () => {
    const { m, mic } = await openRecordedMic(h.api);
    const frames = (await utteranceFrames('Testing one two three.', 2)).slice(0, 12);
    await streamFrames(mic, frames, undefined, FAST_MIC_MS);
    mic.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
    const list = await until(
      () => h.api(`/_emulator/sessions/${m.session_id}/recordings`),
      (r) =>
        r.status === 200 &&
        r.body.data.some((f: any) => f.name === 'mic.wav' && f.bytes === 44 + frames.length * 3200),
    );
    expect(list.body.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 29 * 86400);
    const wav = await h.api(`/_emulator/sessions/${m.session_id}/recordings/mic.wav`);
    expect(wav.type).toBe('audio/wav');
    const b = wav.body as Buffer;
    expect(b.subarray(0, 4).toString()).toBe('RIFF');
    expect(b.readUInt32LE(24)).toBe(16_000);
    expect(b.readUInt32LE(40)).toBe(frames.length * 3200);
    expect(Buffer.compare(b.subarray(44, 44 + 3200), frames[0]!)).toBe(0);

    // Only the capture files are served: a file named after an Object.prototype key
    // (`constructor`) in the session's directory is neither listed nor downloadable.
    const dir = join(h.emu.ctx.blobDir, 'captures', m.session_id);
    writeFileSync(join(dir, 'constructor'), 'not a capture');
    const odd = await h.api(`/_emulator/sessions/${m.session_id}/recordings/constructor`);
    expect(odd.status).toBe(404);
    const names = (await h.api(`/_emulator/sessions/${m.session_id}/recordings`)).body.data.map(
      (f: any) => f.name,
    );
    expect(names).toContain('mic.wav');
    expect(names).not.toContain('constructor');

    expect((await h.api(`/api/v1/sessions/${m.session_id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await h.api(`/_emulator/sessions/${m.session_id}/recordings`)).status).toBe(404);
  }, 20_000);

  it('a release answers once the box has ended the session: the listing right after it names the finished mic.wav, and the download is that file', async () => {
    const { m, mic } = await openRecordedMic(h.api);
    await streamFrames(
      mic,
      (await utteranceFrames('One two.', 2)).slice(0, 6),
      undefined,
      FAST_MIC_MS,
    );
    const released = await h.api(`/api/v1/sessions/${m.session_id}/release`, {
      body: { seat_token: m.seat_token },
    });
    expect(released.status).toBe(200);
    // No waiting: the release answered, so the box has closed the capture (docs/edge.md "Recording").
    const list = await h.api(`/_emulator/sessions/${m.session_id}/recordings`);
    const listed = (list.body.data as { name: string; bytes: number }[]).find(
      (f) => f.name === 'mic.wav',
    );
    expect(listed?.bytes).toBeGreaterThan(44);
    const wav = (await h.api(`/_emulator/sessions/${m.session_id}/recordings/mic.wav`))
      .body as Buffer;
    expect(wav.length).toBe(listed!.bytes);
    // The header was patched: it says how much audio follows.
    expect(wav.readUInt32LE(40)).toBe(listed!.bytes - 44);
    mic.close();
  }, 20_000);

  it('an end the control plane decides (release, reaper, cap) settles once the box has ended the session: its mic.wav is on disk, whole', async () => {
    const { m, mic } = await openRecordedMic(h.api);
    await streamFrames(
      mic,
      (await utteranceFrames('Three.', 2)).slice(0, 4),
      undefined,
      FAST_MIC_MS,
    );
    const capture = join(h.emu.ctx.blobDir, 'captures', m.session_id, 'mic.wav');
    // What the release route awaits: it used to answer before the box had even been told.
    await sessionRuntime(h.emu.ctx).endSession(m.session_id, 'released');
    expect(existsSync(capture)).toBe(true);
    const wav = readFileSync(capture);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    mic.close();
  }, 20_000);

  it('a session without recording captures nothing; observability: false silences its session-tagged logs', async () => {
    const quiet = (
      await h.api('/api/v1/sessions', {
        body: {
          persona: 'ava',
          observability: false,
          config: { render: false, greeting_enabled: false },
        },
      })
    ).body;
    const loud = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body;
    for (const m of [quiet, loud]) {
      const s = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
      s.close();
      await until(
        () => h.api(`/api/v1/sessions/${m.session_id}`),
        (r) => r.body.status === 'ended',
      );
    }
    expect(lines.some((l) => l.includes(loud.session_id))).toBe(true);
    expect(lines.some((l) => l.includes(quiet.session_id))).toBe(false);
    expect((await h.api(`/_emulator/sessions/${loud.session_id}/recordings`)).status).toBe(404);
  });
});
