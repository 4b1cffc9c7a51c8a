/**
 * The inference family (spec 4.12): compat-a (OpenAI-compatible), compat-b (queue-style),
 * jobs, workflows, organisations, model status, voice models and prompt rewrite. Every
 * route answers failures in the family's own envelope (`InferenceErrorSchema`), never the
 * control plane's. The emulator registers each with `implementInference(app, svc, op, ...)`,
 * `InferenceClient` fills their paths, the OpenAPI document lists them.
 */
import type { z } from 'zod';
import { defineOperation, type HttpMethod, type Operation, type Responses } from '../operation.js';
import type { Scope } from '../scopes.js';
import {
  BatchCreateBody,
  ChatCompletionBody,
  CompatBSubmitBody,
  EmbeddingsBody,
  ExecParams,
  IdParams,
  ImageGenerateBody,
  JobBody,
  MediaParams,
  ModelParams,
  OrgParams,
  OrgTokenBody,
  OrgTokenParams,
  PromptRewriteBody,
  RequestsBatchBody,
  RerankBody,
  ScoreBody,
  SlugParams,
  SpeechBody,
  UsageQuery,
  WorkflowCreateBody,
  WorkflowExecuteBody,
} from '../resources/inference.js';
import * as Res from '../resources/inference-responses.js';

const MULTIPART = { contentTypes: ['multipart/form-data'], maxBytes: 50 * 1024 * 1024 } as const;
/** Largest file POST /compat-a/v1/files stores (ours, spec 4.12: not shown; docs/fidelity.md). */
export const FILE_BYTES = 100 * 1024 * 1024;
/** The upload's multipart body: the file plus room for the form's boundaries and `purpose`. */
export const FILE_UPLOAD_BODY_BYTES = FILE_BYTES + 64 * 1024;

/**
 * One inference operation: public or one scope, the family's envelope, no CLI command. Every
 * call states its `responses` (generic over them, so OutputOf reads the literal schemas).
 */
function inference<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(
  id: string,
  method: HttpMethod,
  path: string,
  scope: Scope | 'public',
  summary: string,
  more: Partial<Omit<Operation<P, Q, B, R>, 'responses'>> & { responses: R },
): Operation<P, Q, B, R> {
  return defineOperation<P, Q, B, R>({
    id,
    method,
    path,
    summary,
    auth: scope === 'public' ? 'public' : { anyOf: [scope] },
    family: 'inference',
    cli: false,
    ...more,
  });
}

// compat-a: OpenAI-compatible
export const models = inference(
  'compatA.models',
  'get',
  '/compat-a/v1/models',
  'user:read',
  'List the models',
  { responses: { 200: { description: 'The models', schema: Res.ModelListSchema } } },
);
export const model = inference(
  'compatA.model',
  'get',
  '/compat-a/v1/models/{model}',
  'user:read',
  'One model',
  {
    params: ModelParams,
    responses: { 200: { description: 'The model', schema: Res.ModelSchema } },
  },
);
export const chatCompletions = inference(
  'compatA.chat',
  'post',
  '/compat-a/v1/chat/completions',
  'user:write',
  'Chat completion (stream: text/event-stream)',
  {
    body: ChatCompletionBody,
    responses: {
      200: {
        description: 'The completion, or server-sent chunks when stream is true',
        schema: Res.ChatCompletionSchema,
        stream: { contentType: 'text/event-stream', schema: Res.ChatCompletionChunkSchema },
      },
    },
  },
);
export const embeddings = inference(
  'compatA.embeddings',
  'post',
  '/compat-a/v1/embeddings',
  'user:write',
  'Embed texts',
  {
    body: EmbeddingsBody,
    responses: { 200: { description: 'One embedding per input', schema: Res.EmbeddingListSchema } },
  },
);
export const rerank = inference(
  'compatA.rerank',
  'post',
  '/compat-a/v1/rerank',
  'user:write',
  'Rerank documents for a query (BM25)',
  {
    body: RerankBody,
    responses: {
      200: { description: 'The documents by relevance', schema: Res.RerankResultSchema },
    },
  },
);
export const score = inference(
  'compatA.score',
  'post',
  '/compat-a/v1/score',
  'user:write',
  'Score text pairs (vLLM shape)',
  {
    body: ScoreBody,
    responses: { 200: { description: 'One score per pair', schema: Res.ScoreResultSchema } },
  },
);
export const imagesGenerate = inference(
  'compatA.imagesGenerate',
  'post',
  '/compat-a/v1/images/generations',
  'user:write',
  'Generate images',
  {
    body: ImageGenerateBody,
    responses: {
      200: { description: 'The images (url or b64_json)', schema: Res.ImagesResultSchema },
    },
  },
);
export const imagesEdit = inference(
  'compatA.imagesEdit',
  'post',
  '/compat-a/v1/images/edits',
  'user:write',
  'Edit an image (multipart: image, mask, prompt)',
  {
    rawBody: MULTIPART,
    responses: {
      200: { description: 'The edited images (url or b64_json)', schema: Res.ImagesResultSchema },
    },
  },
);
export const speech = inference(
  'compatA.speech',
  'post',
  '/compat-a/v1/audio/speech',
  'user:write',
  'Text to speech; the body is the audio file',
  {
    body: SpeechBody,
    responses: {
      200: {
        description: 'Audio in the requested format',
        contentType: 'application/octet-stream',
      },
    },
  },
);
export const transcriptions = inference(
  'compatA.transcriptions',
  'post',
  '/compat-a/v1/audio/transcriptions',
  'user:write',
  'Speech to text (multipart: file, model)',
  {
    rawBody: MULTIPART,
    responses: {
      200: {
        description: 'The transcript (json, verbose_json) or text (text, srt, vtt)',
        schema: Res.TranscriptionSchema,
      },
    },
  },
);
export const uploadFile = inference(
  'compatA.uploadFile',
  'post',
  '/compat-a/v1/files',
  'user:write',
  'Upload a file (multipart: purpose, file)',
  {
    rawBody: { ...MULTIPART, maxBytes: FILE_UPLOAD_BODY_BYTES },
    responses: { 200: { description: 'The file', schema: Res.FileObjectSchema } },
  },
);
export const listFiles = inference(
  'compatA.listFiles',
  'get',
  '/compat-a/v1/files',
  'user:read',
  'List files',
  { responses: { 200: { description: 'A page of files', schema: Res.FileListSchema } } },
);
export const getFile = inference(
  'compatA.getFile',
  'get',
  '/compat-a/v1/files/{id}',
  'user:read',
  'One file',
  {
    params: IdParams,
    responses: { 200: { description: 'The file', schema: Res.FileObjectSchema } },
  },
);
export const fileContent = inference(
  'compatA.fileContent',
  'get',
  '/compat-a/v1/files/{id}/content',
  'user:read',
  "A file's bytes",
  {
    params: IdParams,
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
  },
);
export const deleteFile = inference(
  'compatA.deleteFile',
  'delete',
  '/compat-a/v1/files/{id}',
  'user:write',
  'Delete a file',
  {
    params: IdParams,
    responses: { 200: { description: 'Deleted', schema: Res.FileDeletedSchema } },
  },
);
export const createBatch = inference(
  'compatA.createBatch',
  'post',
  '/compat-a/v1/batches',
  'user:write',
  'Create a batch over a JSONL file',
  {
    body: BatchCreateBody,
    responses: { 200: { description: 'The batch (validating)', schema: Res.BatchSchema } },
  },
);
export const listBatches = inference(
  'compatA.listBatches',
  'get',
  '/compat-a/v1/batches',
  'user:read',
  'List batches',
  { responses: { 200: { description: 'A page of batches', schema: Res.BatchListSchema } } },
);
export const getBatch = inference(
  'compatA.getBatch',
  'get',
  '/compat-a/v1/batches/{id}',
  'user:read',
  'One batch',
  { params: IdParams, responses: { 200: { description: 'The batch', schema: Res.BatchSchema } } },
);
export const cancelBatch = inference(
  'compatA.cancelBatch',
  'post',
  '/compat-a/v1/batches/{id}/cancel',
  'user:write',
  'Cancel a batch',
  {
    params: IdParams,
    responses: {
      200: { description: 'The batch (cancelling or cancelled)', schema: Res.BatchSchema },
    },
  },
);

// compat-b: queue-style. The two fixed paths come before `{slug}`, as the router matches them.
export const requestsBatch = inference(
  'compatB.requestsBatch',
  'post',
  '/compat-b/requests/batch',
  'user:read',
  'Status of many requests',
  {
    body: RequestsBatchBody,
    responses: {
      200: {
        description: 'One status per id (not_found for an unknown one)',
        schema: Res.CompatBStatusesSchema,
      },
    },
  },
);
export const request = inference(
  'compatB.request',
  'get',
  '/compat-b/requests/{id}',
  'user:read',
  'Status (and result) of one request',
  {
    params: IdParams,
    responses: {
      200: {
        description: 'The request: status, result or error',
        schema: Res.CompatBRequestSchema,
      },
    },
  },
);
export const submit = inference(
  'compatB.submit',
  'post',
  '/compat-b/{slug}',
  'user:write',
  'Submit a request to a model (sync_mode waits up to 120 s)',
  {
    params: SlugParams,
    body: CompatBSubmitBody,
    responses: {
      200: { description: 'The finished request (sync_mode)', schema: Res.CompatBRequestSchema },
      202: { description: 'Queued: request_id and status_url', schema: Res.CompatBQueuedSchema },
    },
  },
);

// jobs
export const createJob = inference(
  'jobs.create',
  'post',
  '/api/jobs',
  'user:write',
  'Submit a job',
  {
    body: JobBody,
    responses: { 201: { description: '{ id, queue_id }', schema: Res.JobCreatedSchema } },
  },
);
export const getJob = inference('jobs.get', 'get', '/api/jobs/{id}', 'user:read', 'One job', {
  params: IdParams,
  responses: { 200: { description: 'The job', schema: Res.JobSchema } },
});
export const cancelJob = inference(
  'jobs.cancel',
  'post',
  '/api/jobs/{id}/cancel',
  'user:write',
  'Cancel a job',
  {
    params: IdParams,
    responses: { 200: { description: 'The job (cancelled)', schema: Res.JobSchema } },
  },
);

// workflows (the fixed executions paths before `{id}`)
export const getExecution = inference(
  'workflows.execution',
  'get',
  '/api/workflows/executions/{execId}',
  'user:read',
  'One execution',
  {
    params: ExecParams,
    responses: {
      200: { description: 'The execution with its nodes', schema: Res.ExecutionOneSchema },
    },
  },
);
export const cancelExecution = inference(
  'workflows.cancelExecution',
  'post',
  '/api/workflows/executions/{execId}/cancel',
  'user:write',
  'Cancel an execution',
  {
    params: ExecParams,
    responses: {
      200: { description: 'The execution (cancelled)', schema: Res.ExecutionOneSchema },
    },
  },
);
export const createWorkflow = inference(
  'workflows.create',
  'post',
  '/api/workflows',
  'user:write',
  'Create a workflow from a DAG',
  {
    body: WorkflowCreateBody,
    responses: { 201: { description: '{ workflow }', schema: Res.WorkflowOneSchema } },
  },
);
export const listWorkflows = inference(
  'workflows.list',
  'get',
  '/api/workflows',
  'user:read',
  'List workflows',
  {
    responses: {
      200: { description: "The organisation's workflows", schema: Res.WorkflowListSchema },
    },
  },
);
export const getWorkflow = inference(
  'workflows.get',
  'get',
  '/api/workflows/{id}',
  'user:read',
  'One workflow',
  {
    params: IdParams,
    responses: { 200: { description: 'The workflow', schema: Res.WorkflowOneSchema } },
  },
);
export const listExecutions = inference(
  'workflows.executions',
  'get',
  '/api/workflows/{id}/executions',
  'user:read',
  "A workflow's executions",
  {
    params: IdParams,
    responses: {
      200: { description: 'Its executions (without nodes)', schema: Res.ExecutionListSchema },
    },
  },
);
export const execute = inference(
  'workflows.execute',
  'post',
  '/api/workflows/{id}/execute',
  'user:write',
  'Run a workflow',
  {
    params: IdParams,
    body: WorkflowExecuteBody,
    responses: { 201: { description: '{ execution }', schema: Res.ExecutionOneSchema } },
  },
);

// organisations
export const organizations = inference(
  'orgs.list',
  'get',
  '/api/organizations',
  'user:read',
  'The organisation the key acts for',
  { responses: { 200: { description: 'The organisation', schema: Res.OrganizationListSchema } } },
);
export const createOrgToken = inference(
  'orgs.createToken',
  'post',
  '/api/organizations/{orgId}/tokens',
  'admin:write',
  'Create an organisation token (secret shown once)',
  {
    params: OrgParams,
    body: OrgTokenBody,
    responses: {
      201: { description: 'The token and its secret', schema: Res.OrgTokenCreatedSchema },
    },
  },
);
export const orgTokens = inference(
  'orgs.tokens',
  'get',
  '/api/organizations/{orgId}/tokens',
  'admin:read',
  'List organisation tokens',
  {
    params: OrgParams,
    responses: { 200: { description: 'The tokens (no secrets)', schema: Res.OrgTokenListSchema } },
  },
);
export const revokeOrgToken = inference(
  'orgs.revokeToken',
  'post',
  '/api/organizations/{orgId}/tokens/{tokenId}/revoke',
  'admin:write',
  'Revoke an organisation token',
  {
    params: OrgTokenParams,
    responses: { 200: { description: 'Revoked (idempotent)', schema: Res.OrgTokenRevokedSchema } },
  },
);
export const orgUsage = inference(
  'orgs.usage',
  'get',
  '/api/organizations/{orgId}/usage',
  'admin:read',
  'Usage aggregates (start, end: Unix seconds)',
  {
    params: OrgParams,
    query: UsageQuery,
    responses: { 200: { description: 'Usage aggregates', schema: Res.OrgUsageSchema } },
  },
);

// other
export const modelStatus = inference(
  'models.status',
  'get',
  '/api/model-status',
  'user:read',
  'Model status (warm/cold, queue)',
  { responses: { 200: { description: 'Every model', schema: Res.ModelStatusSchema } } },
);
export const voiceModels = inference(
  'voice.models',
  'get',
  '/api/voice/models',
  'user:read',
  'Voice models',
  {
    responses: {
      200: { description: 'TTS models and their voices', schema: Res.VoiceModelsSchema },
    },
  },
);
export const promptRewrite = inference(
  'prompts.rewrite',
  'post',
  '/api/prompt-rewrite',
  'user:write',
  'Rewrite a prompt for a target',
  {
    body: PromptRewriteBody,
    responses: { 200: { description: 'The rewritten prompt', schema: Res.PromptRewriteSchema } },
  },
);

/** Media the family's answers link to (image URLs, audio), public by unguessable id. */
export const media = inference(
  'inference.media',
  'get',
  '/inference/media/{file}',
  'public',
  'A generated image or audio file',
  {
    params: MediaParams,
    responses: { 200: { description: 'The media', contentType: 'application/octet-stream' } },
  },
);

export const inferenceOperations = [
  models,
  model,
  chatCompletions,
  embeddings,
  rerank,
  score,
  imagesGenerate,
  imagesEdit,
  speech,
  transcriptions,
  uploadFile,
  listFiles,
  getFile,
  fileContent,
  deleteFile,
  createBatch,
  listBatches,
  getBatch,
  cancelBatch,
  requestsBatch,
  request,
  submit,
  createJob,
  getJob,
  cancelJob,
  getExecution,
  cancelExecution,
  createWorkflow,
  listWorkflows,
  getWorkflow,
  listExecutions,
  execute,
  organizations,
  createOrgToken,
  orgTokens,
  revokeOrgToken,
  orgUsage,
  modelStatus,
  voiceModels,
  promptRewrite,
  media,
];
