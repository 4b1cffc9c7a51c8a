import type { Context } from 'hono';
import { tooLarge } from '../../../server/body.js';
import { invalid } from '../shared/errors.js';

/** A multipart form read within a byte limit, keeping the raw bytes (for an upstream). */
export interface Form {
  data: FormData;
  raw: Uint8Array;
  contentType: string;
}

/**
 * The multipart form of an operation with `rawBody` (the binder read its bytes within the
 * contract's limit); `maxBytes` is this route's own, smaller limit (413 past it).
 */
export async function readForm(c: Context, raw: Uint8Array, maxBytes: number): Promise<Form> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw invalid('send multipart/form-data (fields and a file)');
  }
  if (raw.byteLength > maxBytes) throw tooLarge(maxBytes);
  let data: FormData;
  try {
    data = await new Response(Buffer.from(raw), {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw invalid('malformed multipart/form-data body');
  }
  return { data, raw, contentType };
}

export function formString(f: Form, name: string): string | undefined {
  const v = f.data.get(name);
  return typeof v === 'string' ? v : undefined;
}

export async function formFile(
  f: Form,
  name: string,
): Promise<{ name: string; type: string; bytes: Uint8Array } | undefined> {
  const v = f.data.get(name);
  if (!v || typeof v === 'string') return undefined;
  return { name: v.name, type: v.type, bytes: new Uint8Array(await v.arrayBuffer()) };
}
