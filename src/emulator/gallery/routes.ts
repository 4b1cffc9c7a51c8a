import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import rangeParser from 'range-parser';
import { galleryFace, galleryIntro, listGallery } from '../../contract/operations/core.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement } from '../http/router.js';
import { loadPersonas, toGalleryEntry } from './personas.js';

/** Serve bytes honouring a single `Range` (RFC 9110): 206 with Content-Range, or 416. */
export function serveBytes(rangeHeader: string | undefined, bytes: Buffer, type: string): Response {
  const base = {
    'Content-Type': type,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'public, max-age=3600',
  };
  if (!rangeHeader) {
    return new Response(new Uint8Array(bytes), {
      status: 200,
      headers: { ...base, 'Content-Length': String(bytes.length) },
    });
  }
  const ranges = rangeParser(bytes.length, rangeHeader, { combine: true });
  if (ranges === -1) {
    return new Response(null, {
      status: 416,
      headers: { ...base, 'Content-Range': `bytes */${bytes.length}` },
    });
  }
  // -2 (malformed) and multi-range requests are answered with the whole body, as RFC 9110 allows.
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) {
    return new Response(new Uint8Array(bytes), {
      status: 200,
      headers: { ...base, 'Content-Length': String(bytes.length) },
    });
  }
  const { start, end } = ranges[0]!;
  const part = bytes.subarray(start, end + 1);
  return new Response(new Uint8Array(part), {
    status: 206,
    headers: {
      ...base,
      'Content-Length': String(part.length),
      'Content-Range': `bytes ${start}-${end}/${bytes.length}`,
    },
  });
}

export function registerGallery(app: App, ctx: EmulatorContext): void {
  const personas = loadPersonas(ctx.fixturesDir);
  const cache = new Map<string, Buffer>();
  const file = (path: string) => {
    let b = cache.get(path);
    if (!b) cache.set(path, (b = readFileSync(path)));
    return b;
  };
  const persona = (id: string) => {
    const p = personas.get(id);
    if (!p) throw new ApiError(404, 'not_found', { message: `persona ${id} not found` });
    return p;
  };

  implement(app, ctx, listGallery, () => ({ avatars: personas.list.map(toGalleryEntry) }));

  implement(app, ctx, galleryFace, ({ params, c }) =>
    serveBytes(
      c.req.header('range'),
      file(join(personas.dir(persona(params.id).id), 'face.png')),
      'image/png',
    ),
  );

  // spec 4.1: an unsupported lang falls back to `en`.
  implement(app, ctx, galleryIntro, ({ params, query, c }) => {
    const p = persona(params.id);
    if (p.languages.length === 0)
      throw new ApiError(404, 'not_found', { message: `persona ${p.id} has no intro` });
    const lang =
      query.lang && p.languages.includes(query.lang)
        ? query.lang
        : p.languages.includes('en')
          ? 'en'
          : p.languages[0]!;
    return serveBytes(
      c.req.header('range'),
      file(join(personas.dir(p.id), `intro-${lang}.mp4`)),
      'video/mp4',
    );
  });
}
