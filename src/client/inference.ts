import { createParser } from 'eventsource-parser';
import { request } from 'undici';
import { fillPath } from '../contract/operation.js';
import * as I from '../contract/operations/inference.js';
import { ApiResponseError, type AvatarClient, type CallResult } from './client.js';

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

/**
 * The inference family (spec 4.12) for the CLI and app code: compat-a, compat-b, jobs,
 * workflows and organisations on top of AvatarClient.raw (same auth, same errors). Every
 * path is the contract's (`src/contract/operations/inference.ts`), filled by `fillPath`.
 */
export class InferenceClient {
  constructor(readonly client: AvatarClient) {}

  private async ok<T>(p: Promise<CallResult<T>>): Promise<T> {
    const r = await p;
    if (r.status >= 400) throw new ApiResponseError(r.status, r.body, r.headers);
    return r.body;
  }
  private post<T = any>(path: string, body: unknown) {
    return this.ok<T>(this.client.raw<T>('POST', path, { body }));
  }
  private get<T = any>(path: string, query?: Record<string, string | number | undefined>) {
    return this.ok<T>(this.client.raw<T>('GET', path, { query }));
  }

  // compat-a
  models() {
    return this.get(I.models.path);
  }
  chat(body: { model: string; messages: ChatMessage[]; max_tokens?: number }) {
    return this.post(I.chatCompletions.path, body);
  }
  /** Streams the reply: `onDelta` gets each piece of text; resolves with usage and finish reason. */
  async chatStream(
    body: { model: string; messages: ChatMessage[]; max_tokens?: number },
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
    let usage:
      | { prompt_tokens: number; completion_tokens: number; total_tokens: number }
      | undefined;
    let finish: string | undefined;
    let failure: unknown;
    const parser = createParser({
      onEvent: (ev) => {
        if (ev.data === '[DONE]') return;
        const chunk = JSON.parse(ev.data) as {
          error?: unknown;
          usage?: typeof usage;
          choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
        };
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
    return { usage, finish_reason: finish };
  }
  embed(body: { model: string; input: string | string[]; dimensions?: number }) {
    return this.post(I.embeddings.path, { ...body, encoding_format: 'float' });
  }
  async speech(body: {
    model: string;
    input: string;
    voice: string;
    response_format?: string;
    speed?: number;
  }): Promise<Buffer> {
    return this.ok<Buffer>(this.client.raw('POST', I.speech.path, { body }));
  }
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
    return this.ok(
      this.client.raw('POST', I.transcriptions.path, { raw: await multipart(fields) }),
    );
  }
  imagesGenerate(body: {
    model?: string;
    prompt: string;
    size?: string;
    n?: number;
    response_format?: 'url' | 'b64_json';
  }) {
    return this.post(I.imagesGenerate.path, body);
  }
  rerank(body: { model: string; query: string; documents: string[]; top_n?: number }) {
    return this.post(I.rerank.path, body);
  }
  async uploadFile(bytes: Uint8Array, filename: string, purpose: string) {
    return this.ok(
      this.client.raw('POST', I.uploadFile.path, {
        raw: await multipart({ purpose, file: { bytes, filename } }),
      }),
    );
  }
  files() {
    return this.get(I.uploadFile.path);
  }
  file(id: string) {
    return this.get(fillPath(I.getFile.path, { id }));
  }
  fileContent(id: string): Promise<unknown> {
    return this.get(fillPath(I.fileContent.path, { id }));
  }
  deleteFile(id: string) {
    return this.ok(this.client.raw('DELETE', fillPath(I.getFile.path, { id })));
  }
  createBatch(body: { input_file_id: string; endpoint: string; completion_window?: string }) {
    return this.post(I.createBatch.path, { completion_window: '24h', ...body });
  }
  batches() {
    return this.get(I.createBatch.path);
  }
  batch(id: string) {
    return this.get(fillPath(I.getBatch.path, { id }));
  }
  cancelBatch(id: string) {
    return this.post(fillPath(I.cancelBatch.path, { id }), {});
  }

  // compat-b and jobs
  submit(slug: string, body: Record<string, unknown>) {
    return this.ok(this.client.raw('POST', fillPath(I.submit.path, { slug }), { body }));
  }
  request(id: string) {
    return this.get(fillPath(I.request.path, { id }));
  }
  createJob(body: { model_id: string; task: string; payload?: Record<string, unknown> }) {
    return this.post<{ id: string; queue_id: string }>(I.createJob.path, body);
  }
  job(id: string) {
    return this.get(fillPath(I.getJob.path, { id }));
  }
  cancelJob(id: string) {
    return this.post(fillPath(I.cancelJob.path, { id }), {});
  }
  modelStatus() {
    return this.get(I.modelStatus.path);
  }

  // workflows
  createWorkflow(body: { name: string; dag: unknown }) {
    return this.post(I.createWorkflow.path, body);
  }
  execute(workflowId: string, input_params: Record<string, unknown>) {
    return this.post(fillPath(I.execute.path, { id: workflowId }), { input_params });
  }
  execution(id: string) {
    return this.get(fillPath(I.getExecution.path, { execId: id }));
  }
  cancelExecution(id: string) {
    return this.post(fillPath(I.cancelExecution.path, { execId: id }), {});
  }

  // organisations
  organizations() {
    return this.get<{ data: { id: string; name: string; plan: string }[] }>(I.organizations.path);
  }
  createOrgToken(orgId: string, body: { name: string; scopes: string[] }) {
    return this.post(fillPath(I.orgTokens.path, { orgId }), body);
  }
  orgTokens(orgId: string) {
    return this.get(fillPath(I.orgTokens.path, { orgId }));
  }
  revokeOrgToken(orgId: string, tokenId: string) {
    return this.post(fillPath(I.revokeOrgToken.path, { orgId, tokenId }), {});
  }
  usage(orgId: string, query: { start?: number; end?: number } = {}) {
    return this.get(fillPath(I.orgUsage.path, { orgId }), query);
  }
}
