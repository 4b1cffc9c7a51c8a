import { unixSeconds } from '../../clock.js';
import { toRouterPath } from '../../../contract/operation.js';
import { media as mediaOp } from '../../../contract/operations/inference.js';
import type { App, EmulatorContext } from '../../context.js';
import { errorResponse, InferenceError } from './errors.js';
import { inferenceSql } from './sql.js';

/**
 * Generated images and audio referenced by URL (`data: [{ url }]`, job results). The URL is
 * a capability (an unguessable id), public like a CDN link, and expires after one hour as
 * the spec's built-in image URLs do (spec 8).
 */
export const MEDIA_TTL_S = 3600;

const DATA_URL = /^data:[\w/+.-]+;base64,(.*)$/s;
const MEDIA_URL = /\/inference\/media\/([0-9a-f-]{36})(\.[a-z0-9]+)?$/;

/** Whether a URL could name media this emulator serves (it may still have expired). */
export const isLocalMediaUrl = (url: string): boolean => DATA_URL.test(url) || MEDIA_URL.test(url);

export class MediaStore {
  constructor(private readonly ctx: EmulatorContext) {}

  save(orgId: string, bytes: Uint8Array, contentType: string): string {
    const id = this.ctx.ids.uuid();
    const now = unixSeconds(this.ctx.clock);
    inferenceSql(this.ctx.db).insertInferenceMedia.run(
      id,
      orgId,
      contentType,
      Buffer.from(bytes),
      now,
      now + MEDIA_TTL_S,
    );
    return `${String(this.ctx.options.baseUrl ?? '')}/inference/media/${id}${extension(contentType)}`;
  }

  /** Bytes behind a URL this emulator served (or a `data:` URL); null for anything else. */
  fetchLocal(url: string): Uint8Array | null {
    const data = DATA_URL.exec(url);
    if (data) return new Uint8Array(Buffer.from(data[1]!, 'base64'));
    const m = MEDIA_URL.exec(url);
    if (!m) return null;
    const row = inferenceSql(this.ctx.db).getInferenceMediaById.get(m[1]) as
      | { bytes: Buffer; expires_at: number }
      | undefined;
    return row && row.expires_at > unixSeconds(this.ctx.clock) ? new Uint8Array(row.bytes) : null;
  }

  register(app: App): void {
    app.get(toRouterPath(mediaOp.path), (c) => {
      const id = (c.req.param('file') ?? '').replace(/\.[a-z0-9]+$/, '');
      const row = inferenceSql(this.ctx.db).getInferenceMediaWithTypeById.get(id) as
        | { content_type: string; bytes: Buffer; expires_at: number }
        | undefined;
      if (!row || row.expires_at <= unixSeconds(this.ctx.clock)) {
        return errorResponse(
          new InferenceError(
            404,
            'not_found',
            'media not found or expired (media URLs last one hour)',
          ),
        );
      }
      return new Response(new Uint8Array(row.bytes), {
        headers: {
          'content-type': row.content_type,
          'content-length': String(row.bytes.length),
          'cache-control': 'private, max-age=3600',
        },
      });
    });
  }
}

function extension(type: string): string {
  return (
    {
      'image/png': '.png',
      'audio/wav': '.wav',
      'audio/mpeg': '.mp3',
      'audio/ogg': '.opus',
      'audio/flac': '.flac',
      'audio/aac': '.aac',
    }[type] ?? ''
  );
}
