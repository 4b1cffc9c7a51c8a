/**
 * The language a typed turn is written in (docs/edge.md "Reply language"): the mic `hello`
 * names the language the user speaks into the mic, but a typed message says its own. Told
 * by eld (n-gram language detection; its small database loads when a session opens);
 * null when the text is too short or mixed to tell reliably ("ok", "Hello").
 */
import { languageCode } from '../../models/brain/language.js';

type Eld = typeof import('eld/small')['eld'];
let loading: Promise<Eld> | null = null;

/** Load the detector now (~0.3 s once per process) so the first typed turn does not wait for it. */
export function warmTypedLanguage(): Promise<Eld> {
  return (loading ??= import('eld/small').then((m) => m.eld));
}

export async function typedLanguage(
  text: string,
  sessionTags: readonly (string | null)[],
): Promise<string | null> {
  const r = (await warmTypedLanguage()).detect(text);
  if (!r.language || !r.isReliable()) return null;
  // A tag the session already named for the same language keeps its region (`en-US`, `fr-CA`).
  for (const tag of sessionTags) if (tag && languageCode(tag) === r.language) return tag;
  return r.language;
}
