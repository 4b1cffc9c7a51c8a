import { charCount } from '../../../contract/limits.js';
import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { embed, toBase64 } from '../tasks/embedding.js';
import { countTokens } from '../tasks/text.js';
import { invalid } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { localModel, passToUpstream } from './resolve.js';

/** Spec 4.12 POST /compat-a/v1/embeddings (token-id arrays are not accepted: ours). */
export function registerEmbeddings(app: App, svc: InferenceServices): void {
  implementInference(
    app,
    svc,
    inference.embeddings,
    async ({ body, auth: { usage } }) => {
      const target = { model: localModel(svc, body.model, 'embedding') };
      const inputs = typeof body.input === 'string' ? [body.input] : body.input;
      if (inputs.some((s) => charCount(s) > 100_000))
        throw invalid('input: each text is at most 100,000 characters', 'input');
      const tokens = inputs.reduce((s, t) => s + countTokens(t), 0);
      usage.modelId = target.model.id;
      usage.promptTokens = tokens;
      return {
        object: 'list' as const,
        data: inputs.map((text, index) => {
          const v = embed(text, body.dimensions);
          return {
            object: 'embedding' as const,
            index,
            embedding: body.encoding_format === 'base64' ? toBase64(v) : v,
          };
        }),
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    },
    { before: passToUpstream(svc, 'embedding', '/embeddings') },
  );
}
