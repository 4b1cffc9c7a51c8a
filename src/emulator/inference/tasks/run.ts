import { findModel } from '../catalog.js';
import { TaskError } from '../jobs/queue.js';
import type { JobRow } from '../jobs/store.js';
import type { InferenceServices } from '../services.js';
import { bm25Scores, relevance } from './bm25.js';
import { embed } from './embedding.js';
import { decodeRgba, editPng, generatePng, parseSize } from '../../../models/image/procedural.js';
import { rewritePrompt } from './prompt-rewrite.js';
import { scorePairs } from '../compat-a/rerank.js';
import { parsePayload, schemas } from './payloads.js';
import { modelTasks } from './model-tasks.js';

/**
 * Run one job (POST /api/jobs, compat-b, workflow nodes, batch lines) through the local
 * models. The job body is `{ model_id, task, payload }` (spec: not shown; docs/inference.md
 * lists each task's payload and result). Bad payloads fail the job with `invalid_payload`.
 */

export function makeRunner(svc: InferenceServices) {
  return async (job: JobRow, signal: AbortSignal): Promise<unknown> => {
    const model = findModel(job.model_id);
    if (!model) throw new TaskError('model_not_found', `model ${job.model_id} not found`);
    if (!model.tasks.includes(job.task as never)) {
      throw new TaskError(
        'unsupported_task',
        `model ${job.model_id} does not do ${job.task} (it does ${model.tasks.join(', ')})`,
      );
    }
    const payload = JSON.parse(job.payload) as unknown;
    switch (job.task) {
      case 'embedding': {
        const p = parsePayload(schemas.embedding, payload);
        const inputs = typeof p.input === 'string' ? [p.input] : p.input;
        return { embeddings: inputs.map((t) => embed(t, p.dimensions)) };
      }
      case 'rerank': {
        const p = parsePayload(schemas.rerank, payload);
        const results = bm25Scores(p.query, p.documents)
          .map((s, index) => ({
            index,
            relevance_score: relevance(s),
            document: p.documents[index],
          }))
          .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
          .slice(0, p.top_n ?? p.documents.length);
        return { results };
      }
      case 'score': {
        const p = parsePayload(schemas.score, payload);
        return { scores: scorePairs(p.text_1, p.text_2) };
      }
      case 'text-to-image': {
        const p = parsePayload(schemas['text-to-image'], payload);
        const size = parseSize(p.size ?? '512x512');
        if (!size)
          throw new TaskError('invalid_payload', 'payload.size: WIDTHxHEIGHT, each 64 to 2048');
        const images = [];
        for (let i = 0; i < (p.n ?? 1); i++) {
          const png = await generatePng(p.prompt, size.width, size.height, i);
          images.push({
            url: svc.media.save(job.org_id, png, 'image/png'),
            width: size.width,
            height: size.height,
            content_type: 'image/png',
          });
        }
        return { images };
      }
      case 'image-edit': {
        const p = parsePayload(schemas['image-edit'], payload);
        const image = decodeRgba(svc.media.fetchLocal(p.image_url) ?? new Uint8Array());
        if (!image)
          throw new TaskError(
            'invalid_payload',
            'payload.image_url: a PNG served by this emulator or a data:image/png;base64 URL',
          );
        const mask = p.mask_url
          ? decodeRgba(svc.media.fetchLocal(p.mask_url) ?? new Uint8Array())
          : null;
        if (p.mask_url && !mask)
          throw new TaskError(
            'invalid_payload',
            'payload.mask_url: a PNG served by this emulator or a data: URL',
          );
        const png = await editPng(image, mask, p.prompt);
        return {
          images: [
            {
              url: svc.media.save(job.org_id, png, 'image/png'),
              width: image.width,
              height: image.height,
              content_type: 'image/png',
            },
          ],
        };
      }
      case 'prompt-rewrite': {
        const p = parsePayload(schemas['prompt-rewrite'], payload);
        return rewritePrompt(p.prompt, p.target ?? 'image');
      }
      default:
        return modelTasks(svc, job, payload, signal);
    }
  };
}
