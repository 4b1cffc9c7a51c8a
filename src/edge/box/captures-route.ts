/**
 * A box's own captures, for the control plane only (docs/edge.md "Recording"): a box in
 * another process (`avatar edge start --data DIR`) writes `recording: true` sessions under
 * its own `<DIR>/captures/<session_id>/`, which the control plane cannot read from disk; it
 * asks here and serves the operator's `/_emulator/sessions/{id}/recordings` from the answer.
 * Authenticated like the rest of `/_box/...`: the callback secret the box gave at
 * registration (`fromControlPlane`). DELETE erases them (spec 3: deleting a session erases its captured media).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CAPTURE_FILES,
  edgeCapture,
  edgeCaptures,
  edgeCapturesDelete,
  isCaptureFile,
} from '../../contract/operations/boxes.js';
import { ApiError } from '../../server/api-error.js';
import { bind, type Family, type Routes } from '../../server/binder.js';

const SESSION_ID = /^[0-9a-f-]{36}$/i;

const noCaptures = (message: string) => new ApiError(404, 'not_found', { message });

export function registerCaptures(
  app: Routes,
  captureRoot: string | null,
  fromControlPlane: Family<null>,
): void {
  /** The session's capture directory, if it has one. */
  const dirOf = (id: string): string | null => {
    if (!captureRoot || !SESSION_ID.test(id)) return null;
    const dir = join(captureRoot, id);
    return existsSync(dir) ? dir : null;
  };
  const mustDir = (id: string): string => {
    if (!captureRoot) throw noCaptures('this box records nothing (started without --data)');
    const dir = dirOf(id);
    if (!dir) throw noCaptures(`no captures for session ${id} on this box`);
    return dir;
  };

  bind(app, fromControlPlane, edgeCaptures, ({ params }) => {
    const dir = mustDir(params.id);
    const data = readdirSync(dir)
      .filter(isCaptureFile)
      .map((name) => ({ name, bytes: statSync(join(dir, name)).size }));
    return { session_id: params.id, data };
  });

  bind(app, fromControlPlane, edgeCapture, ({ params, c }) => {
    const dir = mustDir(params.id);
    const name = params.name;
    if (!isCaptureFile(name) || !existsSync(join(dir, name)))
      throw noCaptures(`no capture ${name}`);
    return c.body(new Uint8Array(readFileSync(join(dir, name))), 200, {
      'content-type': CAPTURE_FILES[name]!,
    });
  });

  bind(app, fromControlPlane, edgeCapturesDelete, ({ params }) => {
    const dir = dirOf(params.id);
    if (dir) rmSync(dir, { recursive: true, force: true });
    return { ok: true };
  });
}
