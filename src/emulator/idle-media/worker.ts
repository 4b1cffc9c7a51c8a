/**
 * The idle-media builder (spec 1 "Idle media", spec 3 `assets_status`): after a version is
 * published, a background worker pre-renders the avatar's idle loop with the session
 * stream's own renderer and encoder (src/media; format: src/media/idle-loop.ts) and moves the avatar's `assets_status` from
 * `missing` to `building` to `ready`. Nothing waits for it: a session can start at once and
 * holds a still frame meanwhile.
 *
 * One job at a time (ffmpeg is the cost). Newly published versions go to the front; the
 * stock catalog, seeded at start, goes to the back. A failure is logged and leaves the
 * version `missing` (a restart retries it). A build that runs past the build timeout
 * (a stuck ffmpeg) is aborted, its child killed, and counts as a failure. Stopping aborts
 * the job in flight (killing its ffmpeg), waits for it to unwind and writes nothing
 * afterwards.
 *
 * Options (EmulatorOptions): `idleMedia: false` turns the builder off (everything stays
 * `missing`); `idleSeconds` sets the loop length (default 4 s at 25 fps);
 * `idleBuildTimeoutS` bounds one build (default 60 s, on the injected clock).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { readBlob, putBlob } from '../avatars/blobs.js';
import { getVersionRow, type VersionRow } from '../avatars/store.js';
import { loadPersonas } from '../gallery/personas.js';
import { hexToRgb, type FaceStyle } from '../../media/face.js';
import { faceFromPhoto, faceFromStyle, type FaceSource } from '../../media/face-source.js';
import { framesFor, MEDIA_FPS } from '../../media/encoder.js';
import { loadIdleLoop, renderLoopClip, type IdleLoop } from '../../media/idle-loop.js';
import { avatarSql } from '../avatars/sql.js';
import { idleMediaSql } from './sql.js';

/** The idle loop's frame rate: the session stream's (src/media/encoder.ts). */
export const IDLE_FPS = MEDIA_FPS;
/** Length of the idle loops shipped for stock personas (fixtures/personas/<key>/idle.mp4). */
export const STOCK_IDLE_SECONDS = 4;

function shippedIdleClip(ctx: EmulatorContext, persona: string): Buffer | null {
  const file = join(loadPersonas(ctx.fixturesDir).dir(persona), 'idle.mp4');
  return existsSync(file) ? readFileSync(file) : null;
}
/** Default bound on one build; a 4 s loop takes well under a second. */
export const IDLE_BUILD_TIMEOUT_S = 60;

export interface IdleMediaWorker {
  /** Queue a published version; `front` for fresh publishes. */
  enqueue(versionId: string, front?: boolean): void;
  /** Resolves when the queue is empty (tests; `avatar emulator` tooling). */
  idle(): Promise<void>;
}

type IdleStatus = 'missing' | 'building' | 'ready';

/** The emulator's idle media worker (built once by src/emulator/services.ts). */
export function idleMediaFor(ctx: EmulatorContext): IdleMediaWorker {
  return ctx.services.idleMedia;
}

/** Persona style (fixtures/personas/personas.json) as the renderer's FaceStyle. */
export function personaStyle(ctx: EmulatorContext, key: string): FaceStyle | null {
  const p = loadPersonas(ctx.fixturesDir).get(key);
  if (!p) return null;
  const s = p.style;
  return {
    background: hexToRgb(s.background!),
    accent: hexToRgb(p.accent),
    skin: hexToRgb(s.skin!),
    hair: hexToRgb(s.hair!),
    hairStyle: (s.hairStyle ?? 'short') as FaceStyle['hairStyle'],
    shirt: hexToRgb(s.shirt!),
    iris: hexToRgb(s.iris!),
    lips: hexToRgb(s.lips!),
  };
}

/** The idle media worker; stops with the emulator (ctx.onStop). */
export function createIdleMediaWorker(ctx: EmulatorContext): IdleMediaWorker {
  const { db } = ctx;
  const enabled = ctx.options.idleMedia !== false;
  const seconds = typeof ctx.options.idleSeconds === 'number' ? ctx.options.idleSeconds : 4;
  const timeoutS =
    typeof ctx.options.idleBuildTimeoutS === 'number'
      ? ctx.options.idleBuildTimeoutS
      : IDLE_BUILD_TIMEOUT_S;
  const queue: string[] = [];
  let running: Promise<void> | null = null;
  let inFlight: AbortController | null = null;
  let stopped = false;
  let waiters: (() => void)[] = [];

  const setStatus = (
    v: VersionRow,
    status: IdleStatus,
    extra: { blobKey?: string; frames?: number; error?: string } = {},
  ) => {
    const now = unixSeconds(ctx.clock);
    db.transaction(() => {
      idleMediaSql(db).upsertIdleMedia.run(
        v.id,
        v.avatar_id,
        status,
        extra.blobKey ?? null,
        extra.frames ?? null,
        extra.error ?? null,
        now,
      );
      // assets_status reports the *current* version's idle media.
      avatarSql(db).setCurrentVersionAssetsStatus.run(status, v.avatar_id, v.id);
    })();
  };

  async function render(v: VersionRow, signal: AbortSignal): Promise<Buffer> {
    let face: FaceSource;
    const style = v.source_persona ? personaStyle(ctx, v.source_persona) : null;
    // Stock loops are pre-encoded in the package (`npm run fixtures`, same renderer, encoder
    // and length), as a service ships its stock catalog: no ffmpeg run per start.
    const shipped =
      style && seconds === STOCK_IDLE_SECONDS ? shippedIdleClip(ctx, v.source_persona!) : null;
    if (shipped) return shipped;
    if (style) face = faceFromStyle(style);
    else {
      const photo = v.image_blob_key ? readBlob(ctx, v.image_blob_key) : null;
      if (!photo) throw new Error(`version ${v.id} has no face image`);
      face = await faceFromPhoto(photo, undefined, undefined, { signal });
    }
    // The session stream's idle format: fMP4 with silent AAC, the live encoder's settings.
    return renderLoopClip(face, { seconds, signal });
  }

  async function build(versionId: string): Promise<void> {
    const v = getVersionRow(db, versionId);
    if (!v || v.published_at === null) return;
    const current = idleMediaSql(db).getIdleMediaStatusByVersionId.get(v.id) as
      | { status: IdleStatus }
      | undefined;
    if (current?.status === 'ready') return setStatus(v, 'ready', readyExtra(v.id));
    setStatus(v, 'building');
    // The loop depends on the face only: a version that inherited a face reuses its clip.
    const same = idleMediaSql(db).findReadyIdleMediaForImage.get(
      v.image_blob_key,
      v.source_persona,
    ) as { blob_key: string; frames: number } | undefined;
    if (same) return setStatus(v, 'ready', { blobKey: same.blob_key, frames: same.frames });
    const abort = new AbortController();
    inFlight = abort;
    let timedOut = false;
    const timer = ctx.clock.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutS * 1000);
    try {
      const clip = await render(v, abort.signal);
      if (stopped) return;
      const key = `avatars/${v.avatar_id}/${v.id}/idle.mp4`;
      putBlob(ctx, key, clip);
      setStatus(v, 'ready', { blobKey: key, frames: framesFor(seconds * 1000) });
    } catch (e) {
      if (stopped) return;
      const reason = timedOut ? `timed out after ${timeoutS} s` : (e as Error).message;
      ctx.log(`idle media for version ${v.id} failed: ${reason}`);
      setStatus(v, 'missing', { error: reason.slice(0, 500) });
    } finally {
      timer.cancel();
      inFlight = null;
    }
  }

  const readyExtra = (id: string) => {
    const r = idleMediaSql(db).getIdleMediaByVersionId.get(id) as {
      blob_key: string;
      frames: number;
    };
    return { blobKey: r.blob_key, frames: r.frames };
  };

  async function loop(): Promise<void> {
    while (!stopped && queue.length > 0) {
      const id = queue.shift()!;
      try {
        await build(id);
      } catch (e) {
        // Never let one version stall the queue or reject unobserved (a crash).
        if (!stopped) ctx.log(`idle media for version ${id} failed: ${(e as Error).message}`);
      }
    }
    running = null;
    const w = waiters;
    waiters = [];
    w.forEach((fn) => fn());
  }

  const kick = () => {
    if (running || stopped || queue.length === 0) return;
    // Start on the next turn of the event loop so the request that published returns first.
    running = new Promise<void>((res) => setImmediate(res)).then(loop);
  };

  ctx.onStop(async () => {
    stopped = true;
    queue.length = 0;
    inFlight?.abort();
    await running;
  });

  return {
    enqueue(versionId, front = false) {
      if (!enabled || stopped) return;
      if (queue.includes(versionId)) return;
      if (front) queue.unshift(versionId);
      else queue.push(versionId);
      kick();
    },
    idle() {
      if (!running && queue.length === 0) return Promise.resolve();
      return new Promise<void>((res) => waiters.push(res));
    },
  };
}

/**
 * Idle loops built by an older emulator cannot be replayed by a live session: a muted MP4
 * (before the session stream's fMP4 format with silent audio), an fMP4 with 16 kHz audio
 * (before the stream moved to 32 kHz AAC for clean clip joins, docs/media.md), or any loop
 * whose init segment is not the live encoder's (e.g. AAC at 32 kb/s, from the build between
 * the 32 kHz move and 40 kb/s: only its esds differs). The edge would show the still loop
 * instead. They go back to `missing` (with every avatar showing them) so the queue below
 * rebuilds them. The checks: the edge's own `loadIdleLoop`, then the init segment against
 * a shipped stock loop's of the same size (`npm run fixtures` output, which a test keeps
 * byte-identical to the live encoder's), with no encode at start.
 */
function isCurrentFormat(
  bytes: Buffer | null,
  liveInit: (width: number, height: number) => Buffer | null,
): boolean {
  if (!bytes) return false;
  try {
    const loop = loadIdleLoop(bytes);
    const init = liveInit(loop.width, loop.height);
    return !init || init.equals(loop.init);
  } catch {
    return false;
  }
}

/** The init segment of the first shipped stock loop of a size (null when none ships). */
function shippedInits(ctx: EmulatorContext): (width: number, height: number) => Buffer | null {
  let inits: IdleLoop[] | null = null;
  return (width, height) => {
    inits ??= loadPersonas(ctx.fixturesDir).list.flatMap((p) => {
      const bytes = shippedIdleClip(ctx, p.id);
      try {
        return bytes ? [loadIdleLoop(bytes)] : [];
      } catch {
        return [];
      }
    });
    return inits.find((l) => l.width === width && l.height === height)?.init ?? null;
  };
}

function staleFormatToMissing(ctx: EmulatorContext): void {
  const { db } = ctx;
  const keys = idleMediaSql(db).listIdleMediaBlobKey.all() as { blob_key: string }[];
  const liveInit = shippedInits(ctx);
  for (const { blob_key } of keys) {
    if (isCurrentFormat(readBlob(ctx, blob_key), liveInit)) continue;
    const ids = idleMediaSql(db).listIdleMediaVersionIdByBlobKey.all(blob_key) as {
      version_id: string;
    }[];
    db.transaction(() => {
      for (const { version_id } of ids) {
        idleMediaSql(db).markIdleMediaMissing.run(version_id);
        avatarSql(db).markAvatarAssetsMissingByVersionId.run(version_id);
      }
    })();
  }
}

/**
 * At start: queue every current version whose idle media is not ready (new data dirs:
 * the stock catalog; after a restart: builds cut short). Interrupted `building` rows go
 * back to `missing` first.
 */
export function resumeIdleMedia(ctx: EmulatorContext): void {
  const { db } = ctx;
  idleMediaSql(db).markBuildingIdleMediaMissing.run();
  staleFormatToMissing(ctx);
  avatarSql(db).markBuildingAvatarAssetsMissing.run();
  const rows = avatarSql(db).listAvatarsWithoutReadyIdleMedia.all() as { id: string }[];
  const worker = idleMediaFor(ctx);
  for (const r of rows) worker.enqueue(r.id);
}
