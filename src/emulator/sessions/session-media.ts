/**
 * A session's avatar media for its box (spec 4.7: "the token tells the box where to fetch
 * the media"): the blob keys the mint froze in the snapshot. The idle loop may have
 * finished building after the mint; a version is immutable, so its loop is read then.
 */
import { readBlob } from '../avatars/blobs.js';
import type { EmulatorContext } from '../context.js';
import type { SessionRow } from './store.js';
import { idleMediaSql } from '../idle-media/sql.js';

export function sessionMedia(
  ctx: EmulatorContext,
  row: SessionRow,
  kind: 'face' | 'idle' | 'voice',
): Buffer | null {
  const snap = row.snapshot_json
    ? (JSON.parse(row.snapshot_json) as {
        avatar?: { version_id?: string; media?: Record<string, string | null> };
      })
    : null;
  let key = snap?.avatar?.media?.[kind] ?? null;
  if (!key && kind === 'idle' && snap?.avatar?.version_id) {
    const r = idleMediaSql(ctx.db).getReadyIdleMediaBlobKey.get(snap.avatar.version_id) as
      | { blob_key: string }
      | undefined;
    key = r?.blob_key ?? null;
  }
  return key ? readBlob(ctx, key) : null;
}
