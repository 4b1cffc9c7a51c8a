import { EmbeddingsBody } from '../../../contract/resources/inference.js';
import { charCount } from '../../../contract/limits.js';
import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { embed, toBase64 } from '../tasks/embedding.js';
import { countTokens } from '../tasks/text.js';
import { invalid } from '../shared/errors.js';
import { inferenceRoute, json, readJson, validate } from '../shared/route.js';
import { forward, resolveModel } from './resolve.js';

const Body = EmbeddingsBody;

/** Spec 4.12 POST /compat-a/v1/embeddings (token-id arrays are not accepted: ours). */
export function registerEmbeddings(app: App, svc: InferenceServices): void {
  inferenceRoute(app, svc, inference.embeddings, async ({ c, usage }) => {
    const raw = await readJson(c);
    const rawModel = (raw as { model?: unknown } | null)?.model;
    const target = resolveModel(svc, rawModel, 'embedding');
    if (target.kind === 'upstream')
      return forward(target.upstream, '/embeddings', { json: raw as Record<string, unknown> });
    const body = validate(Body, raw);
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (inputs.some((s) => charCount(s) > 100_000))
      throw invalid('input: each text is at most 100,000 characters', 'input');
    const tokens = inputs.reduce((s, t) => s + countTokens(t), 0);
    usage.modelId = target.model.id;
    usage.promptTokens = tokens;
    return json({
      object: 'list',
      data: inputs.map((text, index) => {
        const v = embed(text, body.dimensions);
        return {
          object: 'embedding',
          index,
          embedding: body.encoding_format === 'base64' ? toBase64(v) : v,
        };
      }),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });
}
