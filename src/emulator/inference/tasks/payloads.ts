import { z } from 'zod';
import { textOfAtMost } from '../../../contract/resources/common.js';
import { TaskError } from '../jobs/queue.js';
import { isLocalMediaUrl } from '../shared/media-store.js';
import { issueMessage } from '../shared/issues.js';
import { SPEECH_FORMATS, type SpeechFormat } from './audio-codec.js';
import { parseSize } from '../../../models/image/procedural.js';

/** Checked at submission so a job that could never run is a 400, not a failed job later. */
const size = z
  .string()
  .refine((s) => parseSize(s) !== null, { message: 'WIDTHxHEIGHT, each 64 to 2048' });
const localUrl = z.string().refine(isLocalMediaUrl, {
  message: 'a URL this emulator served (/inference/media/...) or a data: URL',
});

/**
 * The payload of each task (job body `{ model_id, task, payload }`, compat-b bodies,
 * workflow nodes). Checked at submission on /api/jobs and compat-b (400), and again when a
 * job runs (a workflow's rendered payload fails its job with `invalid_payload`).
 */
export const schemas = {
  chat: z.object({
    messages: z
      .array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }))
      .min(1),
    max_tokens: z.number().int().min(1).optional(),
  }),
  'text-to-speech': z.object({
    input: textOfAtMost(4096, 1),
    voice: z.string().optional(),
    speed: z.number().min(0.25).max(4).optional(),
    response_format: z.enum(Object.keys(SPEECH_FORMATS) as [SpeechFormat]).optional(),
  }),
  'speech-to-text': z.object({ audio_url: localUrl, language: z.string().optional() }),
  embedding: z.object({
    input: z.union([z.string(), z.array(z.string()).min(1).max(2048)]),
    dimensions: z.number().int().min(8).max(4096).optional(),
  }),
  rerank: z.object({
    query: z.string(),
    documents: z.array(z.string()).min(1).max(1000),
    top_n: z.number().int().min(1).optional(),
  }),
  score: z.object({
    text_1: z.union([z.string(), z.array(z.string()).min(1)]),
    text_2: z.union([z.string(), z.array(z.string()).min(1)]),
  }),
  'text-to-image': z.object({
    prompt: z.string().min(1).max(32_000),
    size: size.optional(),
    n: z.number().int().min(1).max(10).optional(),
  }),
  'image-edit': z.object({
    prompt: z.string().min(1),
    image_url: localUrl,
    mask_url: localUrl.optional(),
  }),
  'prompt-rewrite': z.object({
    prompt: z.string().min(1).max(32_000),
    target: z.enum(['image', 'video', 'speech', 'chat']).optional(),
  }),
};

export function parsePayload<S extends z.ZodType>(schema: S, payload: unknown): z.output<S> {
  const r = schema.safeParse(payload);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  throw new TaskError(
    'invalid_payload',
    `payload.${i.path.join('.') || '(root)'}: ${issueMessage(i, payload)}`,
  );
}

/** 400-style check at submission: the first problem as `payload.<field>: reason`, or null. */
export function payloadProblem(
  task: string,
  payload: unknown,
  prefix = 'payload',
): { message: string; param: string } | null {
  const schema = (schemas as Record<string, z.ZodType>)[task];
  if (!schema) return null;
  const r = schema.safeParse(payload);
  if (r.success) return null;
  const i = r.error.issues[0]!;
  const param = [...(prefix ? [prefix] : []), ...i.path.map(String)].join('.') || '(body)';
  return { message: `${param}: ${issueMessage(i, payload)}`, param };
}
