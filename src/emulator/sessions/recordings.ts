/**
 * Raw captures of `recording: true` sessions (spec 4.5, 8: 30-day retention). Boxes of this
 * process write `<blobs>/captures/<session_id>/{mic.wav,video.mp4}`; a box in another
 * process (`avatar edge start --data DIR`) writes under its own DIR and is asked for them
 * over the internal box API (box-captures.ts). An operator lists and downloads them here
 * (ours, under /_emulator/, never /api/v1); `DELETE /api/v1/sessions/{id}` erases them with
 * the session's content (on the box too). An hourly sweep on the emulator clock removes
 * local captures of sessions that ended more than 30 days ago; a box's own captures past
 * retention are no longer served (the box does not sweep its --data dir).
 */
import { fillPath } from '../../contract/operation.js';
import { recording, recordings } from '../../contract/operations/operator.js';
import { CAPTURE_FILES, isCaptureFile } from '../../contract/operations/boxes.js';
import { implement } from '../http/router.js';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { unixSeconds } from '../clock.js';
import { sessionRuntime } from './runtime.js';
import { boxCaptureFile, boxCaptureList, boxGone } from '../fleet/box-captures.js';
import type { BoxRecord } from '../fleet/fleet.js';
import { sessionSql } from './sql.js';

export const CAPTURE_RETENTION_S = 30 * 24 * 3600;
const SWEEP_EVERY_MS = 3600_000;

const root = (ctx: EmulatorContext) => join(ctx.blobDir, 'captures');

/** Remove captures past retention (sessions ended over 30 days ago, or gone from the store). */
export function sweepCaptures(ctx: EmulatorContext): number {
  const dir = root(ctx);
  if (!existsSync(dir)) return 0;
  const cutoff = unixSeconds(ctx.clock) - CAPTURE_RETENTION_S;
  const ended = sessionSql(ctx.db).getSessionEnd;
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

  const notFound = (id: string, why = 'not recorded, erased, or past the 30-day retention') =>
    new ApiError(404, 'not_found', { message: `no recordings for session ${id} (${why})` });
  const sessionRow = sessionSql(ctx.db).getSessionRecordingState;

  /** Where a session's captures are: this control plane's disk, or the box that captured them. */
  const where = (id: string): { local: string } | { box: BoxRecord } => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(id, 'no such session');
    sweepCaptures(ctx);
    const dir = join(root(ctx), id);
    if (existsSync(dir)) return { local: dir };
    const row = sessionRow.get(id) as
      | { ended_at: number | null; status: string; recording: number; box_id: string }
      | undefined;
    const expired =
      row?.ended_at != null && row.ended_at <= unixSeconds(ctx.clock) - CAPTURE_RETENTION_S;
    if (!row || !row.recording || row.status === 'deleted' || expired) throw notFound(id);
    // A box in another process (`avatar edge start --data DIR`) wrote them under its own dir.
    const box = sessionRuntime(ctx).fleet.get(row.box_id);
    const gone = boxGone(box, row.box_id);
    if (gone) throw notFound(id, gone);
    return { box: box! };
  };
  const listing = async (id: string): Promise<{ name: string; bytes: number }[]> => {
    const at = where(id);
    if ('local' in at)
      return readdirSync(at.local)
        .filter(isCaptureFile)
        .map((name) => ({ name, bytes: statSync(join(at.local, name)).size }));
    const r = await boxCaptureList(at.box, id);
    if (!r.ok) throw notFound(id, r.why);
    return r.value.filter((f) => isCaptureFile(f.name));
  };
  // A brain-only session (render: false) renders no video: its empty video.mp4 is not offered.
  const offered = (files: { name: string; bytes: number }[]) =>
    files.filter((f) => f.name !== 'video.mp4' || f.bytes > 0);

  implement(app, ctx, recordings, async ({ params: { id } }) => {
    const files = offered(await listing(id));
    const row = sessionRow.get(id) as { ended_at: number | null } | undefined;
    return {
      session_id: id,
      expires_at: row?.ended_at ? row.ended_at + CAPTURE_RETENTION_S : null,
      data: files.map(({ name, bytes }) => ({
        name,
        content_type: CAPTURE_FILES[name],
        bytes,
        url: fillPath(recording.path, { id, name }),
      })),
    };
  });

  implement(app, ctx, recording, async ({ params: { id, name }, c }) => {
    const names = offered(await listing(id)).map((f) => f.name);
    if (!names.includes(name))
      throw new ApiError(404, 'not_found', {
        message: `no recording ${name}; there are ${names.join(', ') || 'none'}`,
      });
    const at = where(id);
    let bytes: Buffer;
    if ('local' in at) bytes = readFileSync(join(at.local, name));
    else {
      const r = await boxCaptureFile(at.box, id, name);
      if (!r.ok) throw notFound(id, r.why);
      bytes = r.value;
    }
    return c.body(new Uint8Array(bytes), 200, { 'content-type': CAPTURE_FILES[name]! });
  });
}
