import type { Context } from 'hono';
import { readBodyLimited } from '../../../server/body.js';
import { invalid } from '../shared/errors.js';

/** A multipart form read within a byte limit, keeping the raw bytes (for an upstream). */
export interface Form {
  data: FormData;
  raw: Uint8Array;
  contentType: string;
}

export async function readForm(c: Context, maxBytes: number): Promise<Form> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw invalid('send multipart/form-data (fields and a file)');
  }
  const raw = await readBodyLimited(c, maxBytes);
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
