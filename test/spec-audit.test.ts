import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AvatarClient } from '../src/client/client.js';
import { addBox } from '../src/emulator/fleet/spawn.js';
import { useEmulator } from './helpers/emulator.js';

/** Issue 22: the deviations an independent audit of the spec found, one block per item. */

const ORIGIN = 'http://app.test';
const hook = { hook: 'https://tenant.example/hook', tok: 't' };
const tool = (name: string, description = 'does a thing') => ({
  name,
  description,
  input_schema: { type: 'object', properties: {} },
});
const emoji = (n: number) => '😀'.repeat(n);

describe('the control plane', () => {
  const h = useEmulator({
    seats: 50,
    mintRatePerMinute: 0,
    planLimits: { free: { concurrency: 1000, maxCapSeconds: 3600 } },
  });
  let dash: AvatarClient;
  let pk: AvatarClient;
  let other: AvatarClient;
  let avatarId = '';
  let versionId = '';
  let voiceVersionId = '';
  beforeAll(async () => {
    dash = h.as(h.emu.keys.dashboardKey);
    const p = await h.client.call('tokens.create', {
      body: { name: 'web', kind: 'publishable', allowedOrigins: [ORIGIN] },
    });
    pk = h.as(p.body.token, ORIGIN);
    const ws2 = await dash.call('workspaces.create', { body: { name: 'other' } });
    other = h.as(
      (await dash.call('tokens.create', { body: { name: 'k2', workspaceId: ws2.body.id } })).body
        .token,
    );
    const a = await h.client.call('avatars.create', { body: { name: 'mine', kind: 'custom' } });
    avatarId = a.body.id;
    versionId = (
      await h.client.call('versions.create', {
        params: { avatarId },
        body: { source_persona: 'ava' },
      })
    ).body.id;
    const voice = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/voices`, {
      body: { name: 'v' },
    });
    voiceVersionId = (
      await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/voices/${voice.body.id}/versions`, {
        body: {},
      })
    ).body.id;
  });
  const mint = (c: AvatarClient, body: Record<string, unknown>) =>
    c.send('sessions.mint', { body });
  const release = (c: AvatarClient, m: { session_id: string }) =>
    c.call('sessions.release', { params: { sessionId: m.session_id }, body: {} });

  it('item 1: every exclusive pair of avatar_id, avatar_ref and persona answers its documented code', async () => {
    const pairs: [Record<string, unknown>, string][] = [
      [
        { avatar_ref: crypto.randomUUID(), avatar_id: crypto.randomUUID() },
        'avatar_ref_avatar_id_exclusive',
      ],
      [{ avatar_ref: crypto.randomUUID(), persona: 'ava' }, 'avatar_ref_persona_exclusive'],
      [{ avatar_id: crypto.randomUUID(), persona: 'ava' }, 'avatar_ref_persona_exclusive'],
      [
        { avatar_id: crypto.randomUUID(), avatar_ref: crypto.randomUUID(), persona: 'ava' },
        'avatar_ref_avatar_id_exclusive',
      ],
    ];
    for (const [body, code] of pairs) {
      const r = await mint(h.client, body);
      expect({ sent: Object.keys(body), status: r.status, error: r.body.error }).toEqual({
        sent: Object.keys(body),
        status: 400,
        error: code,
      });
    }
  });

  it('item 3: an empty or null config (or an empty context) is not sent, so a publishable key may mint with it', async () => {
    for (const extra of [
      { config: {} },
      { config: null },
      { config: { greeting_enabled: null } },
      { context: {} },
      { context: null },
    ]) {
      const r = await mint(pk, { persona: 'ava', ...extra });
      expect({ extra, status: r.status, error: r.body.error }).toEqual({
        extra,
        status: 201,
        error: undefined,
      });
      await release(h.client, r.body);
    }
    // Something set is still a behaviour override.
    expect(
      (await mint(pk, { persona: 'ava', config: { greeting_enabled: false } })).body.error,
    ).toBe('tools_context_not_allowed');
    expect((await mint(pk, { persona: 'ava', context: { backstory: '' } })).body.error).toBe(
      'tools_context_not_allowed',
    );
  });

  it('item 4: limits in chars count characters (code points), not UTF-16 units, and say characters', async () => {
    // 20,481 emoji are 40,962 UTF-16 units (a 40,960 limit counted wrongly) and 81,924 bytes
    // (under the 128 KB of tools plus context, a byte limit that still holds).
    const ok = [
      { context: { system_prompt: emoji(20_481) } },
      { context: { backstory: emoji(16_384) } },
      { context: { memory_block: emoji(4_096) } },
      { extra_system_prompt: emoji(2_048) },
      { extra_backstory: emoji(1_024), extra_system_prompt: emoji(2_048) },
      { agent: hook, tools: { inline: [tool('t', emoji(300))] } },
    ];
    for (const extra of ok) {
      const r = await mint(h.client, { persona: 'ava', ...extra });
      expect({ field: Object.keys(extra), status: r.status, error: r.body.error }).toEqual({
        field: Object.keys(extra),
        status: 201,
        error: undefined,
      });
      await release(h.client, r.body);
    }
    const sp = await mint(h.client, { persona: 'ava', context: { system_prompt: emoji(40_961) } });
    expect(sp.body).toMatchObject({
      error: 'invalid_context_system_prompt',
      message: expect.stringContaining('40960 characters'),
    });
    const es = await mint(h.client, { persona: 'ava', extra_system_prompt: emoji(2_049) });
    expect(es.body).toMatchObject({
      error: 'invalid_request',
      detail: 'extra_system_prompt: at most 2048 characters',
    });
    const both = await mint(h.client, {
      persona: 'ava',
      extra_system_prompt: emoji(2_048),
      extra_backstory: emoji(1_025),
    });
    expect(both.body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringContaining('3072 characters'),
    });
    const desc = await mint(h.client, {
      persona: 'ava',
      agent: hook,
      tools: { inline: [tool('t', emoji(301))] },
    });
    expect(desc.body.error).toBe('invalid_tool_description:t');
    // Profiles share the mint's context limits (docs/fidelity.md).
    const prof = await h.api(`/api/v1/avatars/${avatarId}/profiles`, {
      body: { system_prompt: emoji(40_960), backstory: emoji(16_384) },
    });
    expect(prof.status).toBe(201);
    const over = await h.api(`/api/v1/avatars/${avatarId}/profiles`, {
      body: { backstory: emoji(16_385) },
    });
    expect(over.body).toMatchObject({
      error: 'invalid_request',
      detail: 'backstory: at most 16384 characters',
    });
  });

  it('item 5: a workspace-bound key sees only its workspace sessions; workspace-less ones are for unbound keys', async () => {
    const s = (await mint(dash, { persona: 'ava' })).body;
    expect(s.status).toBe('ready');
    for (const c of [h.client, other]) {
      expect(
        (await c.send('sessions.get', { params: { sessionId: s.session_id } })).body.error,
      ).toBe('forbidden');
      expect(
        (await c.send('sessions.transcript', { params: { sessionId: s.session_id } })).body.error,
      ).toBe('forbidden');
      expect(
        (await c.send('sessions.release', { params: { sessionId: s.session_id }, body: {} })).body
          .error,
      ).toBe('forbidden');
    }
    expect((await dash.send('sessions.get', { params: { sessionId: s.session_id } })).status).toBe(
      200,
    );
    await release(dash, s);
    const del = await h.client.send('sessions.delete', { params: { sessionId: s.session_id } });
    expect(del).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(
      (await dash.call('sessions.get', { params: { sessionId: s.session_id } })).body.status,
    ).toBe('ended');
    expect(
      (await dash.send('sessions.delete', { params: { sessionId: s.session_id } })).status,
    ).toBe(204);
    // Another workspace's session: 403 on every route, as the transcript always was.
    const mine = (await mint(h.client, { persona: 'ava' })).body;
    expect(
      (await other.send('sessions.get', { params: { sessionId: mine.session_id } })).status,
    ).toBe(403);
    expect(
      (await dash.send('sessions.get', { params: { sessionId: mine.session_id } })).status,
    ).toBe(200);
    await release(h.client, mine);
    expect(
      (await other.send('sessions.delete', { params: { sessionId: mine.session_id } })).status,
    ).toBe(403);
    expect(
      (await h.client.send('sessions.get', { params: { sessionId: crypto.randomUUID() } })).status,
    ).toBe(404);
  });

  it('item 6: an unbound key without workspace_id gets workspace_id_required for every field that needs a workspace', async () => {
    const needing: Record<string, unknown>[] = [
      { avatar_id: avatarId },
      { avatar_ref: versionId },
      { persona: 'ava', voice_ref: voiceVersionId },
      { persona: 'ava', agent: hook, tools: { inline: [tool('t')] } },
      { persona: 'ava', agent: hook, extra_tools: { inline: [tool('t')] } },
      { persona: 'ava', tools: { servers: ['mcps_x'] } },
      { persona: 'ava', agent: hook },
      { persona: 'ava', context: { memory_id: 'm1' } },
      { persona: 'ava', recording: true },
      { persona: 'ava', observability: true },
    ];
    for (const body of needing) {
      const r = await mint(dash, body);
      expect({ sent: Object.keys(body), status: r.status, error: r.body.error }).toEqual({
        sent: Object.keys(body),
        status: 400,
        error: 'workspace_id_required',
      });
    }
    // The same mints name the workspace and pass.
    const ws = h.emu.keys.workspaceId;
    for (const body of [
      { avatar_id: avatarId },
      { persona: 'ava', agent: hook, tools: { inline: [tool('t')] } },
    ]) {
      const r = await mint(dash, { ...body, workspace_id: ws });
      expect(r.status).toBe(201);
      await release(dash, r.body);
    }
    // What needs no workspace still works without one.
    const plain = await mint(dash, {
      persona: 'ava',
      context: { backstory: 'b' },
      config: { greeting_enabled: false },
    });
    expect(plain.status).toBe(201);
    await release(dash, plain.body);
  });

  it('item 7: creating a version needs avatars:write (spec 4.7), not user:write', async () => {
    const mk = async (scopes: string[]) =>
      h.as((await h.client.call('tokens.create', { body: { name: 'k', scopes } })).body.token);
    const userWriter = await mk(['user:write', 'user:read']);
    const r = await userWriter.send('versions.create', { params: { avatarId }, body: {} });
    expect(r).toMatchObject({
      status: 403,
      body: { error: 'forbidden', detail: 'missing_scope:avatars:write' },
    });
    const avatarWriter = await mk(['avatars:write']);
    expect(
      (await avatarWriter.send('versions.create', { params: { avatarId }, body: {} })).status,
    ).toBe(201);
  });

  it('item 7: a known inference path with a wrong method is 405 method_not_allowed with Allow', async () => {
    for (const [method, path, allow] of [
      ['GET', '/compat-a/v1/chat/completions', 'POST'],
      ['DELETE', `/api/jobs/${crypto.randomUUID()}`, 'GET'],
      ['PUT', '/compat-a/v1/files', 'GET, POST'],
    ] as const) {
      const r = await h.fetch(path, { method, key: h.emu.keys.secretKey });
      const allowed = r.headers.get('allow')?.split(', ').sort().join(', ');
      expect({ path, status: r.status, allowed }).toEqual({ path, status: 405, allowed: allow });
      expect((await r.json()).error).toMatchObject({
        code: 'method_not_allowed',
        message: expect.any(String),
      });
    }
    // Unknown paths stay 404 in the family's format; a known one with its method still works.
    const r = await h.fetch('/compat-a/v1/nothing', { key: h.emu.keys.secretKey });
    expect(r.status).toBe(404);
    expect((await r.json()).error.code).toBe('not_found');
    expect((await h.fetch('/api/model-status', { key: h.emu.keys.secretKey })).status).toBe(200);
    expect(
      (
        await h.fetch('/api/model-status', { method: 'POST', key: h.emu.keys.secretKey })
      ).headers.get('allow'),
    ).toBe('GET');
  });
});

describe('item 2: a mint offering several protocols takes any free seat that speaks one', () => {
  const h = useEmulator({
    boxes: 0,
    mintRatePerMinute: 0,
    planLimits: { free: { concurrency: 1000, maxCapSeconds: 3600 } },
  });
  const mint = (body: Record<string, unknown>) =>
    h.client.send('sessions.mint', { body: { persona: 'ava', ...body } });
  const release = (m: { session_id: string }) =>
    h.client.call('sessions.release', { params: { sessionId: m.session_id }, body: {} });
  const claims = (m: { session_token: string }) =>
    decodeJwt(m.session_token) as { aud: string; session: { protocol: number } };

  it('seats [1, 2] on a free v1 seat while the v2 box is full, on v2 when a v2 seat is free; a queued one claims either', async () => {
    const v1Box = await addBox(h.emu.ctx, { seats: 2, protocols: [1] });
    const v2Box = await addBox(h.emu.ctx, { seats: 1, protocols: [1, 2] });
    const full = (await mint({ protocol_versions: [2] })).body;
    expect(full.connect_url).toBe(v2Box.baseUrl);

    const r = await mint({ protocol_versions: [1, 2] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'ready',
      protocol_version: 1,
      connect_url: v1Box.baseUrl,
    });
    expect(claims(r.body)).toMatchObject({ aud: v1Box.id, session: { protocol: 1 } });

    // A free v2 seat is preferred over the v1 box, even with more seats free there.
    await release(full);
    const best = await mint({ protocol_versions: [2, 1] });
    expect(best.body).toMatchObject({
      status: 'ready',
      protocol_version: 2,
      connect_url: v2Box.baseUrl,
    });
    expect(claims(best.body)).toMatchObject({ aud: v2Box.id, session: { protocol: 2 } });

    // Every seat taken: the mint waits, and the first seat that frees and speaks an offer is its.
    const last = (await mint({ protocol_versions: [1] })).body;
    const q = await mint({ protocol_versions: [1, 2] });
    expect(q.body).toMatchObject({ status: 'queued', state: 'waiting' });
    await release(last);
    const s = await h.client.call('sessions.queue.status', {
      params: { ticket: q.body.queue_ticket },
    });
    expect(s.body.state).toBe('claimable');
    const c = await mint({ protocol_versions: [1, 2], queue_ticket: q.body.queue_ticket });
    expect(c.body).toMatchObject({
      status: 'ready',
      protocol_version: 1,
      connect_url: v1Box.baseUrl,
    });
    expect(claims(c.body).session.protocol).toBe(1);
    for (const m of [r.body, best.body, c.body]) await release(m);
  });
});
