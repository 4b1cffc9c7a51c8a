/**
 * The parts a box runs with by default, and the flags that swap them (spec 4.6 turn loop;
 * docs/edge.md): `--llm-url` + `--llm-model` (key from AVATAR_LLM_API_KEY) for the brain,
 * `--asr-url` for the recognizer, `--tts-url` (key from AVATAR_TTS_API_KEY) for the voice.
 * Shared by the emulator's in-process boxes and `avatar edge start`.
 */
import { checkHttpUrl, createBrain } from '../models/brain/index.js';
import { languageCode } from '../models/brain/language.js';
import { createRecognizer } from '../models/recognizer/index.js';
import { createWebRtcVad } from '../models/vad/index.js';
import {
  cachedDefaultVoice,
  ESPEAK_INSTALL,
  OpenAIVoice,
  systemVoice,
  upstreamFirst,
  warmFlite,
} from '../models/voice/index.js';
import { sessionMedia, sessionVoiceShape } from './media-part.js';
import type { EdgeParts } from './session/parts.js';
import { warmTypedLanguage } from './session/typed-language.js';

export interface PartsFlags {
  asrUrl?: string | null;
  llmUrl?: string | null;
  llmModel?: string | null;
  /** The upstream's key (from the environment, never a flag: it would show in `ps`). */
  llmApiKey?: string | null;
  /** OpenAI-compatible `/audio/speech` base URL every reply is spoken by (docs/media.md). */
  ttsUrl?: string | null;
  /** Its key (AVATAR_TTS_API_KEY). */
  ttsApiKey?: string | null;
  /** Where the parts' notices go (the emulator's log; default stderr). */
  log?: (line: string) => void;
}

export async function defaultParts(flags: PartsFlags = {}): Promise<EdgeParts> {
  const brain = createBrain({
    ...(flags.llmUrl ? { llmUrl: flags.llmUrl } : {}),
    ...(flags.llmModel ? { llmModel: flags.llmModel } : {}),
    ...(flags.llmApiKey ? { apiKey: flags.llmApiKey } : {}),
  });
  const recognizer = createRecognizer(flags.asrUrl ? { asrUrl: flags.asrUrl } : {});
  const log = flags.log ?? ((line: string) => process.stderr.write(`[edge] ${line}\n`));
  const local = cachedDefaultVoice();
  let voice = local;
  if (flags.ttsUrl) {
    checkHttpUrl('--tts-url', flags.ttsUrl);
    const upstream = new OpenAIVoice({
      url: flags.ttsUrl,
      ...(flags.ttsApiKey ? { apiKey: flags.ttsApiKey } : {}),
    });
    voice = { ...upstreamFirst(upstream, local, log), stats: local.stats };
  } else if (!systemVoice())
    log(
      `espeak-ng is not installed: replies in languages other than English are read by flite's English voice (\`${ESPEAK_INSTALL}\` to speak them; docs/media.md)`,
    );
  // Compile flite on its worker threads now: a box's first reply must not wait ~1 s for it.
  warmFlite();
  // The typed-language detector loads (~0.6 s) now, not on a box's first /chat.
  void warmTypedLanguage();
  return {
    brain,
    recognizer,
    vad: () => createWebRtcVad(),
    voice,
    media: sessionMedia,
    voiceShape: sessionVoiceShape,
    ...(flags.asrUrl ? {} : { opened: recognitionNotice(log) }),
  };
}

/**
 * Once per language (per set of parts, i.e. per emulator or edge process): a session in a
 * language other than English starts while speech is recognised locally, in English only
 * (pocketsphinx), so the log says what recognises that language (docs/media.md).
 */
export function recognitionNotice(log: (line: string) => void): EdgeParts['opened'] {
  const told = new Set<string>();
  return (snapshot) => {
    const lang = languageCode(snapshot.responseLanguage ?? snapshot.avatar.language);
    if (!lang || lang === 'en' || told.has(lang)) return;
    told.add(lang);
    log(
      `a session in "${lang}" started: speech in "${lang}" is not recognised here (the local recogniser knows English only); start with --asr-url <OpenAI-compatible /audio/transcriptions URL> to recognise it (typed /chat turns are answered in "${lang}" either way)`,
    );
  };
}
