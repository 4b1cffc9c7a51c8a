import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyOperation } from '../src/contract/operation.js';
import { allOperations } from '../src/contract/operations/index.js';
import * as I from '../src/contract/operations/inference.js';
import {
  listGallery as gallery,
  listTokens,
  listWorkspaces,
} from '../src/contract/operations/core.js';
import { getSession, mintSession, releaseSession } from '../src/contract/operations/sessions.js';
import * as O from '../src/contract/operations/operator.js';
import { edgeCaptures, edgeHealth, edgeSessionLog } from '../src/contract/operations/boxes.js';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { openRecordedMic, until } from './helpers/edge.js';
import { ChatCompletionChunkSchema } from '../src/contract/resources/inference-responses.js';
import { AvatarClient, type CallResult } from '../src/client/client.js';
import { multipart } from '../src/client/inference.js';
import { useEmulator } from './helpers/emulator.js';

// Issue 31 item 2: every response is described in the contract, and what the emulator
// really answers matches the description (one emulator for the file, port 0).
const h = useEmulator({ inferenceRateLimits: false });

const success = (op: AnyOperation) =>
  Object.entries(op.responses)
    .map(([s, r]) => [Number(s), r] as const)
    .filter(([s]) => s >= 200 && s < 300);

/** The answer parses with the schema the contract gives its status. */
function expectDescribed(op: AnyOperation, res: CallResult<unknown>) {
  const spec = op.responses[res.status];
  expect(spec, `${op.id} answered ${res.status}, a status it does not document`).toBeDefined();
  if (!spec!.schema) {
    expect(spec!.contentType, `${op.id} ${res.status}: no schema and no contentType`).toBeDefined();
    return;
  }
  const parsed = spec!.schema.safeParse(res.body);
  expect(
    parsed.success,
    `${op.id} ${res.status}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))} in ${JSON.stringify(res.body).slice(0, 400)}`,
  ).toBe(true);
}

describe('every operation describes its answers', () => {
  it('each documented 2xx has a JSON schema or a content type (204 alone may be empty)', () => {
    const missing = allOperations.flatMap((op) =>
      success(op)
        .filter(([s, r]) => !r.schema && !r.contentType && s !== 204)
        .map(([s]) => `${op.id} ${s}`),
    );
    expect(missing).toEqual([]);
    expect(allOperations.every((op) => success(op).length > 0)).toBe(true);
  });

  it('no inference answer is an untyped JSON object any more', () => {
    const untyped = I.inferenceOperations.flatMap((op) =>
      success(op as AnyOperation)
        .filter(([, r]) => r.schema instanceof z.ZodRecord)
        .map(([s]) => `${op.id} ${s}`),
    );
    expect(untyped).toEqual([]);
  });

  it('no operator, box API or edge answer is an untyped JSON object any more', () => {
    const ours = allOperations.filter((op) =>
      ['operator', 'internal', 'edge'].includes(op.family ?? 'control'),
    );
    expect(ours.length).toBeGreaterThan(50);
    const untyped = ours.flatMap((op) =>
      success(op)
        .filter(([, r]) => r.schema instanceof z.ZodRecord)
        .map(([s]) => `${op.id} ${s}`),
    );
    expect(untyped).toEqual([]);
  });

  it('the compat-a streaming chunk is in the contract and the OpenAPI document', async () => {
    expect(I.chatCompletions.responses[200].stream.schema).toBe(ChatCompletionChunkSchema);
    const doc = (await (await h.fetch('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content: object }> }>>;
    };
    const content = doc.paths['/compat-a/v1/chat/completions']!.post!.responses['200']!
      .content as Record<string, { 'x-event-data'?: { $ref: string } }>;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(content['text/event-stream']!['x-event-data']!.$ref).toBe(
      '#/components/schemas/ChatCompletionChunk',
    );
  });
});

describe('the emulator answers what the contract describes', () => {
  const inf = () => new AvatarClient({ baseUrl: h.baseUrl, apiKey: h.emu.keys.dashboardKey });

  it('control plane and operator routes', async () => {
    const c = h.client;
    expectDescribed(gallery, await c.call(gallery));
    expectDescribed(listWorkspaces, await c.call(listWorkspaces));
    expectDescribed(listTokens, await c.call(listTokens));
    expectDescribed(O.health, await c.call(O.health));
    const minted = await c.call(mintSession, {
      body: { persona: 'ava', config: { greeting_enabled: false, render: false } },
    });
    expectDescribed(mintSession, minted);
    if (minted.body.status !== 'ready') throw new Error('expected a seat');
    const params = { sessionId: minted.body.session_id };
    expectDescribed(getSession, await c.call(getSession, { params }));
    expectDescribed(
      releaseSession,
      await c.call(releaseSession, { params, body: { seat_token: minted.body.seat_token } }),
    );
  });

  it('compat-a: models, chat (JSON and every streamed chunk), embeddings, rerank, score, images', async () => {
    const c = inf();
    expectDescribed(I.models, await c.call(I.models));
    expectDescribed(I.model, await c.call(I.model, { params: { model: 'avatar-embed' } }));
    const messages = [{ role: 'user' as const, content: 'Say hello.' }];
    const chat = await c.call(I.chatCompletions, {
      body: { model: 'avatar-chat', messages, max_tokens: 16 },
    });
    expectDescribed(I.chatCompletions, chat);
    expect(typeof chat.body.choices[0]!.message.content).toBe('string');

    const res = await h.fetch(I.chatCompletions.path, {
      method: 'POST',
      key: h.emu.keys.dashboardKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'avatar-chat',
        messages,
        max_tokens: 16,
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events
      .slice(0, -1)
      .map((e) => ChatCompletionChunkSchema.safeParse(JSON.parse(e)));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.filter((p) => !p.success).map((p) => p.error?.issues)).toEqual([]);

    expectDescribed(
      I.embeddings,
      await c.call(I.embeddings, { body: { model: 'avatar-embed', input: ['a', 'b'] } }),
    );
    expectDescribed(
      I.rerank,
      await c.call(I.rerank, {
        body: { model: 'avatar-rerank', query: 'cat', documents: ['a cat', 'a dog'] },
      }),
    );
    expectDescribed(
      I.score,
      await c.call(I.score, { body: { model: 'avatar-rerank', text_1: 'cat', text_2: ['a cat'] } }),
    );
    expectDescribed(
      I.imagesGenerate,
      await c.call(I.imagesGenerate, {
        body: { prompt: 'green hills', size: '64x64', response_format: 'b64_json' },
      }),
    );
  });

  it('compat-a files and batches', async () => {
    const c = inf();
    const line = JSON.stringify({
      custom_id: 'one',
      method: 'POST',
      url: '/v1/embeddings',
      body: { model: 'avatar-embed', input: 'hi' },
    });
    const up = await c.call(I.uploadFile, {
      raw: await multipart({
        purpose: 'batch',
        file: { bytes: new TextEncoder().encode(`${line}\n`), filename: 'in.jsonl' },
      }),
    });
    expectDescribed(I.uploadFile, up);
    const id = up.body.id;
    expectDescribed(I.listFiles, await c.call(I.listFiles));
    expectDescribed(I.getFile, await c.call(I.getFile, { params: { id } }));
    const batch = await c.call(I.createBatch, {
      body: { input_file_id: id, endpoint: '/v1/embeddings', completion_window: '24h' },
    });
    expectDescribed(I.createBatch, batch);
    expectDescribed(I.getBatch, await c.call(I.getBatch, { params: { id: batch.body.id } }));
    expectDescribed(I.listBatches, await c.call(I.listBatches));
    expectDescribed(I.deleteFile, await c.call(I.deleteFile, { params: { id } }));
  });

  it('jobs, compat-b and workflows', async () => {
    const c = inf();
    const job = await c.call(I.createJob, {
      body: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'hi' } },
    });
    expectDescribed(I.createJob, job);
    expectDescribed(I.getJob, await c.call(I.getJob, { params: { id: job.body.id } }));

    const queued = await c.call(I.submit, {
      params: { slug: 'image-v1' },
      body: { prompt: 'green hills', size: '64x64' },
    });
    expect(queued.status).toBe(202);
    expectDescribed(I.submit, queued);
    const requestId = (queued.body as { request_id: string }).request_id;
    expectDescribed(I.request, await c.call(I.request, { params: { id: requestId } }));
    expectDescribed(
      I.requestsBatch,
      await c.call(I.requestsBatch, { body: { request_ids: [requestId, 'nope'] } }),
    );

    const wf = await c.call(I.createWorkflow, {
      body: {
        name: 'wf',
        dag: {
          nodes: {
            root: { model_id: 'avatar-embed', task: 'embedding', payload: { input: '${input.t}' } },
          },
          edges: [],
        },
      },
    });
    expectDescribed(I.createWorkflow, wf);
    const params = { id: wf.body.workflow.id };
    expectDescribed(I.listWorkflows, await c.call(I.listWorkflows));
    expectDescribed(I.getWorkflow, await c.call(I.getWorkflow, { params }));
    const ex = await c.call(I.execute, { params, body: { input_params: { t: 'hi' } } });
    expectDescribed(I.execute, ex);
    expectDescribed(
      I.getExecution,
      await c.call(I.getExecution, { params: { execId: ex.body.execution.id } }),
    );
    expectDescribed(I.listExecutions, await c.call(I.listExecutions, { params }));
  });

  it('organisations and the other routes', async () => {
    const c = inf();
    const orgId = h.emu.keys.orgId;
    expectDescribed(I.organizations, await c.call(I.organizations));
    const made = await c.call(I.createOrgToken, {
      params: { orgId },
      body: { name: 'ci', scopes: ['user:read'] },
    });
    expectDescribed(I.createOrgToken, made);
    expectDescribed(I.orgTokens, await c.call(I.orgTokens, { params: { orgId } }));
    expectDescribed(
      I.revokeOrgToken,
      await c.call(I.revokeOrgToken, { params: { orgId, tokenId: made.body.token.id } }),
    );
    expectDescribed(I.orgUsage, await c.call(I.orgUsage, { params: { orgId } }));
    expectDescribed(I.modelStatus, await c.call(I.modelStatus));
    expectDescribed(I.voiceModels, await c.call(I.voiceModels));
    expectDescribed(
      I.promptRewrite,
      await c.call(I.promptRewrite, { body: { prompt: 'a cat', target: 'image' } }),
    );
  });

  it('operator routes: clock, state, logs, a trigger, faults, fleet, queue, sessions, webhooks, jobs, generations', async () => {
    const c = h.as(h.emu.operatorToken);
    for (const op of [O.clock, O.stateExport, O.faultsList, O.boxes, O.queue, O.webhookDeliveries])
      expectDescribed(op, await c.call(op as typeof O.clock));
    expectDescribed(O.logs, await c.call(O.logs, { query: { after: 0 } }));
    expectDescribed(
      O.sessionsList,
      await c.call(O.sessionsList, { query: { all: 'true', limit: 20 } }),
    );
    await inf().call(I.createJob, {
      body: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'hi' } },
    });
    const jobs = await c.call(O.jobs);
    expect(jobs.body.jobs.length).toBeGreaterThan(0);
    expectDescribed(O.jobs, jobs);
    expectDescribed(O.generations, await c.call(O.generations));
    expectDescribed(O.generationVoices, await c.call(O.generationVoices));
    expectDescribed(
      O.trigger,
      await c.call(O.trigger, { params: { name: 'drain-queue' }, body: {} }),
    );
    expectDescribed(O.queueDrain, await c.call(O.queueDrain, { body: {} }));
    const fault = await c.call(O.faultsAdd, {
      body: { route: 'GET /api/v1/none', status: 503, count: 1 },
    });
    expectDescribed(O.faultsAdd, fault);
    expect(fault.body.remaining).toBe(1);
    expectDescribed(
      O.faultsRemove,
      await c.call(O.faultsRemove, { params: { id: fault.body.id }, body: {} }),
    );
    expectDescribed(O.faultsClear, await c.call(O.faultsClear, { body: {} }));
  });

  it("a box's own routes (health, a session's log, captures) and the operator's recordings", async () => {
    const c = h.as(h.emu.operatorToken);
    const { m, mic } = await openRecordedMic(h.api);
    const box = sessionRuntime(h.emu.ctx)
      .fleet.list()
      .find((b) => m.connect_url.startsWith(b.baseUrl))!;
    // The box's routes beside /chat answer the control plane only (its callback secret).
    const boxClient = new AvatarClient({ baseUrl: box.baseUrl, apiKey: box.callbackSecret ?? '' });
    try {
      expectDescribed(edgeHealth, await boxClient.call(edgeHealth));
      expectDescribed(
        edgeSessionLog,
        await boxClient.call(edgeSessionLog, { params: { id: m.session_id } }),
      );
      mic.close();
      await until(
        () => c.call(O.recordings, { params: { id: m.session_id } }).catch(() => null),
        (r) => r !== null && r.body.data.some((f) => f.name === 'mic.wav'),
      );
      expectDescribed(O.recordings, await c.call(O.recordings, { params: { id: m.session_id } }));
      const captures = await boxClient.call(edgeCaptures, { params: { id: m.session_id } });
      expectDescribed(edgeCaptures, captures);
      expect(captures.body.data.map((f) => f.name)).toContain('mic.wav');
    } finally {
      await boxClient.close();
    }
  });
});
