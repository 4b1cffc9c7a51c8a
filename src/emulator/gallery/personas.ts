import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GalleryEntry } from '../../contract/resources/gallery.js';

/** A stock persona as shipped in fixtures/personas (spec 2: stock persona gallery entry). */
export interface Persona {
  id: string;
  name: string;
  tagline: string;
  blurb: string;
  accent: string;
  voiceLang: string;
  /** espeak-ng voice used by the renderer. */
  voice: string;
  /** Intro clip languages present as intro-<lang>.mp4. */
  languages: string[];
  style: Record<string, string>;
  systemPrompt: string;
  /** What the persona knows about itself: the stock version's backstory (the brain answers from it). */
  backstory?: string;
}

export interface PersonaCatalog {
  list: Persona[];
  get(id: string): Persona | undefined;
  dir(id: string): string;
}

const catalogs = new Map<string, PersonaCatalog>();

/**
 * The stock catalog of a fixtures dir. Fixtures are files of the package that never
 * change while it runs, so each dir is read once (mints resolve personas on the hot path).
 */
export function loadPersonas(fixturesDir: string): PersonaCatalog {
  let catalog = catalogs.get(fixturesDir);
  if (!catalog) catalogs.set(fixturesDir, (catalog = readCatalog(fixturesDir)));
  return catalog;
}

function readCatalog(fixturesDir: string): PersonaCatalog {
  const root = join(fixturesDir, 'personas');
  const { personas } = JSON.parse(readFileSync(join(root, 'personas.json'), 'utf8')) as {
    personas: Persona[];
  };
  const byId = new Map(personas.map((p) => [p.id, p]));
  return { list: personas, get: (id) => byId.get(id), dir: (id) => join(root, id) };
}

export function toGalleryEntry(p: Persona): GalleryEntry {
  return {
    id: p.id,
    name: p.name,
    tagline: p.tagline,
    blurb: p.blurb,
    accent: p.accent,
    voiceLang: p.voiceLang,
    poster: `/api/gallery/${p.id}/face`,
    hasIntro: p.languages.length > 0,
  };
}
