/**
 * The parts a box runs with by default, and the flags that swap them (spec 4.6 turn loop;
 * docs/edge.md): `--llm-url` + `--llm-model` (key from AVATAR_LLM_API_KEY) for the brain,
 * `--asr-url` for the recognizer. Shared by the emulator's in-process boxes and
 * `avatar edge start`.
 */
import type { Brain, Recognizer } from '../models/index.js';
import type { EdgeParts } from './session/parts.js';

export interface PartsFlags {
  asrUrl?: string | null;
  llmUrl?: string | null;
  llmModel?: string | null;
  /** The upstream's key (from the environment, never a flag: it would show in `ps`). */
  llmApiKey?: string | null;
}

/** Interim brain until src/models/brain lands: answers from the frozen backstory. */
const interimBrain: Brain = {
  name: 'interim',
  reply(req) {
    const last = req.messages[req.messages.length - 1]?.content ?? '';
    const backstory = req.persona?.backstory?.split(/(?<=[.!?])\s+/)[0];
    const text = backstory ? `${backstory} You said: ${last}` : `You said: ${last}`;
    return {
      deltas: (async function* () {
        yield text;
      })(),
      usage: Promise.resolve({ promptTokens: 0, completionTokens: text.split(/\s+/).length }),
    };
  },
};

/** Interim recognizer: honest, recognises nothing. */
const honestRecognizer: Recognizer = {
  name: 'none',
  available: false,
  transcribe: () => Promise.resolve({ text: '[speech not recognised: no speech recogniser is installed]', recognised: false }),
};

export async function defaultParts(_flags: PartsFlags = {}): Promise<EdgeParts> {
  return { brain: interimBrain, recognizer: honestRecognizer };
}
