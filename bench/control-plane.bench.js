// Control plane (issues 4 and 7): mints per second next to a floor (bare Hono +
// better-sqlite3 insert + EdDSA JWT sign, bench/lib/floor.js) measured in the same run at
// the same concurrency over HTTP; the mint as live sessions grow from 1,000 to 100,000;
// queue status reads with 10,000 waiters next to the floor's reads. Runs against dist/;
// prints figures, asserts nothing. Client and servers share this process, the same for both.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { startEmulator } from '../dist/emulator/start.js';
import { sessionRuntime } from '../dist/emulator/sessions/runtime.js';
import { startFloor } from './lib/floor.js';

const MINTS = Number(process.env.BENCH_MINTS ?? 3000);
const WAITERS = Number(process.env.BENCH_WAITERS ?? 10_000);
const READS = Number(process.env.BENCH_READS ?? 30_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const LIVE_SMALL = 1_000;
const LIVE_LARGE = Number(process.env.BENCH_LIVE ?? 100_000);

const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });

async function pool(n, fn) {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Run `n` calls `CONCURRENCY` at a time; print and return calls per second. */
async function timed(label, n, fn) {
  const t0 = performance.now();
  await pool(n, fn);
  const s = (performance.now() - t0) / 1000;
  const rate = n / s;
  console.log(`${label.padEnd(52)} ${String(n).padStart(7)} in ${s.toFixed(2)} s = ${String(Math.round(rate)).padStart(6)} /s`);
  return rate;
}

async function call(base, method, path, key, body) {
  const r = await request(base + path, {
    method,
    dispatcher,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? JSON.parse(text) : undefined };
}

const ratio = (label, x, floor) => console.log(`  ${label}: ${((100 * x) / floor).toFixed(0)}% of the floor`);
const quiet = { mintRatePerMinute: 0, planLimits: { free: { concurrency: 1e9, maxCapSeconds: 3600 } } };
const mintBody = { persona: 'ava' };

// 0. The floor: mint-shaped POST and a keyed read on a bare stack.
const floor = await startFloor();
await pool(200, () => call(floor.baseUrl, 'POST', '/mint', floor.apiKey, mintBody)); // warm-up
const floorMint = await timed('floor: Hono + sqlite insert + EdDSA sign (201)', MINTS, () =>
  call(floor.baseUrl, 'POST', '/mint', floor.apiKey, mintBody),
);
const floorIds = floor.ids();
const floorRead = await timed('floor: Hono + sqlite keyed read (200)', READS, (i) =>
  call(floor.baseUrl, 'GET', `/read/${floorIds[(i * 7919) % floorIds.length]}`, floor.apiKey),
);
await floor.stop();

// 1. Mints per second, and the same as live sessions grow (one big in-process box).
{
  const emu = await startEmulator({ port: 0, inMemory: true, boxes: 0, ...quiet });
  const rt = sessionRuntime(emu.ctx);
  const seats = LIVE_LARGE + 4 * MINTS + 1000;
  const box = rt.fleet.register('box_bench', { base_url: `${emu.baseUrl}/bench-box`, seats, protocols: [1, 2], custom_avatars: true, verified: true }, Date.now());
  const mint = async () => {
    const r = await call(emu.baseUrl, 'POST', '/api/v1/sessions', emu.keys.secretKey, mintBody);
    if (r.status !== 201) throw new Error(`mint answered ${r.status}: ${JSON.stringify(r.body)}`);
  };
  // Live sessions as a mint leaves them (seat held, row stored), without paying for the HTTP.
  const live = (n) => {
    const now = Math.floor(Date.now() / 1000);
    const add = emu.ctx.db.transaction((k) => {
      for (let i = 0; i < k; i++) {
        const id = randomUUID();
        rt.seated(id, box, 300, emu.keys.workspaceId);
        rt.st.insert.run({
          id, workspace_id: emu.keys.workspaceId, scope_key: emu.keys.workspaceId, api_token_id: null, avatar_ref: null,
          voice_ref: null, persona: 'ava', session_token_id: null, box_id: box.id, box_host: box.host,
          seat_token_hash: null, snapshot_json: '{}', cap_seconds: 300, recording: 0, created_at: now,
        });
      }
    });
    add(n);
  };
  await pool(200, mint); // warm-up
  const m = await timed('mints (201, persona, EdDSA token)', MINTS, mint);
  ratio('mint', m, floorMint);
  live(LIVE_SMALL - 200 - MINTS > 0 ? LIVE_SMALL - 200 - MINTS : 0);
  const small = await timed(`mints with ${rt.fleet.get('box_bench').held.size} live sessions`, MINTS, mint);
  live(LIVE_LARGE - rt.fleet.get('box_bench').held.size);
  const large = await timed(`mints with ${rt.fleet.get('box_bench').held.size} live sessions`, MINTS, mint);
  console.log(`  live sessions x${Math.round(LIVE_LARGE / LIVE_SMALL)}: mint rate ${(small / large).toFixed(2)}x slower (target: within 1.5x)`);
  await emu.stop();
}

// 2. Queue: one seat, 10,000 waiters, then status reads spread over the line.
{
  const emu = await startEmulator({ port: 0, inMemory: true, boxes: 1, seats: 1, waiterIdleS: 3600, queueMaxWaiters: WAITERS * 2, ...quiet });
  const key = emu.keys.secretKey;
  await call(emu.baseUrl, 'POST', '/api/v1/sessions', key, mintBody);
  const tickets = new Array(WAITERS);
  await timed('queue admissions (202)', WAITERS, async (i) => {
    tickets[i] = (await call(emu.baseUrl, 'POST', '/api/v1/sessions', key, mintBody)).body.queue_ticket;
  });
  let last;
  const reads = await timed(`queue status reads, ${WAITERS} waiters (HTTP)`, READS, async (i) => {
    last = (await call(emu.baseUrl, 'GET', `/api/v1/sessions/queue/${tickets[(i * 7919) % WAITERS]}`, key)).body;
  });
  ratio('queue status read', reads, floorRead);
  console.log(`  sample read: ${JSON.stringify(last)}`);
  // The same read without HTTP: the queue's own cost (Fenwick rank, O(log n)).
  const q = sessionRuntime(emu.ctx).queue;
  const n = 1_000_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) q.view(q.get(tickets[(i * 7919) % WAITERS]));
  const s = (performance.now() - t0) / 1000;
  console.log(`${'queue status views in-process'.padEnd(52)} ${String(n).padStart(7)} in ${s.toFixed(2)} s = ${String(Math.round(n / s)).padStart(6)} /s`);
  await emu.stop();
}
await dispatcher.close();
