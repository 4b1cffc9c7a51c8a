import { createHash } from 'node:crypto';
import { STOCK_WORKSPACE_ID } from '../../contract/resources/avatar.js';
import type { EmulatorContext } from '../context.js';
import { loadPersonas, type Persona } from '../gallery/personas.js';
import { personaBlobKey } from './blobs.js';
import { avatarSql } from './sql.js';

/** Namespace of the emulator's name-based ids (RFC 9562 v5 = SHA-1 of namespace + name). */
const NAMESPACE = '5b1e2c9a-7d3f-4f0e-9a51-2c7f0b6d4e11';

/** A deterministic RFC 9562 version-5 UUID of `name`, so stock ids survive restarts. */
export function uuidV5(name: string, namespace = NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const h = createHash('sha1').update(ns).update(name, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Ids of stock personas, computed once each (a SHA-1 per mint otherwise); any name works, few are kept. */
const stockIds = new Map<string, string>();
function memoV5(name: string): string {
  let id = stockIds.get(name);
  if (id === undefined) {
    id = uuidV5(name);
    if (stockIds.size < 1024) stockIds.set(name, id);
  }
  return id;
}

export const stockAvatarId = (persona: string) => memoV5(`avatar:${persona}`);
export const stockVersionId = (persona: string) => memoV5(`avatar-version:${persona}:1`);

/** The stock avatar of a persona key, or undefined. */
export function personaOf(ctx: EmulatorContext, key: string): Persona | undefined {
  return loadPersonas(ctx.fixturesDir).get(key);
}

/**
 * Seed every stock persona as an avatar of `ws_stock` (kind `stock`) with one published
 * version based on the persona (spec 4.7 `source_persona`). Idempotent: existing rows,
 * being immutable versions, are left as they are. Returns the version ids seeded.
 */
export function seedStockAvatars(ctx: EmulatorContext): string[] {
  const { db } = ctx;
  const personas = loadPersonas(ctx.fixturesDir).list;
  const now = 0; // fixed: the stock catalog predates every workspace, and stays stable
  const insertAvatar = avatarSql(db).insertAvatarsIfAbsent;
  const insertVersion = avatarSql(db).insertAvatarVersionsIfAbsent;
  // Data dirs made before stock personas had a backstory get it too (stock rows are read-only).
  const fillBackstory = avatarSql(db).setAvatarVersionsBackstoryById;
  db.transaction(() => {
    for (const p of personas) {
      const id = stockAvatarId(p.id);
      const vid = stockVersionId(p.id);
      insertAvatar.run(id, STOCK_WORKSPACE_ID, p.name, vid, now, now);
      insertVersion.run(
        vid,
        id,
        personaBlobKey(p.id, 'face.png'),
        p.systemPrompt,
        p.backstory ?? null,
        p.blurb,
        p.voiceLang,
        p.id,
        now,
        now,
      );
      if (p.backstory) fillBackstory.run(p.backstory, vid);
    }
  })();
  return personas.map((p) => stockVersionId(p.id));
}
