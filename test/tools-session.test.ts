import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSock, roundTrip, until, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';
import { checkStockTool, startHookServer } from './helpers/hook-server.js';
import { startMcpServer } from './helpers/mcp-server.js';

/**
 * Tools in a live session (spec 6.2), driven by typed turns: the box's verdict, `calling`
 * and `image` on /events, the gateway, and the follow-up in the next `turn` message.
 */
describe('tools in a session driven by typed turns', () => {
  const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0, allowInsecureUrls: true });
  let hook: Awaited<ReturnType<typeof startHookServer>>;
  let mcp: Awaited<ReturnType<typeof startMcpServer>>;
  beforeAll(async () => {
    hook = await startHookServer();
    mcp = await startMcpServer();
    await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/builtin-servers/svc.image`, {
      method: 'PUT',
      body: { enabled: true },
    });
  });
  afterAll(async () => {
    await hook.close();
    await mcp.close();
  });
  const mint = (extra: Record<string, unknown>, render = false) =>
    mintSession(h, extra, { render });
  const chat = (m: { connect_url: string; session_token: string }, text: string) =>
    fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text }),
    }).then((r) => r.json());

  it('svc.image: calling then image on /events, the picture served for an hour, the follow-up as the next turn', async () => {
    const m = await mint({ tools: { servers: ['svc.image'] } });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const ack = await chat(m, 'Please draw a picture of a lighthouse at night.');
    const calling = await events.next((x) => x.type === 'agent_event' && x.kind === 'calling');
    expect(calling).toEqual({
      type: 'agent_event',
      kind: 'calling',
      tool: 'generate_image',
      call_id: expect.any(String),
    });
    const image = await events.next((x) => x.type === 'agent_event' && x.kind === 'image');
    expect(image).toEqual({
      type: 'agent_event',
      kind: 'image',
      tool: 'generate_image',
      call_id: calling.call_id,
      url: expect.stringMatching(/\/_box\/images\/[0-9a-f]{32}\.png$/),
      caption: 'a lighthouse at night',
    });
    expect(events.json.findIndex((x) => x.kind === 'calling')).toBeLessThan(
      events.json.findIndex((x) => x.kind === 'image'),
    );
    const png = await fetch(image.url);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const first = await mic.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    expect(first.text).toBe('Please draw a picture of a lighthouse at night.');
    const follow = await mic.next((x) => x.type === 'turn' && x.speech_id !== ack.speech_id);
    expect(follow).toMatchObject({
      text: '',
      reply: 'Here is the picture: a lighthouse at night.',
    });
    expect(follow.greeting).toBeUndefined();
    // the follow-up (an avatar-initiated line) never dispatches a tool of its own (spec 6.2 step 6)
    await roundTrip(events);
    expect(events.json.filter((x) => x.kind === 'calling')).toHaveLength(1);
    // the ledger and the transcript
    const row = h.emu.ctx.db
      .prepare('SELECT tool, source, ok FROM session_tool_calls WHERE session_id = ?')
      .get(m.session_id);
    expect(row).toEqual({ tool: 'generate_image', source: 'builtin', ok: 1 });
    mic.close();
    events.close();
  });

  it('rendered: the follow-up is spoken (a speech started frame for its speech_id) after calling and image', async () => {
    const m = await mint({ tools: { servers: ['svc.image'] } }, true);
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const ack = await chat(m, 'Draw a picture of a green tree.');
    const image = await events.next((x) => x.type === 'agent_event' && x.kind === 'image', 30_000);
    expect(image.caption).toBe('a green tree');
    const follow = await events.next(
      (x) => x.type === 'turn' && x.speech_id !== ack.speech_id,
      30_000,
    );
    expect(follow).toMatchObject({ text: '', reply: 'Here is the picture: a green tree.' });
    await events.next(
      (x) => x.type === 'speech' && x.status === 'started' && x.speech_id === follow.speech_id,
      30_000,
    );
    expect(mse.bin.length).toBeGreaterThan(0);
    mse.close();
    events.close();
  }, 60_000);

  it('an inline tool through the gateway to the hook; hook ops session_start, turn_committed, session_end', async () => {
    const m = await mint({
      agent: { hook: hook.url, tok: 'tok-e2e', conv: 'conv-e2e' },
      tools: {
        inline: [
          {
            name: 'lookup_order',
            description: 'Look up the delivery status of an order',
            input_schema: {
              type: 'object',
              properties: { order_id: { type: 'string' } },
              required: ['order_id'],
            },
          },
        ],
      },
    });
    hook.next({
      json: {
        ok: true,
        status: 'done',
        result: { kind: 'tool', text: 'Order B-52 ships tomorrow.' },
      },
    });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    await until(
      () => hook.ops('session_start').filter((r) => r.body.sid === m.session_id).length,
      (n) => n === 1,
    );
    await chat(m, 'Can you look up order B-52?');
    const calling = await events.next((x) => x.type === 'agent_event' && x.kind === 'calling');
    expect(calling.tool).toBe('lookup_order');
    const follow = await mic.next(
      (x) => x.type === 'turn' && x.reply === 'Order B-52 ships tomorrow.',
    );
    expect(follow.text).toBe('');
    const call = hook.ops('tool_call').find((r) => r.body.sid === m.session_id)!;
    expect(call.headers.authorization).toBe('Bearer tok-e2e');
    expect(call.body).toMatchObject({
      op: 'tool_call',
      conv: 'conv-e2e',
      call_id: calling.call_id,
      tool: 'lookup_order',
      args: { order_id: 'B-52' },
      history: [
        { role: 'user', content: 'Can you look up order B-52?' },
        { role: 'assistant', content: expect.any(String) },
      ],
    });
    const committed = await until(
      () => hook.ops('turn_committed').filter((r) => r.body.sid === m.session_id),
      (l) => l.length >= 2,
    );
    expect(committed[0]!.body).toMatchObject({ seq: 100, user: 'Can you look up order B-52?' });
    mic.close();
    events.close();
    await until(
      () => hook.ops('session_end').filter((r) => r.body.sid === m.session_id).length,
      (n) => n === 1,
    );
  });

  it('an MCP tool in a session: the user stays silent, so the follow-up line is the next turn', async () => {
    const s = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/mcp-servers`, {
      body: { name: 'weather', url: mcp.url },
    });
    const m = await mint({ tools: { servers: [s.body.id] } });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    mcp.state.hang = false;
    await chat(m, 'What is the weather in Lisbon?');
    await events.next(
      (x) => x.type === 'agent_event' && x.kind === 'calling' && x.tool === 'get_weather',
    );
    const follow = await mic.next(
      (x) => x.type === 'turn' && x.text === '' && /Lisbon/.test(x.reply),
    );
    expect(follow.reply).toBe('Sunny and 21 degrees in Lisbon.');
    expect(mcp.calls.at(-1)!.meta).toMatchObject({
      'svc/sid': m.session_id,
      'svc/conv': m.session_id,
    });
    mic.close();
    events.close();
  });

  it('a fast tool goes through the pre-speech gate: calling before the turn, the reply itself carries the result', async () => {
    const m = await mint({
      agent: { hook: hook.url, tok: 'tok-fast' },
      tools: {
        inline: [checkStockTool({ fast: true, speak_hint: 'Good news: {text}' })],
      },
    });
    hook.next({
      json: { ok: true, status: 'done', result: { kind: 'tool', text: 'Two blue kettles left.' } },
    });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const ack = await chat(m, 'Is the blue kettle in stock?');
    const turn = await events.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    expect(turn.text).toBe('Is the blue kettle in stock?');
    expect(turn.reply).toMatch(/^Good news: Two blue kettles left\. /);
    const calling = events.json.findIndex((x) => x.kind === 'calling' && x.tool === 'check_stock');
    expect(calling).toBeGreaterThanOrEqual(0);
    expect(calling).toBeLessThan(events.json.indexOf(turn));
    // no follow-up line: the next turn is the user's own
    const ack2 = await chat(m, 'Thanks');
    const next = await mic.next((x) => x.type === 'turn' && x.speech_id !== ack.speech_id);
    expect(next).toMatchObject({ speech_id: ack2.speech_id, text: 'Thanks' });
    expect(hook.ops('tool_call').filter((r) => r.body.sid === m.session_id)).toHaveLength(1);
    mic.close();
    events.close();
  });
});
