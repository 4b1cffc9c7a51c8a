import { describe, expect, it } from 'vitest';
import { runFfmpeg, writeAsync } from '../src/media/ffmpeg.js';
import { decodePhoto } from '../src/media/photo.js';
import { framesFor } from '../src/media/encoder.js';
import { resolveAvatar } from '../src/emulator/avatars/resolve.js';
import { useEmulator, type ApiInit } from './helpers/emulator.js';
import { image } from './helpers/avatar-media.js';

const h = useEmulator({ idleSeconds: 2 });

const api = (path: string, init?: ApiInit) => h.api(path, init);

const ORDER = ['missing', 'building', 'ready'];

/** Poll the avatar (real background work: ffmpeg) until ready; returns the statuses seen, in order. */
async function watchUntilReady(avatarId: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 600; i++) {
    const s = (await api(`/api/v1/avatars/${avatarId}`)).body.assets_status as string;
    if (seen.at(-1) !== s) seen.push(s);
    if (s === 'ready') return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not ready; saw ${seen.join(' -> ')}`);
}

/** Decode an MP4 with ffmpeg: number of video frames and the mean RGB of the first one. */
async function decode(mp4: Buffer): Promise<{ frames: number; first: Buffer }> {
  const raw = await runFfmpeg(
    [
      '-i',
      'pipe:0',
      '-map',
      '0:v:0',
      '-vsync',
      '0',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      '352x480',
      'pipe:1',
    ],
    (stdin) => writeAsync(stdin, mp4),
  );
  const size = 352 * 480 * 3;
  return { frames: raw.length / size, first: raw.subarray(0, size) };
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('idle media (spec 1, spec 3 assets_status)', () => {
  it('builds a playable idle loop from an uploaded photo: missing -> building -> ready', async () => {
    const a = (
      await api('/api/v1/avatars', { method: 'POST', body: { name: 'Idle', kind: 'custom' } })
    ).body;
    expect(a.assets_status).toBe('missing');
    const v = (await api(`/api/v1/avatars/${a.id}/versions`, { method: 'POST', body: {} })).body;
    const photo = await image('jpeg');
    expect(
      (await api(v.upload_url, { method: 'PUT', raw: photo, type: 'image/jpeg' })).status,
    ).toBe(200);

    // Nothing waits for the build: the avatar is usable at once (spec 1) and holds a still.
    const early = resolveAvatar(h.emu.ctx, {
      workspaceId: h.emu.keys.workspaceId,
      avatar_id: a.id,
    });
    expect(early.ok).toBe(true);

    const seen = await watchUntilReady(a.id);
    expect(seen.at(-1)).toBe('ready');
    const idx = seen.map((s) => ORDER.indexOf(s));
    expect(idx).toEqual([...idx].sort()); // never goes backwards

    const clip = await api(`/api/v1/avatars/${a.id}/versions/${v.id}/idle`);
    expect(clip.status).toBe(200);
    expect(clip.type).toBe('video/mp4');
    expect(clip.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const { frames, first } = await decode(clip.body);
    expect(frames).toBe(52); // 2 s rounded up to whole 160 ms units: 2.08 s, 52 frames at 25 fps
    // The loop shows the uploaded photo (decoded the same way), not a stand-in.
    expect(meanAbsDiff(first, await decodePhoto(photo))).toBeLessThan(12);

    const ranged = await h.fetch(`/api/v1/avatars/${a.id}/versions/${v.id}/idle`, {
      key: h.emu.keys.secretKey,
      headers: { range: 'bytes=0-99' },
    });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    const resolved = resolveAvatar(h.emu.ctx, {
      workspaceId: h.emu.keys.workspaceId,
      avatar_id: a.id,
    });
    expect(resolved.ok && resolved.value.idle.status).toBe('ready');
  });

  it('answers 404 for the idle clip until it is built', async () => {
    const a = (await api('/api/v1/avatars', { method: 'POST', body: { name: 'NotYet' } })).body;
    const v = (await api(`/api/v1/avatars/${a.id}/versions`, { method: 'POST', body: {} })).body;
    expect((await api(`/api/v1/avatars/${a.id}/versions/${v.id}/idle`)).body.error).toBe(
      'not_found',
    );
  });

  it('builds persona loops (stock and source_persona) and reuses a clip for an inherited face', async () => {
    const a = (await api('/api/v1/avatars', { method: 'POST', body: { name: 'FromSam' } })).body;
    const v1 = (
      await api(`/api/v1/avatars/${a.id}/versions`, {
        method: 'POST',
        body: { source_persona: 'sam' },
      })
    ).body;
    await watchUntilReady(a.id);
    const c1 = (await api(`/api/v1/avatars/${a.id}/versions/${v1.id}/idle`)).body as Buffer;
    expect((await decode(c1)).frames).toBe(framesFor(2000));
    const v2 = (
      await api(`/api/v1/avatars/${a.id}/versions`, {
        method: 'POST',
        body: { inherit_image: true, system_prompt: 'new text' },
      })
    ).body;
    await watchUntilReady(a.id);
    expect((await api(`/api/v1/avatars/${a.id}`)).body.current_version_id).toBe(v2.id);
    const c2 = (await api(`/api/v1/avatars/${a.id}/versions/${v2.id}/idle`)).body as Buffer;
    expect(Buffer.compare(c1, c2)).toBe(0);

    const stock = (await api('/api/v1/workspaces/ws_stock/avatars')).body.data.find(
      (x: any) => x.name === 'Ava',
    );
    await watchUntilReady(stock.id);
    const sc = await api(`/api/v1/avatars/${stock.id}/versions/${stock.current_version_id}/idle`);
    expect((await decode(sc.body as Buffer)).frames).toBe(framesFor(2000)); // idleSeconds: 2 here, so rendered, not the shipped 4 s loop
  });
});

describe('idle media turned off', () => {
  const off = useEmulator({ idleMedia: false });
  it('leaves assets_status missing and the avatar still usable', async () => {
    const res = await off.fetch('/api/v1/workspaces/ws_stock/avatars', {
      key: off.emu.keys.secretKey,
    });
    const body = (await res.json()) as any;
    expect(body.data.every((a: any) => a.assets_status === 'missing')).toBe(true);
    const r = resolveAvatar(off.emu.ctx, { workspaceId: null, persona: 'ava' });
    expect(r.ok && r.value.idle).toEqual({ status: 'missing', blob_key: null, path: null });
  });
});
