/**
 * A box's own captures, for the control plane only (docs/edge.md "Recording"): a box in
 * another process (`avatar edge start --data DIR`) writes `recording: true` sessions under
 * its own `<DIR>/captures/<session_id>/`, which the control plane cannot read from disk; it
 * asks here and serves the operator's `/_emulator/sessions/{id}/recordings` from the answer.
 * Authenticated like the rest of `/_box/...`: the callback secret the box gave at
 * registration. DELETE erases them (spec 3: deleting a session erases its captured media).
 */
import { toRouterPath } from '../../contract/operation.js';
import { edgeCapture, edgeCaptures, edgeCapturesDelete } from '../../contract/operations/boxes.js';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';

const FILES: Record<string, string> = { 'mic.wav': 'audio/wav', 'video.mp4': 'video/mp4' };
const SESSION_ID = /^[0-9a-f-]{36}$/i;

export function registerCaptures(
  app: Hono,
  captureRoot: string | null,
  fromControlPlane: (auth: string | undefined) => boolean,
): void {
  const dirOf = (id: string): string | { error: string; message: string } => {
    if (!captureRoot)
      return { error: 'not_found', message: 'this box records nothing (started without --data)' };
    if (!SESSION_ID.test(id))
      return { error: 'not_found', message: `no captures for session ${id} on this box` };
    const dir = join(captureRoot, id);
    return existsSync(dir)
      ? dir
      : { error: 'not_found', message: `no captures for session ${id} on this box` };
  };

  app.get(toRouterPath(edgeCaptures.path), (c) => {
    if (!fromControlPlane(c.req.header('authorization')))
      return c.json({ error: 'unauthorized', message: 'control plane only' }, 401);
    const dir = dirOf(c.req.param('id') ?? '');
    if (typeof dir !== 'string') return c.json(dir, 404);
    const data = readdirSync(dir)
      .filter((name) => name in FILES)
      .map((name) => ({ name, bytes: statSync(join(dir, name)).size }));
    return c.json({ session_id: c.req.param('id') ?? '', data });
  });

  app.get(toRouterPath(edgeCapture.path), (c) => {
    if (!fromControlPlane(c.req.header('authorization')))
      return c.json({ error: 'unauthorized', message: 'control plane only' }, 401);
    const dir = dirOf(c.req.param('id') ?? '');
    if (typeof dir !== 'string') return c.json(dir, 404);
    const name = c.req.param('name') ?? '';
    if (!(name in FILES) || !existsSync(join(dir, name)))
      return c.json({ error: 'not_found', message: `no capture ${name}` }, 404);
    return c.body(new Uint8Array(readFileSync(join(dir, name))), 200, {
      'content-type': FILES[name]!,
    });
  });

  app.delete(toRouterPath(edgeCapturesDelete.path), (c) => {
    if (!fromControlPlane(c.req.header('authorization')))
      return c.json({ error: 'unauthorized', message: 'control plane only' }, 401);
    const dir = dirOf(c.req.param('id') ?? '');
    if (typeof dir === 'string') rmSync(dir, { recursive: true, force: true });
    return c.json({ ok: true });
  });
}
