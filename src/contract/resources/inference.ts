/**
 * The inference family's request shapes (spec 4.12) and its error envelope (spec 7). The
 * emulator validates with these and the OpenAPI document describes them; payloads the spec
 * leaves "not shown" follow docs/fidelity.md.
 */
import { z } from 'zod';
import { named } from '../registry.js';
import { textOfAtMost } from './common.js';

/** `{ error: { code, message, type, param? } }`: the family's envelope, also OpenAI's on /compat-a. */
export const InferenceErrorSchema = named(
  'InferenceError',
  z.object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      type: z
        .string()
        .describe('invalid_request_error, authentication_error, rate_limit_error, ...'),
      param: z.string().nullable().optional(),
    }),
  }),
  'Inference-family error envelope (spec 7); also the OpenAI-compatible shape on /compat-a',
);

/** Any JSON object (answers whose shape follows the upstream format). */
export const JsonObject = z.record(z.string(), z.unknown());

export const IdParams = z.object({ id: z.string().min(1) });
export const OrgParams = z.object({ orgId: z.string().min(1) });
export const OrgTokenParams = z.object({ orgId: z.string().min(1), tokenId: z.string().min(1) });
export const ExecParams = z.object({ execId: z.string().min(1) });
export const SlugParams = z.object({ slug: z.string().min(1) });
export const ModelParams = z.object({ model: z.string().min(1) });
export const MediaParams = z.object({ file: z.string().min(1) });

const ChatPart = z.object({ type: z.string(), text: z.string().optional() });
export const ChatMessageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(ChatPart), z.null()]).optional(),
});
export const ChatCompletionBody = named(
  'ChatCompletionRequest',
  z.object({
    model: z.string().min(1),
    messages: z.array(ChatMessageSchema).min(1).max(1000),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
    max_tokens: z.number().int().min(1).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    n: z.number().int().min(1).max(1).nullable().optional(),
  }),
);

export const EMBEDDING_MAX_INPUTS = 2048;
export const EmbeddingsBody = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1).max(EMBEDDING_MAX_INPUTS)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().min(8).max(4096).optional(),
  user: z.string().optional(),
});

/** The audio formats of `audio/speech` (OpenAI's names). */
export const SpeechFormatNames = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const SpeechBody = z.object({
  model: z.string().min(1),
  input: textOfAtMost(4096, 1),
  voice: z.string().min(1),
  response_format: z.enum(SpeechFormatNames).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  instructions: z.string().optional(),
});

export const RerankBody = z.object({
  model: z.string().min(1),
  query: z.string(),
  documents: z.array(z.string()).min(1).max(1000),
  top_n: z.number().int().min(1).optional(),
  return_documents: z.boolean().optional(),
});
const ScoreText = z.union([z.string(), z.array(z.string()).min(1).max(1000)]);
export const ScoreBody = z.object({
  model: z.string().min(1),
  text_1: ScoreText,
  text_2: ScoreText,
});

export const ImageGenerateBody = z.object({
  model: z.string().min(1).optional(),
  prompt: z.string().min(1).max(32_000),
  n: z.number().int().min(1).max(10).optional(),
  size: z.string().optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  user: z.string().optional(),
});

export const BatchCreateBody = z.object({
  input_file_id: z.string().min(1),
  endpoint: z.string(),
  completion_window: z.literal('24h'),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

export const RequestsBatchBody = z.object({ request_ids: z.array(z.string()).min(1) });

/** compat-b submission: the model's payload plus `sync_mode` and an optional `task`. */
export const CompatBSubmitBody = z
  .object({ sync_mode: z.boolean().optional(), task: z.string().optional() })
  .catchall(z.unknown());

/** Job body (spec: not shown): the same `{ model_id, task, payload }` as a workflow task node. */
export const JobBody = z.object({
  model_id: z.string().min(1),
  task: z.string().min(1),
  payload: z.record(z.string(), z.unknown()).optional(),
});

export const WorkflowCreateBody = z.object({ name: z.string().min(1).max(200), dag: z.unknown() });
export const WorkflowExecuteBody = z.object({
  input_params: z.record(z.string(), z.unknown()).optional(),
});

export const OrgTokenBody = z.object({
  name: z.string().min(1).max(200),
  scopes: z.array(z.string()).min(1).max(20),
});
export const UsageQuery = z.object({ start: z.string().optional(), end: z.string().optional() });

export const PromptRewriteBody = z.object({
  prompt: z.string().min(1).max(32_000),
  target: z.enum(['image', 'video', 'speech', 'chat']).optional(),
});
