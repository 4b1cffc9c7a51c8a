/**
 * Reply language (spec 4.5 `response_language`: "BCP-47 tag or display name; a preference,
 * not a lock"). Resolves a tag ("pt-BR"), an English name ("Portuguese") or a native name
 * ("português") to one of the languages the local brain's phrase table speaks; anything
 * else falls back to English, and `supported` says so.
 */
export const PHRASE_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'zh'] as const;
export type PhraseLanguage = (typeof PHRASE_LANGUAGES)[number];

export interface ResolvedLanguage {
  /** The language the reply is written in. */
  code: PhraseLanguage;
  /** The primary subtag that was asked for (lower case), or null when none was. */
  requested: string | null;
  /** false when a language was asked for that the phrase table lacks (the reply is English). */
  supported: boolean;
}

const names = new Map<string, string>();
function nameIndex(): Map<string, string> {
  if (names.size) return names;
  // Every ISO 639-1 code the runtime can name, under its English and its own name, so
  // "Japanese" or "日本語" resolve to `ja` (and then honestly fall back to English).
  const codes =
    'aa ab af ak am ar as ay az be bg bn bo br bs ca cs cy da de el en eo es et eu fa fi fo fr ga gl gu he hi hr hu hy id is it ja jv ka kk km kn ko ku ky la lb lo lt lv mg mi mk ml mn mr ms mt my nb ne nl nn no oc pa pl ps pt qu rm ro ru sa sd si sk sl so sq sr sv sw ta te tg th tk tl tr tt ug uk ur uz vi wo xh yi yo zh zu'.split(
      ' ',
    );
  const en = new Intl.DisplayNames(['en'], { type: 'language' });
  for (const c of codes) {
    const own = new Intl.DisplayNames([c], { type: 'language' });
    for (const n of [en.of(c), own.of(c)]) if (n) names.set(fold(n), c);
  }
  return names;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The primary language subtag of a tag or a display name, or null when unrecognisable. */
export function languageCode(input: string | null | undefined): string | null {
  if (!input || !input.trim()) return null;
  const s = input.trim();
  if (/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i.test(s)) {
    try {
      return new Intl.Locale(s.replace(/_/g, '-')).language.toLowerCase();
    } catch {
      /* not a well-formed tag: try it as a name */
    }
  }
  return nameIndex().get(fold(s)) ?? null;
}

export function resolveLanguage(input: string | null | undefined): ResolvedLanguage {
  const requested = languageCode(input);
  if (requested === null)
    return { code: 'en', requested: null, supported: !input || !input.trim() };
  const known = (PHRASE_LANGUAGES as readonly string[]).includes(requested);
  return { code: known ? (requested as PhraseLanguage) : 'en', requested, supported: known };
}
