/**
 * Which voice speaks a reply (issue 30 item 4; docs/media.md "Which voice speaks what"):
 *
 * - `languageVoice`: text in English (or in a language nobody here speaks) goes to flite;
 *   text in a language espeak-ng has a voice for goes to espeak-ng when it is installed. The
 *   language is the text's own when it tells (its script, else its stopwords: a French
 *   session's English name stays English, a Chinese sentence is Chinese whatever was asked),
 *   else the one the reply was asked in. espeak-ng failing, flite says it, marked `fallback`
 *   so the speech cache does not keep it (the next time espeak-ng is asked again).
 * - `upstreamFirst`: with `--tts-url`, every sentence is asked of the upstream first; when it
 *   fails (down, 5xx, a timeout, a body that is not audio) the sentence is spoken by the local
 *   voice above and one log line says why, so the turn is still answered, in text and in sound.
 */
import { languageCode } from '../brain/language.js';
import { textLanguage } from '../brain/text-language.js';
import type { Speech, SynthesizeOptions, Voice } from '../voice.js';
import type { EspeakVoice } from './espeak.js';

export function languageVoice(
  english: Voice,
  system: Pick<EspeakVoice, 'voiceFor' | 'synthesize'> | null,
  log: (line: string) => void = () => {},
): Voice {
  return {
    name: english.name,
    voices: english.voices,
    async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
      const lang = textLanguage(text) ?? languageCode(opts.lang);
      if (!system || !lang || lang === 'en' || !system.voiceFor(lang))
        return english.synthesize(text, opts);
      try {
        return await system.synthesize(text, { ...opts, lang });
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        log(`espeak-ng failed (${(e as Error).message}); this sentence is read by flite`);
        return { ...(await english.synthesize(text, opts)), fallback: true };
      }
    },
  };
}

export function upstreamFirst(upstream: Voice, local: Voice, log: (line: string) => void): Voice {
  return {
    name: upstream.name,
    voices: local.voices,
    async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
      try {
        return await upstream.synthesize(text, opts);
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        log(
          `--tts-url failed: ${(e as Error).message}; this sentence is spoken by the local voice`,
        );
        return { ...(await local.synthesize(text, opts)), fallback: true };
      }
    },
  };
}
