/**
 * POST /api/v1/prebuild (spec 4.10): warm the idle-motion cache of a version on every live
 * box. Idle loops are built by the control plane's idle-media worker (src/emulator/idle-media)
 * and served to every box from the one blob store, so "warming a box" means: the box is
 * reachable (a real probe of its `/health`), it can render this face, and the version's
 * loop is built or queued at the front. Per-box status (docs/generations.md):
 *
 * - `unreachable`: the probe failed or timed out; `error_<status>`: it answered non-2xx;
 * - `prebuild_unsupported`: the emulator runs without idle media (`idleMedia: false`);
 * - `persona_unavailable`: nothing to render (no face image, unknown stock persona) or a
 *   custom face on a box that does not render custom avatars;
 * - `cached`: the loop is ready; `building`: queued or being built;
 * - `error_build_failed`: the version's build failed (versions are immutable: it is not
 *   retried until the emulator restarts).
 */
import { ApiError } from '../../server/api-error.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { EmulatorContext } from '../context.js';
import { getVersionRow, readableAvatar } from '../avatars/store.js';
import type { BoxRecord } from '../fleet/fleet.js';
import { idleMediaFor, personaStyle } from '../idle-media/worker.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { generationState } from './state.js';
import { idleMediaSql } from '../idle-media/sql.js';

export interface PrebuildAnswer {
  ok: boolean;
  avatar_ref: string;
  boxes: { box_id: string; status: string }[];
}

async function probe(
  ctx: EmulatorContext,
  box: BoxRecord,
  timeoutMs: number,
): Promise<'ok' | 'unreachable' | number> {
  const abort = new AbortController();
  const timer = ctx.clock.setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetch(`${box.baseUrl}/health`, { signal: abort.signal, redirect: 'error' });
    await res.body?.cancel();
    return res.ok ? 'ok' : res.status;
  } catch {
    return 'unreachable';
  } finally {
    timer.cancel();
  }
}

export async function runPrebuild(
  ctx: EmulatorContext,
  auth: AuthContext,
  versionId: string,
): Promise<PrebuildAnswer> {
  const notFound = () =>
    new ApiError(404, 'not_found', { message: `avatar version ${versionId} not found` });
  const v = getVersionRow(ctx.db, versionId);
  if (!v) throw notFound();
  try {
    readableAvatar(ctx.db, auth, v.avatar_id);
  } catch {
    throw notFound();
  }
  if (v.published_at === null) {
    throw new ApiError(400, 'version_not_published', {
      message: `version ${versionId} has no face yet (upload one to publish it)`,
    });
  }
  const custom = v.source_persona === null;
  const renderable = custom
    ? v.image_blob_key !== null
    : personaStyle(ctx, v.source_persona!) !== null;
  const idle = idleMediaSql(ctx.db).getIdleMediaStatusErrorByVersionId.get(v.id) as
    | { status: string; error: string | null }
    | undefined;
  const enabled = ctx.options.idleMedia !== false;
  const { opts } = generationState(ctx);
  const boxes = sessionRuntime(ctx).fleet.liveBoxes();
  const reach = await Promise.all(boxes.map((b) => probe(ctx, b, opts.prebuildProbeTimeoutMs)));
  let queue = false;
  const statuses = boxes.map((box, i) => {
    const r = reach[i]!;
    let status: string;
    if (r === 'unreachable') status = 'unreachable';
    else if (r !== 'ok') status = `error_${r}`;
    else if (!enabled) status = 'prebuild_unsupported';
    else if (!renderable || (custom && !box.customAvatars)) status = 'persona_unavailable';
    else if (idle?.status === 'ready') status = 'cached';
    else if (idle?.status === 'missing' && idle.error) status = 'error_build_failed';
    else {
      status = 'building';
      queue = true;
    }
    return { box_id: box.id, status };
  });
  if (queue) idleMediaFor(ctx).enqueue(v.id, true);
  return {
    ok: statuses.some((s) => s.status === 'building' || s.status === 'cached'),
    avatar_ref: v.id,
    boxes: statuses,
  };
}
