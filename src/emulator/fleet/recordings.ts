/**
 * Raw captures of `recording: true` sessions (spec 4.5, 8: 30-day retention). Boxes write
 * `<blobs>/captures/<session_id>/{mic.wav,video.mp4}`; an operator lists and downloads
 * them here (ours, under /_emulator/, never /api/v1); `DELETE /api/v1/sessions/{id}`
 * erases them with the session's content. An hourly sweep on the emulator clock removes
 * captures of sessions that ended more than 30 days ago.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../http/api-error.js';
import { unixSeconds } from '../clock.js';

export const CAPTURE_RETENTION_S = 30 * 24 * 3600;
const SWEEP_EVERY_MS = 3600_000;
const FILES: Record<string, string> = { 'mic.wav': 'audio/wav', 'video.mp4': 'video/mp4' };

const root = (ctx: EmulatorContext) => join(ctx.blobDir, 'captures');

/** Remove captures past retention (sessions ended over 30 days ago, or gone from the store). */
export function sweepCaptures(ctx: EmulatorContext): number {
  const dir = root(ctx);
  if (!existsSync(dir)) return 0;
  const cutoff = unixSeconds(ctx.clock) - CAPTURE_RETENTION_S;
  const ended = ctx.db.prepare('SELECT ended_at, status FROM sessions WHERE id = ?');
  let removed = 0;
  for (const id of readdirSync(dir)) {
    const row = ended.get(id) as { ended_at: number | null; status: string } | undefined;
    if (!row || row.status === 'deleted' || (row.ended_at !== null && row.ended_at <= cutoff)) {
      rmSync(join(dir, id), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

export function registerRecordings(app: App, ctx: EmulatorContext): void {
  let timer = ctx.clock.setTimeout(function sweep() {
    sweepCaptures(ctx);
    timer = ctx.clock.setTimeout(sweep, SWEEP_EVERY_MS);
  }, SWEEP_EVERY_MS);
  ctx.onStop(() => timer.cancel());

  const files = (id: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new ApiError(404, 'not_found', { message: `no recordings for session ${id}` });
    sweepCaptures(ctx);
    const dir = join(root(ctx), id);
    if (!existsSync(dir)) throw new ApiError(404, 'not_found', { message: `no recordings for session ${id} (not recorded, erased, or past the 30-day retention)` });
    // A brain-only session (render: false) renders no video: its empty video.mp4 is not offered.
    return { dir, names: readdirSync(dir).filter((n) => n in FILES && (n !== 'video.mp4' || statSync(join(dir, n)).size > 0)) };
  };

  app.get('/_emulator/sessions/:id/recordings', (c) => {
    const id = c.req.param('id');
    const { dir, names } = files(id);
    const row = ctx.db.prepare('SELECT ended_at FROM sessions WHERE id = ?').get(id) as { ended_at: number | null } | undefined;
    return c.json({
      session_id: id,
      expires_at: row?.ended_at ? row.ended_at + CAPTURE_RETENTION_S : null,
      data: names.map((name) => ({ name, content_type: FILES[name], bytes: statSync(join(dir, name)).size, url: `/_emulator/sessions/${id}/recordings/${name}` })),
    });
  });

  app.get('/_emulator/sessions/:id/recordings/:name', (c) => {
    const { dir, names } = files(c.req.param('id'));
    const name = c.req.param('name');
    if (!names.includes(name)) throw new ApiError(404, 'not_found', { message: `no recording ${name}; there are ${names.join(', ') || 'none'}` });
    return c.body(new Uint8Array(readFileSync(join(dir, name))), 200, { 'content-type': FILES[name]! });
  });
}
