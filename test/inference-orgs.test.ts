import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';
import { defaultPlanRates, RateLimiter } from '../src/emulator/inference/rate-limit/limiter.js';
import { InferenceError } from '../src/emulator/inference/shared/errors.js';

// Organisations (spec 4.12), inference keys and scopes (spec 5), per-plan rate limits
// (spec 8) with a driven clock.
const clock = new ManualClock();
const h = useEmulator({ clock });
const orgId = () => h.emu.keys.orgId;
const setPlan = (plan: string) =>
  h.op(`/_emulator/orgs/${orgId()}/plan`, { method: 'POST', body: JSON.stringify({ plan }) });
const token = async (scopes: string[]) => {
  const r = await h.api(`/api/organizations/${orgId()}/tokens`, {
    key: h.emu.keys.dashboardKey,
    body: { name: `t ${scopes.join(' ')}`, scopes },
  });
  expect(r.status).toBe(201);
  return r.body as {
    token: { id: string; name: string; scopes: string[]; status: string };
    secret: string;
  };
};
/** Fresh minute for each test: the window slides with the clock. */
const nextMinute = () => clock.advance(61_000);

describe('organisation tokens and scopes', () => {
  it('creates a token whose secret is shown once and works as an inference key', async () => {
    nextMinute();
    const t = await token(['user:read']);
    expect(t.token).toMatchObject({ scopes: ['user:read'], status: 'active' });
    expect(t.secret).toMatch(/^inf_[0-9a-f]{8}\.[0-9a-f]{56}$/);
    const list = await h.api(`/api/organizations/${orgId()}/tokens`, {
      key: h.emu.keys.dashboardKey,
    });
    expect(JSON.stringify(list.body)).not.toContain(t.secret);
    expect(list.body.data.some((x: { id: string }) => x.id === t.token.id)).toBe(true);
    // user:read reads, but may not submit work or manage the organisation.
    expect((await h.api('/api/model-status', { key: t.secret })).status).toBe(200);
    const write = await h.api('/api/jobs', {
      key: t.secret,
      body: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'x' } },
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({ code: 'forbidden', type: 'permission_error' });
    expect((await h.api(`/api/organizations/${orgId()}/usage`, { key: t.secret })).status).toBe(
      403,
    );
    // Revoked tokens stop working at once.
    await h.api(`/api/organizations/${orgId()}/tokens/${t.token.id}/revoke`, {
      key: h.emu.keys.dashboardKey,
      method: 'POST',
    });
    expect((await h.api('/api/model-status', { key: t.secret })).status).toBe(401);
  });

  it('refuses unknown scopes and other organisations', async () => {
    nextMinute();
    const bad = await h.api(`/api/organizations/${orgId()}/tokens`, {
      key: h.emu.keys.dashboardKey,
      body: { name: 'x', scopes: ['root'] },
    });
    expect(bad.status).toBe(400);
    const other = await h.api('/api/organizations/00000000-0000-4000-8000-000000000000/tokens', {
      key: h.emu.keys.dashboardKey,
      body: { name: 'x', scopes: ['user:read'] },
    });
    expect(other.status).toBe(404);
  });

  it('aggregates usage by model and day', async () => {
    nextMinute();
    const w = await token(['user:write']);
    await h.api('/compat-a/v1/embeddings', {
      key: w.secret,
      body: { model: 'avatar-embed', input: 'one two three' },
    });
    await h.api('/compat-a/v1/images/generations', {
      key: w.secret,
      body: { model: 'avatar-image', prompt: 'x', size: '64x64', n: 2 },
    });
    await h.api('/compat-a/v1/embeddings', {
      key: w.secret,
      body: { model: 'no-such', input: 'x' },
    });
    const u = await h.api(`/api/organizations/${orgId()}/usage`, { key: h.emu.keys.dashboardKey });
    expect(u.status).toBe(200);
    const embed = u.body.by_model.find((m: { model_id: string }) => m.model_id === 'avatar-embed');
    expect(embed).toMatchObject({ job_submissions: 1, prompt_tokens: 3 });
    expect(
      u.body.by_model.find((m: { model_id: string }) => m.model_id === 'avatar-image').images,
    ).toBe(2);
    expect(u.body.totals.errors).toBeGreaterThanOrEqual(1);
    expect(u.body.by_day[0].date).toBe(new Date(clock.now()).toISOString().slice(0, 10));
  });
});

describe('rate limits per plan (spec 8)', () => {
  const submit = (key: string) =>
    h.api('/api/jobs', {
      key,
      body: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'x' } },
    });
  const read = (key: string) => h.api('/api/model-status', { key });

  it.each([
    ['free', 60, 10],
    ['pro', 600, 100],
  ])(
    'over HTTP, %s: %i API requests and %i job submissions a minute, then 429 rate_limit with Retry-After',
    async (plan, api, jobs) => {
      expect((await setPlan(plan)).status).toBe(200);
      nextMinute();
      const key = h.emu.keys.dashboardKey;
      for (let i = 0; i < jobs; i++) expect((await submit(key)).status).toBe(201);
      clock.advance(20_000);
      const over = await submit(key);
      expect(over.status).toBe(429);
      expect(over.body.error).toMatchObject({ code: 'rate_limit', type: 'rate_limit_error' });
      expect(over.headers.get('retry-after')).toBe('40');
      // Job submissions and API requests are counted apart.
      for (let i = 0; i < api; i++) expect((await read(key)).status).toBe(200);
      const readOver = await read(key);
      expect(readOver.status).toBe(429);
      expect(Number(readOver.headers.get('retry-after'))).toBe(60);
      // The window slides: 40 s later the first submissions have left it.
      clock.advance(40_000);
      expect((await submit(key)).status).toBe(201);
    },
    60_000,
  );

  it.each([
    ['free', 60, 10],
    ['pro', 600, 100],
    ['enterprise', 6000, 1000],
  ])(
    'the limiter gives %s %i API requests and %i job submissions per sliding minute',
    (plan, api, jobs) => {
      const c = new ManualClock();
      const limiter = new RateLimiter(c, defaultPlanRates);
      for (const [cls, limit] of [
        ['api', api],
        ['jobs', jobs],
      ] as const) {
        for (let i = 0; i < limit; i++) limiter.admit('org', plan, cls);
        let err: unknown;
        try {
          limiter.admit('org', plan, cls);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(InferenceError);
        expect((err as InferenceError).toBody().error).toMatchObject({
          code: 'rate_limit',
          type: 'rate_limit_error',
        });
        expect((err as InferenceError).opts.headers).toEqual({ 'Retry-After': '60' });
        limiter.admit('other-org', plan, cls); // per organisation
      }
      c.advance(60_000);
      limiter.admit('org', plan, 'jobs');
    },
  );

  it('counts POSTs to compat-a and workflow execution as job submissions, GETs as API requests', async () => {
    await setPlan('free');
    nextMinute();
    const key = h.emu.keys.dashboardKey;
    for (let i = 0; i < 10; i++)
      expect(
        (
          await h.api('/compat-a/v1/embeddings', {
            key,
            body: { model: 'avatar-embed', input: 'x' },
          })
        ).status,
      ).toBe(200);
    expect((await h.api('/compat-b/embed-v1', { key, body: { input: 'x' } })).status).toBe(429);
    expect((await h.api('/compat-a/v1/models', { key })).status).toBe(200);
    const wf = await h.api('/api/workflows', {
      key,
      body: {
        name: 'w',
        dag: {
          nodes: { a: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'x' } } },
          edges: [],
        },
      },
    });
    expect(wf.status).toBe(201);
    expect(
      (await h.api(`/api/workflows/${wf.body.workflow.id}/execute`, { key, body: {} })).status,
    ).toBe(429);
  });
});
