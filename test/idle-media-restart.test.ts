/**
 * Restart recovery of the idle-media builder: a process killed mid-build leaves rows
 * `building`; the next start puts them back to `missing` and builds them to `ready`.
 */
import { apiCall } from './helpers/emulator.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, startEmulator, type RunningEmulator } from '../src/emulator/start.js';
import { putBlob } from '../src/emulator/avatars/blobs.js';
import { renderSilentClip } from '../src/media/clips.js';
import { AUDIO_RATE } from '../src/media/encoder.js';
import { runFfmpeg } from '../src/media/ffmpeg.js';
import { loadIdleLoop } from '../src/media/idle-loop.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { splitFmp4 } from '../src/media/fmp4.js';
import { loopAt32kbps } from './helpers/foreign-loop.js';

const dir = mkdtempSync(join(tmpdir(), 'avatar-idle-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const api = async (emu: RunningEmulator, path: string, body?: unknown) =>
  (await apiCall(emu, path, { body })).body;

/** An idle loop as the previous emulator built it: the live fMP4 format, but AAC at 16 kHz. */
const sixteenKhzLoop = () =>
  runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:s=352x480:r=25:d=1',
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=16000:cl=mono',
    '-t',
    '1',
    '-c:v',
    'libx264',
    '-profile:v',
    'baseline',
    '-level',
    '3.0',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '32k',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-f',
    'mp4',
    '-movflags',
    'empty_moov+default_base_moof+frag_keyframe',
    '-frag_duration',
    '160000',
    'pipe:1',
  ]);

/** Start a second emulator on `dir` and wait for the avatar's idle media to be ready again. */
async function rebuiltLoop(avatarId: string, versionId: string): Promise<Buffer> {
  const second = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleSeconds: 1 });
  try {
    let status = '';
    for (let i = 0; i < 400 && status !== 'ready'; i++) {
      status = (await api(second, `/api/v1/avatars/${avatarId}`)).assets_status;
      if (status !== 'ready') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('ready');
    const clip = await fetch(
      `${second.baseUrl}/api/v1/avatars/${avatarId}/versions/${versionId}/idle`,
      {
        headers: { authorization: `Bearer ${second.keys.secretKey}` },
      },
    );
    expect(clip.status).toBe(200);
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    return Buffer.from(await clip.arrayBuffer());
  } finally {
    await second.stop();
  }
}

/** Store `bytes` as a ready idle loop of a new avatar (what an older emulator left in the data dir). */
async function storedLoop(
  name: string,
  persona: string,
  bytes: (emu: RunningEmulator) => Promise<Buffer>,
) {
  const first = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleMedia: false });
  try {
    const a = await api(first, '/api/v1/avatars', { name });
    const v = await api(first, `/api/v1/avatars/${a.id}/versions`, { source_persona: persona });
    const key = `avatars/${a.id}/${v.id}/idle.mp4`;
    const old = await bytes(first);
    putBlob(first.ctx, key, old);
    first.ctx.db
      .prepare(
        `INSERT INTO idle_media (version_id, avatar_id, status, blob_key, frames, updated_at) VALUES (?, ?, 'ready', ?, 24, 0)`,
      )
      .run(v.id, a.id, key);
    first.ctx.db.prepare(`UPDATE avatars SET assets_status = 'ready' WHERE id = ?`).run(a.id);
    return { avatarId: a.id as string, versionId: v.id as string, old };
  } finally {
    await first.stop();
  }
}

describe('idle media across a crash mid-build', () => {
  it('a version left building is rebuilt to ready on the next start', async () => {
    const first = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      dataDir: dir,
      idleMedia: false,
    });
    let avatarId: string;
    let versionId: string;
    try {
      const a = await api(first, '/api/v1/avatars', { name: 'Interrupted' });
      const v = await api(first, `/api/v1/avatars/${a.id}/versions`, { source_persona: 'mei' });
      avatarId = a.id;
      versionId = v.id;
      // What a kill -9 during a build leaves behind.
      first.ctx.db
        .prepare(
          `INSERT INTO idle_media (version_id, avatar_id, status, updated_at) VALUES (?, ?, 'building', 0)`,
        )
        .run(v.id, a.id);
      first.ctx.db.prepare(`UPDATE avatars SET assets_status = 'building' WHERE id = ?`).run(a.id);
      expect((await api(first, `/api/v1/avatars/${a.id}`)).assets_status).toBe('building');
    } finally {
      await first.stop();
    }
    const rebuilt = loadIdleLoop(await rebuiltLoop(avatarId!, versionId!));
    expect(rebuilt.tracks.map((t) => t.kind).sort()).toEqual(['audio', 'video']);
  });

  it('an idle loop an older emulator built (muted, not fragmented) is rebuilt in the live format', async () => {
    const { avatarId, versionId, old } = await storedLoop('OldFormat', 'sam', (emu) =>
      renderSilentClip(personaStyle(emu.ctx, 'sam')!, { seconds: 1 }),
    );
    expect(() => loadIdleLoop(old)).toThrow(/not a fragmented MP4/);
    const loop = loadIdleLoop(await rebuiltLoop(avatarId, versionId));
    expect(loop.tracks.map((t) => t.kind).sort()).toEqual(['audio', 'video']);
  });

  it('an idle loop with 16 kHz audio (before the stream moved to 32 kHz) is rebuilt: its init segment is not the live one', async () => {
    const { avatarId, versionId, old } = await storedLoop('SixteenKhz', 'leo', () =>
      sixteenKhzLoop(),
    );
    // The edge would not splice it (a reply's init segment differs): it plays the still loop instead.
    expect(() => loadIdleLoop(old)).toThrow(/16 kHz audio, not the stream's 32 kHz \(rebuild it\)/);
    const rebuilt = await rebuiltLoop(avatarId, versionId);
    expect(Buffer.compare(rebuilt, old)).not.toBe(0);
    const loop = loadIdleLoop(rebuilt);
    expect(loop.tracks.find((t) => t.kind === 'audio')!.timescale).toBe(AUDIO_RATE);
    expect(loop.durationMs).toBe(1120); // idleSeconds 1, rounded up to whole 160 ms units
  });

  it("an idle loop whose init segment is not the live encoder's (32 kb/s AAC, from the build between) is rebuilt", async () => {
    const { avatarId, versionId, old } = await storedLoop('ThirtyTwoKbps', 'mei', () =>
      loopAt32kbps(352, 480, 25),
    );
    // loadIdleLoop takes it (32 kHz fMP4): only the init segment tells, and the edge would show the still loop.
    const stockInit = splitFmp4(
      readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'idle.mp4')),
    ).init;
    expect(Buffer.compare(loadIdleLoop(old).init, stockInit)).not.toBe(0);
    const rebuilt = loadIdleLoop(await rebuiltLoop(avatarId, versionId));
    expect(Buffer.compare(rebuilt.init, stockInit)).toBe(0);
    expect(rebuilt.durationMs).toBe(1120);
  });
});
