/**
 * The control plane reading a box's captures over the internal box API (docs/edge.md
 * "Recording"): a box in another process keeps `recording: true` captures in its own
 * `--data` dir and serves them on `/_box/sessions/{id}/captures` to the callback secret it
 * registered with (src/edge/box/captures-route.ts). Each answer says what went wrong in
 * words an operator can act on.
 */
import { request } from 'undici';
import { z } from 'zod';
import type { BoxRecord } from './fleet.js';

const TIMEOUT_MS = 5000;

export type BoxAnswer<T> = { ok: true; value: T } | { ok: false; why: string };

const Listing = z.object({
  data: z.array(z.object({ name: z.string(), bytes: z.number().int().min(0) })),
});

async function get(box: BoxRecord, path: string) {
  const res = await request(`${box.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${box.callbackSecret ?? ''}` },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type'] ?? ''),
    bytes: Buffer.from(await res.body.arrayBuffer()),
  };
}

/** Why a box cannot be asked, or null when it can. */
export function boxGone(box: BoxRecord | undefined, boxId: string): string | null {
  if (!box) return `box ${boxId}, which captured it, is not known to this control plane`;
  if (!box.live)
    return `box ${box.id}, which captured it, is gone (deregistered); start it again with the same --data dir, or read <data>/captures/ on its machine`;
  if (!box.callbackSecret)
    return `box ${box.id}, which captured it, did not register a callback secret to be asked with`;
  return null;
}

async function ask<T>(
  box: BoxRecord,
  path: string,
  read: (r: Awaited<ReturnType<typeof get>>) => T | null,
): Promise<BoxAnswer<T>> {
  try {
    const r = await get(box, path);
    if (r.status === 404)
      return { ok: false, why: `box ${box.id} has none: ${messageOf(r.bytes)}` };
    const v = r.status === 200 ? read(r) : null;
    return v === null
      ? { ok: false, why: `box ${box.id} answered ${r.status} instead of its captures` }
      : { ok: true, value: v };
  } catch (e) {
    return {
      ok: false,
      why: `box ${box.id} at ${box.baseUrl} did not answer (${(e as Error).message})`,
    };
  }
}

function messageOf(bytes: Buffer): string {
  try {
    return String((JSON.parse(bytes.toString()) as { message?: unknown }).message ?? 'not found');
  } catch {
    return 'not found';
  }
}

export function boxCaptureList(
  box: BoxRecord,
  sessionId: string,
): Promise<BoxAnswer<{ name: string; bytes: number }[]>> {
  return ask(box, `/_box/sessions/${encodeURIComponent(sessionId)}/captures`, (r) => {
    try {
      const l = Listing.safeParse(JSON.parse(r.bytes.toString()));
      return l.success ? l.data.data : null;
    } catch {
      return null;
    }
  });
}

export function boxCaptureFile(
  box: BoxRecord,
  sessionId: string,
  name: string,
): Promise<BoxAnswer<Buffer>> {
  return ask(
    box,
    `/_box/sessions/${encodeURIComponent(sessionId)}/captures/${encodeURIComponent(name)}`,
    (r) => r.bytes,
  );
}

/** DELETE of a session (spec 3) erases its captures on the box too; best effort (a gone box keeps its files). */
export function eraseOnBox(box: BoxRecord | undefined, sessionId: string): void {
  if (!box?.live || !box.callbackSecret) return;
  request(`${box.baseUrl}/_box/sessions/${encodeURIComponent(sessionId)}/captures`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${box.callbackSecret}` },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  })
    .then((r) => r.body.dump())
    .catch(() => undefined);
}
