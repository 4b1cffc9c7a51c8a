import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { openSock, roundTrip, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { checkStockTool, startHookServer } from './helpers/hook-server.js';
import { settle, waitUntil } from './helpers/wait.js';

/**
 * The lifecycle's timers in a live session (spec 6.2, 8) on a driven clock: the filler line,
 * the per-tool timeout answered as a wire error and apologised for, the fast lane's gate
 * budget, and built-in calls spending max_calls.
 */
const clock = new ManualClock(Date.UTC(2030, 0, 1));
const h = useEmulator({ boxes: 1, seats: 8, mintRatePerMinute: 0, clock, allowInsecureUrls: true });
let hook: Awaited<ReturnType<typeof startHookServer>>;
beforeAll(async () => {
  hook = await startHookServer();
  await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/builtin-servers/svc.image`, {
    method: 'PUT',
    body: { enabled: true },
  });
});
afterAll(() => hook.close());

type Minted = { session_id: string; session_token: string; connect_url: string };
const mint = async (extra: Record<string, unknown>): Promise<Minted> => {
  const r = await h.api('/api/v1/sessions', {
    body: { persona: 'ava', config: { render: false, greeting_enabled: false }, ...extra },
  });
  expect(r.status).toBe(201);
  return r.body as Minted;
};
const chat = (m: Minted, text: string) =>
  fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
    method: 'POST',
    body: JSON.stringify({ text }),
  }).then((r) => r.json() as Promise<{ speech_id: string }>);
const stock = (extra: Record<string, unknown>) => checkStockTool({ timeout_ms: 1000, ...extra });
const hookCalls = (m: Minted) =>
  hook.ops('tool_call').filter((r) => r.body.sid === m.session_id).length;
const turns = (sock: { json: any[] }) => sock.json.filter((x) => x.type === 'turn');

describe('tool timers in a session on the clock', () => {
  it('a hook that never answers: the cover line after 2.5 s, then timeout_ms ends the call and the avatar apologises', async () => {
    const m = await mint({
      agent: { hook: hook.url, tok: 't' },
      tools: { inline: [stock({ cover_line: 'Let me check the shelves.', timeout_ms: 4000 })] },
    });
    hook.next('hang');
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const ack = await chat(m, 'Is the blue kettle in stock?');
    await mic.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    await waitUntil(() => hookCalls(m) === 1);
    clock.advance(2499);
    await settle();
    await roundTrip(mic);
    expect(turns(mic)).toHaveLength(1);
    clock.advance(1);
    const filler = await mic.next((x) => x.type === 'turn' && x.text === '');
    expect(filler.reply).toBe('Let me check the shelves.');
    clock.advance(1500);
    const sorry = await mic.next(
      (x) => x.type === 'turn' && x.text === '' && x.speech_id !== filler.speech_id,
    );
    expect(sorry.reply).toBe('Sorry, I could not get that for you just now.');
    const row = h.emu.ctx.db
      .prepare('SELECT response_json FROM session_tool_calls WHERE session_id = ?')
      .get(m.session_id) as { response_json: string };
    expect(JSON.parse(row.response_json)).toMatchObject({ ok: false, error: 'timeout' });
    mic.close();
  });

  it('fast: the reply waits 800 ms on the clock, not more; the call then goes on in the background lane', async () => {
    const m = await mint({
      agent: { hook: hook.url, tok: 't' },
      tools: { inline: [stock({ fast: true })] },
    });
    hook.next('hang');
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const ack = await chat(m, 'Is the blue kettle in stock?');
    await events.next((x) => x.type === 'agent_event' && x.kind === 'calling');
    await waitUntil(() => hookCalls(m) === 1);
    clock.advance(799);
    await settle();
    await roundTrip(mic);
    expect(turns(mic)).toHaveLength(0);
    clock.advance(1);
    const reply = await mic.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    expect(reply.reply).not.toMatch(/stock/i);
    // the call's own timeout_ms (1 s) ends it; the background lane apologises in a line of its own
    clock.advance(200);
    const sorry = await mic.next((x) => x.type === 'turn' && x.text === '');
    expect(sorry.reply).toBe('Sorry, I could not get that for you just now.');
    mic.close();
    events.close();
  });

  it('built-in calls spend max_calls: past the budget the box does not draw and apologises', async () => {
    const m = await mint({ tools: { servers: ['svc.image'], max_calls: 1 } });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    await chat(m, 'Please draw a picture of a red fox.');
    await events.next((x) => x.type === 'agent_event' && x.kind === 'image');
    await mic.next((x) => x.type === 'turn' && x.text === '');
    clock.advance(20_000); // past the cooldown
    await chat(m, 'Now draw a picture of a grey cat.');
    await waitUntil(() => events.json.filter((x) => x.kind === 'calling').length === 2);
    const second = events.json.filter((x) => x.kind === 'calling')[1];
    expect(second.tool).toBe('generate_image');
    const sorry = await mic.next(
      (x) => x.type === 'turn' && x.text === '' && /Sorry/.test(x.reply),
    );
    expect(sorry.reply).toBe('Sorry, I could not get that for you just now.');
    expect(events.json.filter((x) => x.kind === 'image')).toHaveLength(1);
    const rows = h.emu.ctx.db
      .prepare('SELECT COUNT(*) AS n FROM session_tool_calls WHERE session_id = ?')
      .get(m.session_id) as { n: number };
    expect(rows.n).toBe(1);
    mic.close();
    events.close();
  });
});
