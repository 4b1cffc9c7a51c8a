import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderStillPng } from '../src/media/clips.js';
import { faceFromStyle } from '../src/media/face-source.js';
import { loadIdleLoop, renderLoopClip } from '../src/media/idle-loop.js';
import { loadPersonas } from '../src/emulator/gallery/personas.js';
import { personaStyle, STOCK_IDLE_SECONDS } from '../src/emulator/idle-media/worker.js';
import { idleMediaFor } from '../src/emulator/idle-media/worker.js';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * The shipped persona media is exactly what the renderer makes today (the fixture script
 * is deterministic): a renderer change without `npm run fixtures` fails here.
 */
const personas = loadPersonas(FIXTURES_DIR).list;
const ctx = { fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0];

describe.each(personas.map((p) => [p.id] as const))('persona %s', (id) => {
  it('ships the face and idle loop the renderer produces', async () => {
    const style = personaStyle(ctx, id)!;
    const dir = join(FIXTURES_DIR, 'personas', id);
    expect(Buffer.compare(await renderStillPng(style), readFileSync(join(dir, 'face.png')))).toBe(
      0,
    );
    const idle = await renderLoopClip(faceFromStyle(style), { seconds: STOCK_IDLE_SECONDS });
    expect(Buffer.compare(idle, readFileSync(join(dir, 'idle.mp4')))).toBe(0);
    // ...and is a loop the session stream can replay: video + audio, whole 160 ms units.
    const loop = loadIdleLoop(idle);
    expect(loop.tracks.map((t) => t.kind).sort()).toEqual(['audio', 'video']);
    expect(loop.durationMs).toBe(STOCK_IDLE_SECONDS * 1000);
  });
});

describe('stock idle loops at run time', () => {
  const h = useEmulator();
  it('are the shipped clips, ready without an ffmpeg run per start', async () => {
    await idleMediaFor(h.emu.ctx).idle();
    const key = h.emu.keys.secretKey;
    const list = (await (await h.fetch('/api/v1/workspaces/ws_stock/avatars', { key })).json()) as {
      data: { id: string; name: string; current_version_id: string; assets_status: string }[];
    };
    for (const p of personas) {
      const a = list.data.find((x) => x.name === p.name)!;
      expect(a.assets_status).toBe('ready');
      const clip = await h.fetch(`/api/v1/avatars/${a.id}/versions/${a.current_version_id}/idle`, {
        key,
      });
      expect(
        Buffer.compare(
          Buffer.from(await clip.arrayBuffer()),
          readFileSync(join(FIXTURES_DIR, 'personas', p.id, 'idle.mp4')),
        ),
      ).toBe(0);
    }
  });
});
