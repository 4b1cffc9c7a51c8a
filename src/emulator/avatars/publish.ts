import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { idleMediaFor } from '../idle-media/worker.js';

/**
 * Publish a version: it becomes the avatar's `current_version_id` and usable by mints
 * (docs/avatars.md "When a version is published"). The idle loop is queued for the
 * background builder; `assets_status` restarts at `missing` for the new face.
 * Publishing is idempotent for the version's `published_at` (the first time is kept).
 */
export function publishVersion(ctx: EmulatorContext, avatarId: string, versionId: string): void {
  const now = unixSeconds(ctx.clock);
  ctx.db.transaction(() => {
    ctx.db
      .prepare('UPDATE avatar_versions SET published_at = COALESCE(published_at, ?) WHERE id = ?')
      .run(now, versionId);
    ctx.db
      .prepare(
        `UPDATE avatars SET current_version_id = ?, status = 'active', updated_at = ?,
           assets_status = COALESCE((SELECT status FROM idle_media WHERE version_id = ?), 'missing')
         WHERE id = ?`,
      )
      .run(versionId, now, versionId, avatarId);
  })();
  idleMediaFor(ctx).enqueue(versionId, true);
}
