import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { idleMediaFor } from '../idle-media/worker.js';
import { avatarSql } from './sql.js';

/**
 * Publish a version: it becomes the avatar's `current_version_id` and usable by mints
 * (docs/avatars.md "When a version is published"). The idle loop is queued for the
 * background builder; `assets_status` restarts at `missing` for the new face.
 * Publishing is idempotent for the version's `published_at` (the first time is kept).
 */
export function publishVersion(ctx: EmulatorContext, avatarId: string, versionId: string): void {
  const now = unixSeconds(ctx.clock);
  ctx.db.transaction(() => {
    avatarSql(ctx.db).setAvatarVersionsPublishedAtById.run(now, versionId);
    avatarSql(ctx.db).publishAvatarVersion.run(versionId, now, versionId, avatarId);
  })();
  idleMediaFor(ctx).enqueue(versionId, true);
}
