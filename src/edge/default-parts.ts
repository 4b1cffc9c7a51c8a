/**
 * The parts a box runs with by default, and the flags that swap them (spec 4.6 turn loop;
 * docs/edge.md): `--llm-url` + `--llm-model` (key from AVATAR_LLM_API_KEY) for the brain,
 * `--asr-url` for the recognizer. Shared by the emulator's in-process boxes and
 * `avatar edge start`.
 */
import { createBrain } from '../models/brain/index.js';
import { createRecognizer } from '../models/recognizer/index.js';
import { createWebRtcVad } from '../models/vad/index.js';
import { cachedDefaultVoice, warmFlite } from '../models/voice/index.js';
import { sessionMedia, sessionVoiceShape } from './media-part.js';
import type { EdgeParts } from './session/parts.js';
import { warmTypedLanguage } from './session/typed-language.js';

export interface PartsFlags {
  asrUrl?: string | null;
  llmUrl?: string | null;
  llmModel?: string | null;
  /** The upstream's key (from the environment, never a flag: it would show in `ps`). */
  llmApiKey?: string | null;
}

export async function defaultParts(flags: PartsFlags = {}): Promise<EdgeParts> {
  const brain = createBrain({
    ...(flags.llmUrl ? { llmUrl: flags.llmUrl } : {}),
    ...(flags.llmModel ? { llmModel: flags.llmModel } : {}),
    ...(flags.llmApiKey ? { apiKey: flags.llmApiKey } : {}),
  });
  const recognizer = createRecognizer(flags.asrUrl ? { asrUrl: flags.asrUrl } : {});
  // Compile flite on its worker threads now: a box's first reply must not wait ~1 s for it.
  warmFlite();
  // The typed-language detector loads (~0.6 s) now, not on a box's first /chat.
  void warmTypedLanguage();
  return {
    brain,
    recognizer,
    vad: () => createWebRtcVad(),
    voice: cachedDefaultVoice(),
    media: sessionMedia,
    voiceShape: sessionVoiceShape,
  };
}
