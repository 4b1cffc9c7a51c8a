/**
 * Picks the brain from the edge's and the inference family's flags:
 * `--llm-url` (+ `--llm-model`, key from AVATAR_LLM_API_KEY) -> OpenAIBrain, else the
 * deterministic LocalBrain. A malformed URL is refused here, at start-up, with the flag's
 * name, instead of on the first turn.
 */
import type { Brain } from '../brain.js';
import { LocalBrain } from './local.js';
import { OpenAIBrain } from './openai.js';

export { LocalBrain, composeReply } from './local.js';
export { OpenAIBrain, upstreamMessages } from './openai.js';
export { SentenceChunker, sentenceDeltas, wordDeltas } from './sentence-chunker.js';
export { countTokens } from './text.js';
export { resolveLanguage, languageCode } from './language.js';

export interface BrainOptions {
  /** `--llm-url`: base URL of an OpenAI-compatible API (`.../v1`) or its `/chat/completions`. */
  llmUrl?: string;
  /** `--llm-model`: the upstream model id. */
  llmModel?: string;
  /** Defaults to `env.AVATAR_LLM_API_KEY`. */
  apiKey?: string;
  /** Where the key is read from (default `process.env`). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  idleTimeoutMs?: number;
}

export function createBrain(opts: BrainOptions = {}): Brain {
  if (!opts.llmUrl) return new LocalBrain();
  checkHttpUrl('--llm-url', opts.llmUrl);
  const env = opts.env ?? process.env;
  return new OpenAIBrain({
    url: opts.llmUrl,
    model: opts.llmModel,
    apiKey: opts.apiKey ?? env.AVATAR_LLM_API_KEY,
    timeoutMs: opts.timeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
  });
}

import { checkHttpUrl } from '../check-url.js';
export { checkHttpUrl };
