import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';

// An OpenAI-compatible upstream replacing one model id (option inferenceUpstreams). The
// upstream here is a second emulator on loopback: requests for `big-chat` on the first are
// answered by the second's `avatar-chat`, streamed or not, errors included.
let upstream: RunningEmulator;
let front: RunningEmulator;

beforeAll(async () => {
  upstream = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    inMemory: true,
    inferenceRateLimits: false,
  });
  front = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    inMemory: true,
    inferenceRateLimits: false,
    inferenceUpstreams: {
      'big-chat': {
        baseUrl: `${upstream.baseUrl}/compat-a/v1`,
        apiKey: upstream.keys.dashboardKey,
        model: 'avatar-chat',
      },
      'broken-embed': { baseUrl: 'http://127.0.0.1:9/v1' },
    },
  });
});
afterAll(async () => {
  await front?.stop();
  await upstream?.stop();
});

const client = () =>
  new OpenAI({
    baseURL: `${front.baseUrl}/compat-a/v1`,
    apiKey: front.keys.dashboardKey,
    maxRetries: 0,
  });

describe('upstream per model id', () => {
  it('forwards chat for that model id and lists it among the models', async () => {
    const messages = [{ role: 'user' as const, content: 'Hello, who are you?' }];
    const viaFront = await client().chat.completions.create({ model: 'big-chat', messages });
    const direct = await new OpenAI({
      baseURL: `${upstream.baseUrl}/compat-a/v1`,
      apiKey: upstream.keys.dashboardKey,
      maxRetries: 0,
    }).chat.completions.create({
      model: 'avatar-chat',
      messages,
    });
    expect(viaFront.model).toBe('avatar-chat'); // the upstream's answer, as is
    expect(viaFront.choices[0]!.message.content).toBe(direct.choices[0]!.message.content);
    let streamed = '';
    for await (const c of await client().chat.completions.create({
      model: 'big-chat',
      messages,
      stream: true,
    }))
      streamed += c.choices[0]?.delta?.content ?? '';
    expect(streamed).toBe(direct.choices[0]!.message.content);
    const ids = [];
    for await (const m of client().models.list()) ids.push(m.id);
    expect(ids).toContain('big-chat');
  });

  it('an unreachable upstream is 502 upstream_error', async () => {
    const err = await client()
      .embeddings.create({ model: 'broken-embed', input: 'x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'upstream_error',
    });
  });
});
