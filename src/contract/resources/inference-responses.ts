/**
 * The inference family's answers (spec 4.12). Where the spec shows a shape it is kept; where
 * it says "not shown" the emulator's choice is written here (docs/fidelity.md "Inference
 * family"). The compat-a objects are loose (`z.looseObject`): an upstream model may add
 * OpenAI's other fields, and a client must not reject them.
 */
import { z } from 'zod';
import { named } from '../registry.js';

const unix = z.number().int().describe('Unix seconds');

/** `{ object: list, data, has_more, first_id, last_id }`: OpenAI's cursor page. */
function cursorPage<T extends z.ZodType>(item: T) {
  return z.looseObject({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
  });
}

// compat-a
export const ModelSchema = named(
  'InferenceModel',
  z.looseObject({
    id: z.string(),
    object: z.literal('model'),
    created: unix,
    owned_by: z.string(),
  }),
);
export const ModelListSchema = z.looseObject({
  object: z.literal('list'),
  data: z.array(ModelSchema),
});

const TokenUsage = z.looseObject({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const ChatCompletionSchema = named(
  'ChatCompletion',
  z.looseObject({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: unix,
    model: z.string(),
    choices: z.array(
      z.looseObject({
        index: z.number().int(),
        message: z.looseObject({
          role: z.literal('assistant'),
          content: z.string().nullable(),
        }),
        finish_reason: z.string().nullable(),
        logprobs: z.unknown().optional(),
      }),
    ),
    usage: TokenUsage.optional(),
  }),
  'A chat completion (spec 4.12); with stream: true the answer is ChatCompletionChunk events',
);

/**
 * One server-sent event of a streamed completion (`data: <chunk>`; the stream ends with
 * `data: [DONE]`): the role first, then content deltas, a chunk with `finish_reason`, and
 * with `stream_options.include_usage` a last chunk with empty `choices` and `usage`.
 */
export const ChatCompletionChunkSchema = named(
  'ChatCompletionChunk',
  z.looseObject({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: unix,
    model: z.string(),
    choices: z.array(
      z.looseObject({
        index: z.number().int(),
        delta: z.looseObject({
          role: z.literal('assistant').optional(),
          content: z.string().nullable().optional(),
        }),
        finish_reason: z.string().nullable(),
      }),
    ),
    usage: TokenUsage.nullable().optional(),
  }),
  'One `data:` event of a streamed chat completion (text/event-stream); the stream ends with `data: [DONE]`',
);

export const EmbeddingListSchema = z.looseObject({
  object: z.literal('list'),
  data: z.array(
    z.looseObject({
      object: z.literal('embedding'),
      index: z.number().int(),
      embedding: z
        .union([z.array(z.number()), z.string()])
        .describe('numbers, or base64 of float32 with encoding_format: base64'),
    }),
  ),
  model: z.string(),
  usage: z.looseObject({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});

const PromptUsage = z.looseObject({
  prompt_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const RerankResultSchema = z.looseObject({
  id: z.string().optional(),
  object: z.literal('list').optional(),
  model: z.string().optional(),
  data: z.array(
    z.looseObject({
      index: z.number().int(),
      relevance_score: z.number(),
      document: z.string().optional(),
    }),
  ),
  usage: PromptUsage.optional(),
});

export const ScoreResultSchema = z.looseObject({
  id: z.string(),
  object: z.literal('list'),
  created: unix,
  model: z.string(),
  data: z.array(
    z.looseObject({ index: z.number().int(), object: z.literal('score'), score: z.number() }),
  ),
  usage: PromptUsage.optional(),
});

export const ImagesResultSchema = z.looseObject({
  created: unix,
  data: z.array(
    z.looseObject({
      url: z.string().optional(),
      b64_json: z.string().optional(),
      revised_prompt: z.string().optional(),
    }),
  ),
});

/** `json` and `verbose_json` (text, srt and vtt answer text/plain or text/vtt). */
export const TranscriptionSchema = z.looseObject({
  text: z.string(),
  task: z.literal('transcribe').optional(),
  language: z.string().optional(),
  duration: z.number().optional(),
  segments: z
    .array(
      z.looseObject({
        id: z.number().int().optional(),
        start: z.number(),
        end: z.number(),
        text: z.string(),
      }),
    )
    .optional(),
  usage: z.looseObject({ type: z.string(), seconds: z.number() }).optional(),
});

export const FileObjectSchema = named(
  'InferenceFile',
  z.looseObject({
    id: z.string(),
    object: z.literal('file'),
    bytes: z.number().int(),
    created_at: unix,
    filename: z.string(),
    purpose: z.string(),
    status: z.string(),
    status_details: z.string().nullable().optional(),
    expires_at: unix.nullable().optional(),
  }),
);
export const FileListSchema = cursorPage(FileObjectSchema);
export const FileDeletedSchema = z.looseObject({
  id: z.string(),
  object: z.literal('file'),
  deleted: z.boolean(),
});

const at = unix.nullable();
export const BatchSchema = named(
  'InferenceBatch',
  z.looseObject({
    id: z.string(),
    object: z.literal('batch'),
    endpoint: z.string(),
    input_file_id: z.string(),
    completion_window: z.string(),
    status: z.enum([
      'validating',
      'failed',
      'in_progress',
      'finalizing',
      'completed',
      'expired',
      'cancelling',
      'cancelled',
    ]),
    errors: z
      .looseObject({
        object: z.literal('list'),
        data: z.array(
          z.looseObject({
            code: z.string(),
            message: z.string(),
            line: z.number().int().nullable(),
            param: z.string().nullable(),
          }),
        ),
      })
      .nullable(),
    output_file_id: z.string().nullable(),
    error_file_id: z.string().nullable(),
    created_at: unix,
    in_progress_at: at,
    expires_at: at,
    finalizing_at: at,
    completed_at: at,
    failed_at: at,
    expired_at: at,
    cancelling_at: at,
    cancelled_at: at,
    request_counts: z.looseObject({
      total: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
    }),
    metadata: z.record(z.string(), z.string()).nullable(),
  }),
);
export const BatchListSchema = cursorPage(BatchSchema);

// jobs and compat-b
export const JobStatusNames = [
  'pending',
  'processing',
  'completed',
  'failed',
  'cancelled',
] as const;
const JobErrorSchema = z.object({ code: z.string(), message: z.string() });

/** Spec: `{ status, result, ... }` with `error` on failure; the other fields are ours. */
export const JobSchema = named(
  'InferenceJob',
  z.object({
    id: z.string(),
    queue_id: z.string(),
    status: z.enum(JobStatusNames),
    model_id: z.string(),
    task: z.string(),
    result: z.unknown().describe("the task's result (null until completed)"),
    error: JobErrorSchema.optional(),
    queue_position: z.number().int().optional().describe('while pending'),
    created_at: unix,
    started_at: at,
    completed_at: at,
  }),
);
export const JobCreatedSchema = z.object({ id: z.string(), queue_id: z.string() });

/** compat-b's view of a job: the job plus its `request_id`. */
export const CompatBRequestSchema = named(
  'CompatBRequest',
  JobSchema.extend({ request_id: z.string() }),
);
export const CompatBQueuedSchema = z.object({
  request_id: z.string(),
  status: z.enum(JobStatusNames),
  status_url: z.string(),
});
export const CompatBStatusesSchema = z.object({
  data: z.array(
    z.union([
      CompatBRequestSchema,
      z.object({ request_id: z.string(), status: z.literal('not_found') }),
    ]),
  ),
});

// workflows
const NodeStateSchema = z.object({
  status: z.enum(['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled']),
  result: z.unknown().optional(),
  error: JobErrorSchema.extend({
    item_errors: z
      .array(z.object({ index: z.number().int(), code: z.string(), message: z.string() }))
      .optional(),
  }).optional(),
  job_ids: z.array(z.string()),
  progress: z
    .object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() })
    .optional(),
  started_at: unix.optional(),
  completed_at: unix.optional(),
});

export const WorkflowSchema = named(
  'Workflow',
  z.object({
    id: z.string(),
    name: z.string(),
    dag: z.object({
      nodes: z.record(z.string(), z.record(z.string(), z.unknown())),
      edges: z.array(z.unknown()).optional(),
    }),
    created_at: unix,
  }),
);

/** Spec: `{ id, workflow_id, status, input_params, created_at }`; times, error and nodes are ours (one execution only). */
export const ExecutionSchema = named(
  'WorkflowExecution',
  z.object({
    id: z.string(),
    workflow_id: z.string(),
    status: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']),
    input_params: z.record(z.string(), z.unknown()),
    created_at: unix,
    started_at: at.optional(),
    completed_at: at.optional(),
    error: JobErrorSchema.optional(),
    nodes: z.record(z.string(), NodeStateSchema).optional(),
  }),
);
export const WorkflowOneSchema = z.object({ workflow: WorkflowSchema });
export const WorkflowListSchema = z.object({ data: z.array(WorkflowSchema) });
export const ExecutionOneSchema = z.object({ execution: ExecutionSchema });
export const ExecutionListSchema = z.object({ data: z.array(ExecutionSchema) });

// organisations
export const OrganizationListSchema = z.object({
  data: z.array(z.object({ id: z.string(), name: z.string(), plan: z.string(), created_at: unix })),
});
export const OrgTokenSchema = named(
  'OrgToken',
  z.object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    status: z.enum(['active', 'revoked']),
    token_prefix: z.string(),
    created_at: unix,
    revoked_at: unix.optional(),
  }),
);
export const OrgTokenCreatedSchema = z.object({
  token: OrgTokenSchema,
  secret: z.string().describe('shown once'),
});
export const OrgTokenListSchema = z.object({ data: z.array(OrgTokenSchema) });
export const OrgTokenRevokedSchema = z.object({ ok: z.literal(true), revoked_at: unix });

const InferenceUsageRow = z.object({
  requests: z.number(),
  api_requests: z.number(),
  job_submissions: z.number(),
  errors: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  audio_seconds: z.number(),
  images: z.number(),
});
const ToolUsageRow = z.object({
  calls: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  images: z.number(),
  total_ms: z.number(),
});
const Day = z.object({ date: z.string().describe('YYYY-MM-DD (UTC)'), start: unix });

export const OrgUsageSchema = named(
  'OrgUsage',
  z.object({
    object: z.literal('usage'),
    org_id: z.string(),
    start: unix,
    end: unix,
    totals: InferenceUsageRow,
    by_model: z.array(InferenceUsageRow.extend({ model_id: z.string().nullable() })),
    by_day: z.array(InferenceUsageRow.extend(Day.shape)),
    builtin_tools: ToolUsageRow.extend({
      by_tool: z.array(
        ToolUsageRow.extend({ server: z.string().nullable(), tool: z.string().nullable() }),
      ),
      by_day: z.array(ToolUsageRow.extend(Day.shape)),
    }),
  }),
);

// other
export const ModelStatusSchema = z.object({
  models: z.array(
    z.object({
      model_id: z.string(),
      spec_id: z.string(),
      enabled: z.boolean(),
      tasks: z.array(z.string()),
    }),
  ),
});
export const VoiceModelsSchema = z.object({
  data: z.array(
    z.object({
      model_id: z.string(),
      engine: z.string().nullable(),
      enabled: z.boolean(),
      voices: z.array(
        z.object({ id: z.string(), language: z.string(), gender: z.string().optional() }),
      ),
      response_formats: z.array(z.string()),
    }),
  ),
});
export const PromptRewriteSchema = z.object({
  prompt: z.string(),
  original: z.string(),
  target: z.string(),
});
