import { createParser } from 'eventsource-parser';
import { request } from 'undici';
import type { z } from 'zod';
import type { AnyOperation, InputOf, OutputOf } from '../contract/operation.js';
import * as I from '../contract/operations/inference.js';
import type { ChatCompletionChunkSchema } from '../contract/resources/inference-responses.js';
import { ApiResponseError, type AvatarClient, type CallOptions } from './client.js';

/** A multipart form as bytes + content type (the platform's own FormData serializer). */
export async function multipart(
  fields: Record<string, string | { bytes: Uint8Array; filename: string; type?: string }>,
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') fd.append(k, v);
    else
      fd.append(
        k,
        new Blob([Buffer.from(v.bytes)], { type: v.type ?? 'application/octet-stream' }),
        v.filename,
      );
  }
  const req = new Request('http://form.invalid/', { method: 'POST', body: fd });
  return {
    bytes: new Uint8Array(await req.arrayBuffer()),
    contentType: req.headers.get('content-type')!,
  };
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The request body of an operation, as the contract declares it (zod input type). */
export type BodyOf<O> = NonNullable<InputOf<O>['body']>;

/** One `data:` event of a streamed chat completion (the contract's ChatCompletionChunk). */
export type ChatCompletionChunk = z.output<typeof ChatCompletionChunkSchema>;

/**
 * The inference family (spec 4.12) for the CLI and app code: compat-a, compat-b, jobs,
 * workflows and organisations on top of `AvatarClient.call` (same auth, same errors). Every
 * method is one contract operation (`src/contract/operations/inference.ts`): its body type is
 * the operation's request schema and it resolves with the operation's typed answer.
 */
export class InferenceClient {
  constructor(readonly client: AvatarClient) {}

  private async body<O extends AnyOperation>(
    op: O,
    input: InputOf<O> & CallOptions = {} as InputOf<O> & CallOptions,
  ): Promise<OutputOf<O>> {
    return (await this.client.call(op, input)).body;
  }

  // compat-a
  models() {
    return this.body(I.models);
  }
  chat(body: BodyOf<typeof I.chatCompletions>) {
    return this.body(I.chatCompletions, { body: { ...body, stream: false } });
  }
  /** Streams the reply: `onDelta` gets each piece of text; resolves with usage and finish reason. */
  async chatStream(
    body: BodyOf<typeof I.chatCompletions>,
    onDelta: (text: string) => void,
    signal?: AbortSignal,
  ) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (this.client.options.apiKey) headers.authorization = `Bearer ${this.client.options.apiKey}`;
    const res = await request(`${this.client.baseUrl}${I.chatCompletions.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
      signal,
    });
    if (res.statusCode >= 400) {
      const text = await res.body.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      throw new ApiResponseError(res.statusCode, parsed, {});
    }
    let usage: ChatCompletionChunk['usage'];
    let finish: string | undefined;
    let failure: unknown;
    const parser = createParser({
      onEvent: (ev) => {
        if (ev.data === '[DONE]') return;
        // A chunk, or a mid-stream `{ error }` event (the status was already 200).
        const chunk = JSON.parse(ev.data) as Partial<ChatCompletionChunk> & { error?: unknown };
        if (chunk.error) failure = chunk.error;
        if (chunk.usage) usage = chunk.usage;
        const c = chunk.choices?.[0];
        if (c?.delta?.content) onDelta(c.delta.content);
        if (c?.finish_reason) finish = c.finish_reason;
      },
    });
    for await (const part of res.body)
      parser.feed(Buffer.from(part as Uint8Array).toString('utf8'));
    if (failure) throw new ApiResponseError(500, { error: failure }, {});
    return { usage: usage ?? undefined, finish_reason: finish };
  }
  embed(body: BodyOf<typeof I.embeddings>) {
    return this.body(I.embeddings, { body: { encoding_format: 'float', ...body } });
  }
  /** The audio file's bytes. */
  speech(body: BodyOf<typeof I.speech>) {
    return this.body(I.speech, { body });
  }
  /** `json` and `verbose_json` answer a transcript object; `text`, `srt` and `vtt` the text itself. */
  async transcribe(
    file: { bytes: Uint8Array; filename: string },
    opts: { model: string; response_format?: string; language?: string },
  ) {
    const fields: Record<string, string | { bytes: Uint8Array; filename: string }> = {
      model: opts.model,
      file,
    };
    if (opts.response_format) fields.response_format = opts.response_format;
    if (opts.language) fields.language = opts.language;
    return this.body(I.transcriptions, { raw: await multipart(fields) });
  }
  imagesGenerate(body: BodyOf<typeof I.imagesGenerate>) {
    return this.body(I.imagesGenerate, { body });
  }
  rerank(body: BodyOf<typeof I.rerank>) {
    return this.body(I.rerank, { body });
  }
  async uploadFile(bytes: Uint8Array, filename: string, purpose: string) {
    return this.body(I.uploadFile, {
      raw: await multipart({ purpose, file: { bytes, filename } }),
    });
  }
  files() {
    return this.body(I.listFiles);
  }
  file(id: string) {
    return this.body(I.getFile, { params: { id } });
  }
  /** The file's bytes. */
  fileContent(id: string) {
    return this.body(I.fileContent, { params: { id } });
  }
  deleteFile(id: string) {
    return this.body(I.deleteFile, { params: { id } });
  }
  createBatch(
    body: Omit<BodyOf<typeof I.createBatch>, 'completion_window'> & { completion_window?: '24h' },
  ) {
    return this.body(I.createBatch, { body: { completion_window: '24h', ...body } });
  }
  batches() {
    return this.body(I.listBatches);
  }
  batch(id: string) {
    return this.body(I.getBatch, { params: { id } });
  }
  cancelBatch(id: string) {
    return this.body(I.cancelBatch, { params: { id } });
  }

  // compat-b and jobs
  /** 200 with the finished request (sync_mode), or 202 `{ request_id, status, status_url }`. */
  submit(slug: string, body: BodyOf<typeof I.submit>) {
    return this.body(I.submit, { params: { slug }, body });
  }
  request(id: string) {
    return this.body(I.request, { params: { id } });
  }
  createJob(body: BodyOf<typeof I.createJob>) {
    return this.body(I.createJob, { body });
  }
  job(id: string) {
    return this.body(I.getJob, { params: { id } });
  }
  cancelJob(id: string) {
    return this.body(I.cancelJob, { params: { id } });
  }
  modelStatus() {
    return this.body(I.modelStatus);
  }

  // workflows
  createWorkflow(body: BodyOf<typeof I.createWorkflow>) {
    return this.body(I.createWorkflow, { body });
  }
  execute(workflowId: string, input_params: Record<string, unknown>) {
    return this.body(I.execute, { params: { id: workflowId }, body: { input_params } });
  }
  execution(id: string) {
    return this.body(I.getExecution, { params: { execId: id } });
  }
  cancelExecution(id: string) {
    return this.body(I.cancelExecution, { params: { execId: id } });
  }

  // organisations
  organizations() {
    return this.body(I.organizations);
  }
  createOrgToken(orgId: string, body: BodyOf<typeof I.createOrgToken>) {
    return this.body(I.createOrgToken, { params: { orgId }, body });
  }
  orgTokens(orgId: string) {
    return this.body(I.orgTokens, { params: { orgId } });
  }
  revokeOrgToken(orgId: string, tokenId: string) {
    return this.body(I.revokeOrgToken, { params: { orgId, tokenId } });
  }
  /** Usage over [start, end) in Unix seconds (default: the last 30 days). */
  usage(orgId: string, query: { start?: number; end?: number } = {}) {
    const q = Object.fromEntries(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return this.body(I.orgUsage, { params: { orgId }, query: q });
  }
}
