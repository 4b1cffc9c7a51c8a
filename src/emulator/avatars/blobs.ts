import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { EmulatorContext } from '../context.js';

/**
 * Blobs (face images, voice samples, idle clips) live as files under the data dir's
 * `blobs/` (spec 4.7: `image_blob_key`). Keys are relative paths chosen by the emulator.
 * The `persona/<id>/...` prefix names the shipped stock fixtures, read-only.
 */
const PERSONA_PREFIX = 'persona/';

export function blobPath(ctx: EmulatorContext, key: string): string {
  const safe = normalize(key);
  if (safe.startsWith('..') || safe.startsWith('/')) throw new Error(`bad blob key ${key}`);
  if (key.startsWith(PERSONA_PREFIX)) return join(ctx.fixturesDir, 'personas', key.slice(PERSONA_PREFIX.length));
  return join(ctx.blobDir, safe);
}

export const personaBlobKey = (persona: string, file: string) => `${PERSONA_PREFIX}${persona}/${file}`;

/** Write a blob (write-then-commit: the row naming it is updated after this returns). */
export function putBlob(ctx: EmulatorContext, key: string, bytes: Uint8Array): void {
  const path = blobPath(ctx, key);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
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
