import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { EmulatorContext } from '../context.js';
import { DIR_MODE, FILE_MODE } from '../../edge/private-files.js';

/**
 * Blobs (face images, voice samples, idle clips) live as files under the data dir's
 * `blobs/` (spec 4.7: `image_blob_key`). Keys are relative paths chosen by the emulator.
 * The `persona/<id>/...` prefix names the shipped stock fixtures, read-only.
 */
const PERSONA_PREFIX = 'persona/';

/** Resolved roots, by the directory named (a few per process: resolved once, not per mint). */
const roots = new Map<string, string>();
const rootOf = (dir: string): string => {
  let r = roots.get(dir);
  if (r === undefined) roots.set(dir, (r = resolve(dir)));
  return r;
};

/**
 * The file of a blob key. Keys are built by the emulator from validated ids, but the
 * resolved path is still checked to stay inside its root (blobs/, or the persona
 * fixtures), so no key can ever name a file elsewhere.
 */
export function blobPath(ctx: EmulatorContext, key: string): string {
  const persona = key.startsWith(PERSONA_PREFIX);
  const root = persona ? rootOf(join(ctx.fixturesDir, 'personas')) : rootOf(ctx.blobDir);
  const path = resolve(root, persona ? key.slice(PERSONA_PREFIX.length) : key);
  if (isAbsolute(key) || key.includes('\0') || !path.startsWith(root + sep))
    throw new Error(`bad blob key ${key}`);
  return path;
}

export const personaBlobKey = (persona: string, file: string) =>
  `${PERSONA_PREFIX}${persona}/${file}`;

/** Write a blob (write-then-commit: the row naming it is updated after this returns). */
export function putBlob(ctx: EmulatorContext, key: string, bytes: Uint8Array): void {
  const path = blobPath(ctx, key);
  mkdirSync(dirname(path), { recursive: true, mode: DIR_MODE });
  writeFileSync(path, bytes, { mode: FILE_MODE });
}

export function readBlob(ctx: EmulatorContext, key: string): Buffer | null {
  const path = blobPath(ctx, key);
  return existsSync(path) ? readFileSync(path) : null;
}

export const extensionOf: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
};
