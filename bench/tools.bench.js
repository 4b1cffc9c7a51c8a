// Tools (issue 16): the overhead the tool-call lifecycle adds in a live, rendered session
// (in-process emulator and box; a real local hook on loopback). Figures (p50 / p95):
//   committed turn -> `calling` on /events   (the `turn` frame to the `calling` frame)
//   hook answer -> first fragment of the spoken follow-up   (the hook writes its answer ->
//     the follow-up's `speech started` frame, which goes out with its first fragment)
// each next to the hook's own answer time in the same run (its request to its answer,
// seen by the hook). The hook holds its answer until the reply on air is done, so the
// follow-up is not queued behind it.
// The fast lane (a `fast` tool, the pre-speech gate; the hook answers at once):
//   /chat -> first fragment of the reply that carries the result, next to /chat -> first
//     fragment of a reply in a session without tools (same run)
//   hook answer -> first fragment of that reply (what the gate adds after the answer)
// Prints figures; asserts nothing.
import { createServer } from 'node:http';
import { WebSocket } from 'ws';
import { edgeSocketUrl } from '../dist/contract/edge/url.js';
import { startEmulator } from '../dist/emulator/start.js';

const N = Number(process.env.BENCH_TOOLS_CALLS ?? 10);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (v) => `${Number.isFinite(v) ? v.toFixed(2) : '-'} ms`;
const line = (label, xs, ref) =>
  console.log(
    `${label.padEnd(52)} ${`${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}`.padStart(22)}   (reference: ${ref})`,
  );

const hookTimes = [];
let release = null;
let answeredAt = 0;
const hook = createServer((req, res) => {
  const t0 = performance.now();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    // Only tool calls are held and timed; the hook ops (session_start, turn_committed,
    // session_end) are answered at once.
    const op = JSON.parse(Buffer.concat(chunks).toString() || '{}').op;
    const answer = () => {
      const body = JSON.stringify({
        ok: true,
        status: 'done',
        result: { kind: 'tool', text: 'Order B-52 ships tomorrow.' },
      });
      answeredAt = performance.now();
      hookTimes.push(answeredAt - t0 - held);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    };
    let held = 0;
    if (release === null || op !== 'tool_call')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    const h0 = performance.now();
    release.then(() => {
      held = performance.now() - h0;
      answer();
    });
  });
});
await new Promise((r) => hook.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${hook.address().port}/hook`;

const emu = await startEmulator({
  port: 0,
  host: '127.0.0.1',
  inMemory: true,
  seats: 2,
  mintRatePerMinute: 0,
  allowInsecureUrls: true,
  log: () => undefined,
});
const api = (path, body) =>
  fetch(`${emu.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.keys.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

const toCalling = [];
/** The inline tool every bench session here is minted with (the hook answers it). */
const LOOKUP_ORDER = {
  name: 'lookup_order',
  description: 'Look up the delivery status of an order',
  input_schema: { type: 'object', properties: { order_id: { type: 'string' } } },
};
const toFollowUp = [];
try {
  for (let i = 0; i < N; i++) {
    let open;
    release = new Promise((r) => (open = r));
    const m = await api('/api/v1/sessions', {
      persona: 'ava',
      config: { greeting_enabled: false },
      agent: { hook: hookUrl, tok: 'bench' },
      tools: {
        inline: [LOOKUP_ORDER],
      },
    });
    const ws = new WebSocket(edgeSocketUrl(m.connect_url, '/events', m.session_token));
    const mse = new WebSocket(edgeSocketUrl(m.connect_url, '/mse', m.session_token));
    mse.on('message', () => undefined);
    await Promise.all([
      new Promise((r) => ws.once('open', r)),
      new Promise((r) => mse.once('open', r)),
    ]);
    let turnAt = 0;
    let userSpeech = null;
    let followSpeech = null;
    let calledAt = 0;
    const startedAt = new Map();
    const done = new Promise((resolve) => {
      ws.on('message', (data) => {
        const f = JSON.parse(String(data));
        const now = performance.now();
        if (f.type === 'turn' && f.text) (turnAt = now), (userSpeech = f.speech_id);
        if (f.type === 'agent_event' && f.kind === 'calling')
          (calledAt = now), toCalling.push(now - turnAt);
        // The reply on air is done: the hook answers now.
        if (
          f.type === 'status' &&
          calledAt &&
          f.state === 'listening' &&
          !followSpeech &&
          answeredAt < calledAt
        )
          open();
        // With spliced talking media a line's `speech started` can come before its `turn`
        // message: both orders are matched by speech id.
        if (f.type === 'speech' && f.status === 'started') startedAt.set(f.speech_id, now);
        if (f.type === 'turn' && !f.text && f.speech_id !== userSpeech) followSpeech = f.speech_id;
        if (followSpeech && startedAt.has(followSpeech)) {
          toFollowUp.push(startedAt.get(followSpeech) - answeredAt);
          resolve();
        }
      });
    });
    await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Can you look up order B-52?' }),
    });
    await done;
    ws.close();
    mse.close();
    await fetch(`${emu.baseUrl}/api/v1/sessions/${m.session_id}/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seat_token: m.seat_token }),
    });
  }
  const ref = `the hook's own answer ${ms(pct(hookTimes, 50))} p50`;
  line(`tools: committed turn -> calling (${N} calls)`, toCalling, ref);
  line('tools: hook answer -> first fragment of follow-up', toFollowUp, ref);

  // The fast lane: the reply waits (at most 800 ms) for the hook, which answers at once.
  const fastChat = [];
  const fastAfterHook = [];
  const plainChat = [];
  hookTimes.length = 0;
  for (let i = 0; i < N; i++) {
    for (const fast of [true, false]) {
      release = Promise.resolve();
      answeredAt = 0;
      const m = await api('/api/v1/sessions', {
        persona: 'ava',
        config: { greeting_enabled: false },
        ...(fast
          ? {
              agent: { hook: hookUrl, tok: 'bench' },
              tools: {
                inline: [{ ...LOOKUP_ORDER, fast: true }],
              },
            }
          : {}),
      });
      const ws = new WebSocket(edgeSocketUrl(m.connect_url, '/events', m.session_token));
      const mse = new WebSocket(edgeSocketUrl(m.connect_url, '/mse', m.session_token));
      mse.on('message', () => undefined);
      await Promise.all([
        new Promise((r) => ws.once('open', r)),
        new Promise((r) => mse.once('open', r)),
      ]);
      const started = new Map();
      ws.on('message', (data) => {
        const f = JSON.parse(String(data));
        if (f.type === 'speech' && f.status === 'started')
          started.set(f.speech_id, performance.now());
      });
      const t0 = performance.now();
      const ack = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
        method: 'POST',
        body: JSON.stringify({ text: 'Can you look up order B-52?' }),
      }).then((r) => r.json());
      for (let w = 0; !started.has(ack.speech_id) && w < 6000; w++)
        await new Promise((r) => setTimeout(r, 5));
      if (!started.has(ack.speech_id)) throw new Error('the reply never started');
      const at = started.get(ack.speech_id);
      if (fast) {
        fastChat.push(at - t0);
        if (answeredAt) fastAfterHook.push(at - answeredAt);
      } else plainChat.push(at - t0);
      ws.close();
      mse.close();
      await fetch(`${emu.baseUrl}/api/v1/sessions/${m.session_id}/release`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seat_token: m.seat_token }),
      });
    }
  }
  const plain = `/chat -> first fragment without tools ${ms(pct(plainChat, 50))} p50`;
  line(`tools fast: /chat -> first fragment (${N} calls)`, fastChat, plain);
  line(
    'tools fast: hook answer -> first fragment of the reply',
    fastAfterHook,
    `the hook's own answer ${ms(pct(hookTimes, 50))} p50`,
  );
} finally {
  await emu.stop();
  hook.close();
}
