import type { Brain } from '../../../models/brain.js';
import type { Recognizer } from '../../../models/recognizer.js';
import type { Vad } from '../../../models/vad.js';
import type { Voice } from '../../../models/voice.js';

/**
 * The pluggable parts the inference family answers with: the SAME Brain, Voice,
 * Recognizer and VAD the edge uses (ARCHITECTURE property 5). A part that is not
 * available makes its model answer 503 `model_unavailable` with what to install.
 */
export interface LocalModels {
  brain: Brain | null;
  voice: Voice | null;
  recognizer: Recognizer | null;
  /** A fresh VAD per transcription (it keeps state). */
  vad: (() => Vad) | null;
}

/**
 * An OpenAI-compatible upstream standing in for one model id (option
 * `inferenceUpstreams`): requests for that model are forwarded to `${baseUrl}/<path>`
 * with `model` replaced by `model` when given.
 */
export interface Upstream {
  baseUrl: string;
  apiKey?: string;
  model?: string;
}

export function emptyModels(): LocalModels {
  return { brain: null, voice: null, recognizer: null, vad: null };
}
