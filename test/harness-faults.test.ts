import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../src/emulator/start.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { waitUntil } from './helpers/wait.js';

/**
 * Issue 18 item 6 (HTTP): a status and/or latency on the routes a fault names, at start or
 * at run time, by count or probability; each hit is logged and visible.
 */
const h = useEmulator({
  mintRatePerMinute: 0,
  faults: [{ route: 'GET /api/v1/workspaces', status: 503, count: 1 }],
});
const env = () => emulatorEnv(h);

describe('HTTP faults', () => {
  it('a fault given at start answers its status once, then the route works again', async () => {
    const first = await h.api('/api/v1/workspaces');
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ error: 'injected_fault', retryable: true });
    expect((await h.api('/api/v1/workspaces')).status).toBe(200);
  });

  it('added at run time: a 429 the openai client sees, counted, logged, listed, cleared', async () => {
    const add = await cli(
      [
        '--json',
        'emulator',
        'faults',
        'add',
        '--route',
        'POST /compat-a/v1/*',
        '--status',
        '500',
        '--count',
        '2',
      ],
      env(),
    );
    expect(add.code).toBe(0);
    const id = add.json().id;
    const client = new OpenAI({
      baseURL: `${h.baseUrl}/compat-a/v1`,
      apiKey: h.emu.keys.secretKey,
      maxRetries: 0,
    });
    const err = (await client.embeddings
      .create({ model: 'avatar-embed', input: 'x' })
      .catch((e) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(500);
    expect((err.error as { code: string }).code).toBe('injected_fault');
    await client.embeddings.create({ model: 'avatar-embed', input: 'x' }).catch(() => null);
    expect(
      (await client.embeddings.create({ model: 'avatar-embed', input: 'x' })).data.length,
    ).toBe(1);
    const list = (await cli(['--json', 'emulator', 'faults'], env())).json();
    expect(list.data).toContainEqual(expect.objectContaining({ id, hits: 2, remaining: 0 }));
    const logged = (await cli(['--json', 'emulator', 'logs'], env())).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(logged.filter((e) => e.kind === 'fault' && e.fault === id)).toHaveLength(2);
    expect((await cli(['emulator', 'faults', 'clear'], env())).code).toBe(0);
    expect((await cli(['--json', 'emulator', 'faults'], env())).json().data).toEqual([]);
  });

  it('latency waits on the emulator clock: a frozen clock holds the answer until advanced', async () => {
    await h.api('/_emulator/clock/freeze', { body: {} });
    await h.api('/_emulator/faults', {
      body: { route: '/api/v1/workspaces/{wsId}', latency_ms: 30_000, count: 1 },
    });
    let answered = false;
    const pending = h
      .api(`/api/v1/workspaces/${h.emu.keys.workspaceId}`)
      .then((r) => ((answered = true), r));
    // The operator log says when the faulted request has met its fault.
    await waitUntil(async () =>
      ((await h.api('/_emulator/logs')).body.data as { kind: string; latency_ms: number }[]).some(
        (e) => e.kind === 'fault' && e.latency_ms === 30_000,
      ),
    );
    expect(answered).toBe(false);
    await h.api('/_emulator/clock/advance', { body: { ms: 30_000 } });
    expect((await pending).status).toBe(200);
    await h.api('/_emulator/clock/resume', { body: {} });
  });

  it('probability 0 never hits; bad faults are refused naming the field, at run time and at start', async () => {
    await h.api('/_emulator/faults', {
      body: { route: 'GET /api/v1/tokens', status: 503, probability: 0 },
    });
    for (let i = 0; i < 5; i++) expect((await h.api('/api/v1/tokens')).status).toBe(200);
    const bad = await h.api('/_emulator/faults', { body: { route: 'sessions', status: 503 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^route: /);
    const neither = await h.api('/_emulator/faults', { body: { route: '/api/v1/tokens' } });
    expect(neither.body.detail).toMatch(/^status: give status, latency_ms or both/);
    await expect(
      startEmulator({ port: 0, inMemory: true, faults: [{ route: '/x', status: 200 }] }),
    ).rejects.toThrow(/^faults\.0\.status: /);
  });
});
