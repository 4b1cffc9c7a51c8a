/**
 * The parts a box runs with by default, and the flags that swap them (spec 4.6 turn loop;
 * docs/edge.md): `--llm-url` + `--llm-model` (key from AVATAR_LLM_API_KEY) for the brain,
 * `--asr-url` for the recognizer. Shared by the emulator's in-process boxes and
 * `avatar edge start`.
 */
import { createBrain } from '../models/brain/index.js';
import type { Recognizer } from '../models/index.js';
import { defaultVoice } from '../models/voice/index.js';
import { webrtcVadFactory } from './fvad.js';
import { sessionMedia, sessionVoiceShape } from './media-part.js';
import type { EdgeParts } from './session/parts.js';

export interface PartsFlags {
  asrUrl?: string | null;
  llmUrl?: string | null;
  llmModel?: string | null;
  /** The upstream's key (from the environment, never a flag: it would show in `ps`). */
  llmApiKey?: string | null;
}

/** Interim recognizer: honest, recognises nothing. */
const honestRecognizer: Recognizer = {
  name: 'none',
  available: false,
  transcribe: () => Promise.resolve({ text: '[speech not recognised: no speech recogniser is installed]', recognised: false }),
};

export async function defaultParts(flags: PartsFlags = {}): Promise<EdgeParts> {
  const brain = createBrain({
    ...(flags.llmUrl ? { llmUrl: flags.llmUrl } : {}),
    ...(flags.llmModel ? { llmModel: flags.llmModel } : {}),
    ...(flags.llmApiKey ? { apiKey: flags.llmApiKey } : {}),
  });
  return { brain, recognizer: honestRecognizer, vad: await webrtcVadFactory(), voice: defaultVoice(), media: sessionMedia, voiceShape: sessionVoiceShape };
}
