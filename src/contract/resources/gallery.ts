import { z } from 'zod';
import { named } from '../registry.js';

export const GalleryEntrySchema = named(
  'GalleryEntry',
  z.object({
    id: z.string().describe('persona key'),
    name: z.string(),
    tagline: z.string(),
    blurb: z.string(),
    accent: z.string().describe('colour string'),
    voiceLang: z.string(),
    poster: z.string().describe('relative path of the face image'),
    hasIntro: z.boolean(),
  }),
);
export type GalleryEntry = z.infer<typeof GalleryEntrySchema>;

export const GalleryListSchema = z.object({ avatars: z.array(GalleryEntrySchema) });

export const IntroLang = z.string().optional().describe('en or zh; anything else falls back to en');
