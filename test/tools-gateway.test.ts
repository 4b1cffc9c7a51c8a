import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { readSessionTools, type ToolCallInput } from '../src/emulator/tools/gateway.js';
import { toolGateway } from '../src/emulator/tools/gateway-routes.js';
import { useEmulator } from './helpers/emulator.js';
import { startHookServer } from './helpers/hook-server.js';
import { startMcpServer } from './helpers/mcp-server.js';
import { startReceiver } from './helpers/webhook-receiver.js';
import { waitUntil } from './helpers/wait.js';

/**
 * The gateway (spec 6.2 steps 3, 7, 8; 6.3; 7 wire errors) against a real local hook and a
 * real SDK MCP server on loopback; time (timeouts, webhook retries) on a ManualClock.
 */
const clock = new ManualClock(Date.UTC(2030, 0, 1));
const h = useEmulator({
  clock,
  allowInsecureUrls: true,
  seats: 50,
  pendingIdleS: 1_000_000,
  mintRatePerMinute: 0,
  planLimits: { free: { concurrency: 100, maxCapSeconds: 3600 } },
});
let hook: Awaited<ReturnType<typeof startHookServer>>;
let mcp: Awaited<ReturnType<typeof startMcpServer>>;
let rx: Awaited<ReturnType<typeof startReceiver>>;
let mcpId = '';
let whSecret = '';

beforeAll(async () => {
  hook = await startHookServer();
  mcp = await startMcpServer();
  rx = await startReceiver();
  const ws = h.emu.keys.workspaceId;
  mcpId = (
    await h.api(`/api/v1/workspaces/${ws}/mcp-servers`, { body: { name: 'w', url: mcp.url } })
  ).body.id;
  await h.api(`/api/v1/workspaces/${ws}/builtin-servers/svc.image`, {
    method: 'PUT',
    body: { enabled: true },
  });
  whSecret = (
    await h.api(`/api/v1/workspaces/${ws}/webhooks`, {
      body: { url: rx.url, events: ['agent.tool_call.*'] },
    })
  ).body.secret;
});
afterAll(async () => {
  await hook.close();
  await mcp.close();
  await rx.close();
});

const inline = [
  {
    name: 'lookup',
    description: 'Look up an order',
    input_schema: { type: 'object', properties: { id: { type: 'string' } } },
    idempotent: true,
  },
  { name: 'slow', description: 'Slow thing', input_schema: { type: 'object' }, timeout_ms: 1000 },
];

async function session(maxCalls = 20) {
  const r = await h.api('/api/v1/sessions', {
    body: {
      persona: 'ava',
      agent: { hook: hook.url, tok: 'hook-tok', conv: 'conv-7' },
      tools: { servers: [mcpId, 'svc.image'], inline, max_calls: maxCalls },
    },
  });
  expect(r.status).toBe(201);
  return readSessionTools(h.emu.ctx, r.body.session_id)!;
}

let n = 0;
const call = (
  tool: string,
  args: Record<string, unknown> = {},
  idem = `idem-${++n}`,
): ToolCallInput => ({
  call_id: `call-${n}`,
  idem,
  tool,
  args,
  history: [{ role: 'user', content: 'where is my order?' }],
});

describe('tool calls through the gateway', () => {
  beforeEach(() => hook.clear());
  it('forwards to the hook with the bearer and the envelope; records and reports the call', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    const text = await gw.call(s, call('lookup', { id: 'A1' }));
    expect(JSON.parse(text)).toEqual({
      ok: true,
      status: 'done',
      result: { kind: 'tool', text: 'lookup says {"id":"A1"}' },
    });
    const req = hook.ops('tool_call').at(-1)!;
    expect(req.headers.authorization).toBe('Bearer hook-tok');
    expect(req.body).toMatchObject({
      v: 1,
      op: 'tool_call',
      conv: 'conv-7',
      sid: s.sessionId,
      ts: Math.floor(clock.now() / 1000),
      tool: 'lookup',
      args: { id: 'A1' },
    });
    expect(req.body.call_id).toBeTruthy();
    expect(req.body.idem).toBeTruthy();
    expect(req.body.history).toEqual([{ role: 'user', content: 'where is my order?' }]);
    const row = h.emu.ctx.db
      .prepare('SELECT tool, source, ok FROM session_tool_calls WHERE session_id = ?')
      .get(s.sessionId);
    expect(row).toEqual({ tool: 'lookup', source: 'hook', ok: 1 });
    await waitUntil(() =>
      rx.events('agent.tool_call.succeeded').some((d) => d.body.data.session_id === s.sessionId),
    );
    const d = rx
      .events('agent.tool_call.succeeded')
      .find((x) => x.body.data.session_id === s.sessionId)!;
    expect(d.verify(whSecret)).toBe(true);
    expect(d.body.data).toEqual({
      session_id: s.sessionId,
      conv: 'conv-7',
      tool: 'lookup',
      source: 'hook',
      ok: true,
      ms: 0,
      result: { kind: 'tool', text: 'lookup says {"id":"A1"}' },
    });
  });

  it('a repeated idem replays the stored answer byte for byte, without the hook and without budget', async () => {
    const s = await session(2);
    const gw = toolGateway(h.emu.ctx);
    const first = await gw.call(s, call('lookup', { id: 'B' }, 'same'));
    const before = hook.ops('tool_call').length;
    const again = await gw.call(s, {
      ...call('lookup', { id: 'B' }, 'same'),
      call_id: 'another-call-id',
    });
    expect(again).toBe(first);
    expect(hook.ops('tool_call').length).toBe(before);
    expect(gw.state(s.sessionId, 2).spent).toBe(1);
    expect(JSON.parse(await gw.call(s, call('lookup'))).ok).toBe(true);
    // the budget: max_calls 2 spent
    expect(JSON.parse(await gw.call(s, call('lookup')))).toMatchObject({
      ok: false,
      error: 'budget_exhausted',
    });
  });

  it('unknown_tool and builtin_tool_is_local', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    expect(JSON.parse(await gw.call(s, call('nope')))).toMatchObject({
      ok: false,
      error: 'unknown_tool',
    });
    expect(JSON.parse(await gw.call(s, call('generate_image', { prompt: 'a cat' })))).toMatchObject(
      { ok: false, error: 'builtin_tool_is_local' },
    );
  });

  it('MCP tools: tools/call with _meta svc/conv, svc/sid, svc/history; a tool error is tool_error', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    const r = JSON.parse(await gw.call(s, call('get_weather', { city: 'Oslo' })));
    expect(r).toEqual({
      ok: true,
      status: 'done',
      result: { kind: 'tool', text: 'Sunny and 21 degrees in Oslo.' },
    });
    expect(mcp.calls.at(-1)!.meta).toMatchObject({
      'svc/conv': 'conv-7',
      'svc/sid': s.sessionId,
      'svc/history': [{ role: 'user', content: 'where is my order?' }],
    });
    mcp.state.toolError = true;
    try {
      expect(JSON.parse(await gw.call(s, call('get_weather', { city: 'Nowhere' })))).toMatchObject({
        ok: false,
        error: 'tool_error',
        message: 'no weather for Nowhere',
      });
    } finally {
      mcp.state.toolError = false;
    }
  });

  it('an MCP server disabled after the mint answers server_disabled, without spending budget', async () => {
    const ws = h.emu.keys.workspaceId;
    const id = (
      await h.api(`/api/v1/workspaces/${ws}/mcp-servers`, {
        body: { name: 'later-off', url: mcp.url },
      })
    ).body.id;
    const r = await h.api('/api/v1/sessions', {
      body: { persona: 'ava', tools: { servers: [id] } },
    });
    const s = readSessionTools(h.emu.ctx, r.body.session_id)!;
    await h.api(`/api/v1/workspaces/${ws}/mcp-servers/${id}`, {
      method: 'PATCH',
      body: { status: 'disabled' },
    });
    const gw = toolGateway(h.emu.ctx);
    expect(JSON.parse(await gw.call(s, call('get_weather', { city: 'Rome' })))).toMatchObject({
      ok: false,
      error: 'server_disabled',
    });
    expect(gw.state(s.sessionId, 20).spent).toBe(0);
  });

  it('history: false keeps svc/history out of the MCP _meta', async () => {
    const r = await h.api('/api/v1/sessions', {
      body: { persona: 'ava', tools: { servers: [mcpId], history: false } },
    });
    const s = readSessionTools(h.emu.ctx, r.body.session_id)!;
    await toolGateway(h.emu.ctx).call(s, call('get_weather', { city: 'Bergen' }));
    const meta = mcp.calls.at(-1)!.meta!;
    expect(meta['svc/sid']).toBe(s.sessionId);
    expect(meta).not.toHaveProperty('svc/history');
  });

  it('timeout_ms on the clock: a hook that never answers is timeout', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next('hang');
    const p = gw.call(s, call('slow'));
    await waitUntil(() => hook.ops('tool_call').some((r) => r.body.sid === s.sessionId));
    clock.advance(999);
    clock.advance(1);
    expect(JSON.parse(await p)).toMatchObject({ ok: false, error: 'timeout' });
  });

  it('a 4xx disables the channel at once; the session goes on with server_disabled', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next({ status: 403, json: { error: 'nope' } });
    expect(JSON.parse(await gw.call(s, call('slow')))).toMatchObject({
      ok: false,
      error: 'tool_error',
    });
    expect(JSON.parse(await gw.call(s, call('slow')))).toMatchObject({
      ok: false,
      error: 'server_disabled',
    });
    expect((await h.api(`/api/v1/sessions/${s.sessionId}`)).body.status).not.toBe('ended');
  });

  it('three consecutive 5xx disable it; a success between resets the count', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next(
      { status: 500 },
      { status: 502 },
      { json: { ok: true, status: 'done', result: { kind: 'tool', text: 'ok' } } },
      { status: 500 },
      { status: 500 },
      { status: 503 },
    );
    for (let i = 0; i < 5; i++) await gw.call(s, call('slow'));
    expect(gw.state(s.sessionId, 20).disabled).toBeNull();
    expect(JSON.parse(await gw.call(s, call('slow')))).toMatchObject({ error: 'tool_error' });
    expect(gw.state(s.sessionId, 20).disabled).toMatch(/3 consecutive/);
    expect(JSON.parse(await gw.call(s, call('slow')))).toMatchObject({ error: 'server_disabled' });
  });

  it('three consecutive transport failures or timeouts disable the channel too (spec 6.2 step 8)', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next('drop', 'drop');
    for (let i = 0; i < 2; i++)
      expect(JSON.parse(await gw.call(s, call('slow')))).toMatchObject({ error: 'tool_error' });
    expect(gw.state(s.sessionId, 20).disabled).toBeNull();
    hook.next('hang');
    const p = gw.call(s, call('slow'));
    await waitUntil(
      () => hook.ops('tool_call').filter((r) => r.body.sid === s.sessionId).length === 3,
    );
    clock.advance(1000);
    expect(JSON.parse(await p)).toMatchObject({ error: 'timeout' });
    expect(gw.state(s.sessionId, 20).disabled).toMatch(/3 consecutive/);
    const before = hook.ops('tool_call').length;
    expect(JSON.parse(await gw.call(s, call('lookup')))).toMatchObject({
      ok: false,
      error: 'server_disabled',
    });
    expect(hook.ops('tool_call').length).toBe(before);
  });

  it('an MCP server answering 4xx to tools/call disables the channel at once', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    mcp.state.failStatus = 403;
    try {
      expect(JSON.parse(await gw.call(s, call('get_weather', { city: 'Oslo' })))).toMatchObject({
        ok: false,
        error: 'tool_error',
      });
    } finally {
      mcp.state.failStatus = 0;
    }
    expect(gw.state(s.sessionId, 20).disabled).toMatch(/^4xx/);
    expect(JSON.parse(await gw.call(s, call('get_weather', { city: 'Oslo' })))).toMatchObject({
      error: 'server_disabled',
    });
  });

  it('a stored failure is replayed byte for byte too, without a second webhook', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next({ json: { ok: false, error: 'out of stock' } });
    const first = await gw.call(s, call('slow', {}, 'fail-once'));
    expect(JSON.parse(first)).toMatchObject({ error: 'tool_error', message: 'out of stock' });
    await waitUntil(() =>
      rx.events('agent.tool_call.failed').some((d) => d.body.data.session_id === s.sessionId),
    );
    expect(await gw.call(s, call('slow', {}, 'fail-once'))).toBe(first);
    expect(gw.state(s.sessionId, 20).spent).toBe(1);
    // a later call's webhook is delivered: the replay sent none before it
    await gw.call(s, call('slow', {}, 'after-replay'));
    await waitUntil(() =>
      rx.events('agent.tool_call.succeeded').some((d) => d.body.data.session_id === s.sessionId),
    );
    expect(
      rx.events('agent.tool_call.failed').filter((d) => d.body.data.session_id === s.sessionId),
    ).toHaveLength(1);
  });

  it('an idempotent tool is retried once after a transport error; a non-idempotent one is not', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next('drop');
    const r = JSON.parse(await gw.call(s, call('lookup', { id: 'R' })));
    expect(r).toMatchObject({ ok: true, result: { text: 'lookup says {"id":"R"}' } });
    hook.next('drop', {
      json: { ok: true, status: 'done', result: { kind: 'tool', text: 'never' } },
    });
    expect(JSON.parse(await gw.call(s, call('slow')))).toMatchObject({
      ok: false,
      error: 'tool_error',
    });
  });

  it('an answer that is not ok/done/object result is a failure carrying the hook error (300 chars)', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    hook.next({ json: { ok: false, error: 'x'.repeat(400) } });
    const r = JSON.parse(await gw.call(s, call('slow')));
    expect(r).toMatchObject({ ok: false, error: 'tool_error' });
    expect(r.message).toBe('x'.repeat(300));
    hook.next({
      json: {
        ok: true,
        status: 'done',
        result: { kind: 'tool', structured: { big: 'y'.repeat(2000) } },
      },
    });
    const big = JSON.parse(await gw.call(s, call('slow')));
    expect(big.result.structured).toHaveLength(800);
  });

  it('a built-in call the box reports is a usage record of the organisation; a replayed report is not counted again', async () => {
    const s = await session();
    const usage = async () => {
      const r = await h.api(`/api/organizations/${h.emu.keys.orgId}/usage`, {
        key: h.emu.keys.dashboardKey,
      });
      expect(r.status).toBe(200);
      return r.body.builtin_tools as {
        calls: number;
        succeeded: number;
        failed: number;
        images: number;
        by_tool: { server: string; tool: string; calls: number }[];
        by_day: { date: string; calls: number }[];
      };
    };
    const before = await usage();
    const byTool = (u: typeof before, tool: string) =>
      u.by_tool.find((t) => t.server === 'svc.image' && t.tool === tool)?.calls ?? 0;
    const gw = toolGateway(h.emu.ctx);
    const image = {
      ...call('generate_image', { prompt: 'a fox' }, 'usage-img'),
      ok: true,
      ms: 40,
      result: { kind: 'image', url: 'http://box/_box/images/x.png', caption: 'a fox' },
    };
    gw.report(s, image);
    gw.report(s, image); // the same idem: replayed, not a second call
    gw.report(s, {
      ...call('edit_avatar', { instruction: 'a hat' }, 'usage-edit'),
      ok: false,
      ms: 5,
      result: 'render failed',
    });
    const after = await usage();
    expect(after.calls - before.calls).toBe(2);
    expect(after.succeeded - before.succeeded).toBe(1);
    expect(after.failed - before.failed).toBe(1);
    expect(after.images - before.images).toBe(1);
    expect(byTool(after, 'generate_image') - byTool(before, 'generate_image')).toBe(1);
    expect(byTool(after, 'edit_avatar') - byTool(before, 'edit_avatar')).toBe(1);
    expect(after.by_day.at(-1)!.date).toBe(new Date(clock.now()).toISOString().slice(0, 10));
    // hook and MCP calls are not built-in usage
    await gw.call(s, call('lookup', { id: '1' }));
    expect((await usage()).calls).toBe(after.calls);
  });

  it('tool webhooks are retried after 1, 2 and 4 s on the clock', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    rx.failNext(3);
    const t0 = clock.now();
    hook.next({ status: 500 });
    await gw.call(s, call('slow'));
    const mine = () => rx.deliveries.filter((d) => d.body.data.session_id === s.sessionId);
    await waitUntil(() => mine().length === 1);
    clock.advance(1000);
    await waitUntil(() => mine().length === 2);
    clock.advance(2000);
    await waitUntil(() => mine().length === 3);
    clock.advance(4000);
    await waitUntil(() => mine().length === 4);
    expect(mine().map((d) => d.body.timestamp)).toEqual([t0, t0, t0, t0]);
    expect(mine()[3]!.body).toMatchObject({
      event: 'agent.tool_call.failed',
      data: { ok: false, source: 'hook', tool: 'slow' },
    });
  });

  it('hook ops: session_start (turn_seq_base), turn_committed with the base, session_end', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    await gw.sessionStarted(s.sessionId);
    expect(hook.ops('session_start').filter((r) => r.body.sid === s.sessionId)).toHaveLength(1);
    gw.turnCommitted(s.sessionId, { seq: 0, user_text: 'hi', reply_text: 'hello' });
    gw.turnCommitted(s.sessionId, { seq: 0, user_text: 'hi', reply_text: 'hel' });
    await waitUntil(() => hook.ops('turn_committed').some((r) => r.body.sid === s.sessionId));
    const t = hook.ops('turn_committed').filter((r) => r.body.sid === s.sessionId);
    expect(t).toHaveLength(1);
    expect(t[0]!.body).toMatchObject({
      v: 1,
      op: 'turn_committed',
      conv: 'conv-7',
      seq: 100,
      user: 'hi',
      reply: 'hello',
    });
    expect(t[0]!.headers.authorization).toBe('Bearer hook-tok');
    gw.sessionEnded(s.sessionId, 'released');
    await waitUntil(() => hook.ops('session_end').some((r) => r.body.sid === s.sessionId));
  });

  it('every hook op carries ts in Unix seconds (spec 2, 6.2)', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    const seconds = Math.floor(clock.now() / 1000);
    await gw.sessionStarted(s.sessionId);
    await gw.call(s, call('lookup', { id: 'B2' }));
    gw.turnCommitted(s.sessionId, { seq: 0, user_text: 'hi', reply_text: 'hello' });
    await waitUntil(() => hook.ops('turn_committed').some((r) => r.body.sid === s.sessionId));
    gw.sessionEnded(s.sessionId, 'released');
    await waitUntil(() => hook.ops('session_end').some((r) => r.body.sid === s.sessionId));
    const mine = hook.requests.filter((r) => r.body.sid === s.sessionId);
    expect(mine.map((r) => [r.body.op, r.body.ts])).toEqual([
      ['session_start', seconds],
      ['tool_call', seconds],
      ['turn_committed', seconds],
      ['session_end', seconds],
    ]);
  });

  it('the ledger is erased with the session and swept after 30 days', async () => {
    const s = await session();
    const gw = toolGateway(h.emu.ctx);
    await gw.call(s, call('lookup'));
    const count = () =>
      (
        h.emu.ctx.db
          .prepare('SELECT COUNT(*) AS n FROM session_tool_calls WHERE session_id = ?')
          .get(s.sessionId) as { n: number }
      ).n;
    expect(count()).toBe(1);
    // erased with the session (spec 3: ended -> deleted)
    const other = await session();
    await gw.call(other, call('lookup'));
    await h.api(`/api/v1/sessions/${other.sessionId}/release`, { body: {} });
    expect((await h.api(`/api/v1/sessions/${other.sessionId}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect(
      (
        h.emu.ctx.db
          .prepare('SELECT COUNT(*) AS n FROM session_tool_calls WHERE session_id = ?')
          .get(other.sessionId) as { n: number }
      ).n,
    ).toBe(0);
    clock.advance(29 * 24 * 3600_000);
    gw.sweep();
    expect(count()).toBe(1);
    clock.advance(2 * 24 * 3600_000);
    gw.sweep();
    expect(count()).toBe(0);
  });
});
