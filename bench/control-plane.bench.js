// Control plane (issues 4 and 7): mints per second next to a floor (bare Hono +
// better-sqlite3 insert + EdDSA JWT sign with jose, bench/lib/floor.js) at the same
// concurrency over HTTP; the mint with 1,000 and with 100,000 live sessions; queue status
// reads with 10,000 waiters next to the floor's keyed reads. The machine may be shared, so
// the servers run side by side and are measured in alternating rounds (median of each).
// Runs against dist/; prints figures, asserts nothing. Client and servers share this process.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { startEmulator } from '../dist/emulator/start.js';
import { sessionRuntime } from '../dist/emulator/sessions/runtime.js';
import { startFloor } from './lib/floor.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const MINTS = Number(process.env.BENCH_MINTS ?? 400);
const WAITERS = Number(process.env.BENCH_WAITERS ?? 10_000);
const READS = Number(process.env.BENCH_READS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const LIVE_SMALL = 1_000;
const LIVE_LARGE = Number(process.env.BENCH_LIVE ?? 100_000);
// Which parts run (all by default): `mint` (floor vs 1,000 live), `live` (100,000 live too),
// `start` (the first seconds after a start with 20 boxes), `queue`. BENCH_CP_PARTS=mint
// is the quick loop while working on the mint's hot path.
const PARTS = (process.env.BENCH_CP_PARTS ?? 'mint,live,start,queue').split(',');

const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });

async function pool(n, fn) {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Calls per second of wall time; also records CPU microseconds per call (steadier on a busy machine). */
const cpuPerCall = new Map();
async function rate(n, fn) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await pool(n, fn);
  const c = process.cpuUsage(c0);
  const list = cpuPerCall.get(fn) ?? [];
  list.push((c.user + c.system) / n);
  cpuPerCall.set(fn, list);
  return n / ((performance.now() - t0) / 1000);
}
const cpu = (fn) => median(cpuPerCall.get(fn));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => String(Math.round(x)).padStart(6);
const line = (label, xs, fn) =>
  console.log(
    `${label.padEnd(56)} ${fmt(median(xs))} /s` +
      (fn ? `  ${String(Math.round(cpu(fn))).padStart(5)} us CPU/call` : '') +
      `  (rounds: ${xs.map((x) => Math.round(x)).join(', ')})`,
  );
/** Median of per-round ratios: each pair was measured back to back, under the same load. */
const pct = (xs, ref) => `${(100 * median(xs.map((x, i) => x / ref[i]))).toFixed(0)}%`;

/** Measure several targets in alternating rounds; returns the rates per target. */
async function rounds(targets, n) {
  const out = targets.map(() => []);
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, t] of targets.entries()) out[i].push(await rate(n, t));
  return out;
}

async function call(base, method, path, key, body) {
  const r = await request(base + path, {
    method,
    dispatcher,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? JSON.parse(text) : undefined };
}

// The plan ceiling out of the way: the largest the start options accept (option-limits.ts).
const quiet = {
  mintRatePerMinute: 0,
  planLimits: { free: { concurrency: 1_000_000, maxCapSeconds: 3600 } },
};
const mintBody = { persona: 'ava' };

/** One mint on `emu` with its secret key; anything but a 201 stops the bench. */
const mintOn = (emu) => async () => {
  const r = await call(emu.baseUrl, 'POST', '/api/v1/sessions', emu.keys.secretKey, mintBody);
  if (r.status !== 201) throw new Error(`mint answered ${r.status}: ${JSON.stringify(r.body)}`);
};

/** An emulator with one big in-process box and `live` sessions already on it. */
async function emulatorWithLive(live) {
  const emu = await startEmulator({ port: 0, inMemory: true, boxes: 0, ...quiet });
  const rt = sessionRuntime(emu.ctx);
  const seats = live + (ROUNDS + 1) * MINTS + 1000;
  const box = rt.fleet.register(
    'box_bench',
    {
      base_url: `${emu.baseUrl}/bench-box`,
      seats,
      protocols: [1, 2],
      custom_avatars: true,
      verified: true,
    },
    Date.now(),
  );
  // Live sessions as a mint leaves them (seat held, row stored), without paying for the HTTP.
  const now = Math.floor(Date.now() / 1000);
  emu.ctx.db.transaction(() => {
    for (let i = 0; i < live; i++) {
      const id = randomUUID();
      rt.seated(id, box, 300, emu.keys.workspaceId);
      rt.st.insert.run({
        id,
        workspace_id: emu.keys.workspaceId,
        scope_key: emu.keys.workspaceId,
        api_token_id: null,
        avatar_ref: null,
        voice_ref: null,
        persona: 'ava',
        session_token_id: null,
        box_id: box.id,
        box_host: box.host,
        seat_token_hash: null,
        snapshot_json: '{}',
        cap_seconds: 300,
        recording: 0,
        created_at: now,
      });
    }
  })();
  const mint = mintOn(emu);
  return { emu, mint, live: () => box.held.size };
}

const floor = await startFloor();
const floorMint = () => call(floor.baseUrl, 'POST', '/mint', floor.apiKey, mintBody);

// 1. Mints: the floor, the emulator with 1,000 live sessions and with 100,000, alternating.
if (PARTS.includes('mint') || PARTS.includes('live')) {
  const withLarge = PARTS.includes('live');
  const small = await emulatorWithLive(LIVE_SMALL);
  const large = withLarge ? await emulatorWithLive(LIVE_LARGE) : null;
  const targets = [floorMint, small.mint, ...(large ? [large.mint] : [])];
  for (const f of targets) await pool(200, f); // warm-up
  const [s0, s1] = [small.live(), large?.live()];
  const [f, m, l] = await rounds(targets, MINTS);
  line(`floor: Hono + sqlite insert + EdDSA sign (jose), c=${CONCURRENCY}`, f, floorMint);
  line(`mints (201, persona, EdDSA token), ${s0}-${small.live()} live`, m, small.mint);
  if (large) line(`mints, ${s1}-${large.live()} live sessions`, l, large.mint);
  console.log(
    `  mint / floor: ${pct(m, f)} by rate, ${((100 * cpu(floorMint)) / cpu(small.mint)).toFixed(0)}% by CPU per call (target: at least 50%)`,
  );
  if (large)
    console.log(
      `  ${s1} vs ${s0} live: ${median(m.map((x, i) => x / l[i])).toFixed(2)}x slower by rate, ${(cpu(large.mint) / cpu(small.mint)).toFixed(2)}x by CPU per call (target: within 1.5x)`,
    );
  await small.emu.stop();
  await large?.emu.stop();
}

// 1b. The first seconds after a start with 20 in-process boxes (their parts warm up: flite's
// workers, the language detector, each box registering): short alternating rounds of mints
// and floor mints from the moment startEmulator resolves.
if (PARTS.includes('start')) {
  const emu = await startEmulator({
    port: 0,
    inMemory: true,
    boxes: 20,
    seats: 10_000,
    ...quiet,
  });
  const mint = mintOn(emu);
  const startFloorMint = () => call(floor.baseUrl, 'POST', '/mint', floor.apiKey, mintBody);
  const n = Math.max(50, Math.round(MINTS / 4));
  const t0 = performance.now();
  const [f, m] = await rounds([startFloorMint, mint], n);
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  line(`floor, while the emulator below starts`, f, startFloorMint);
  line(`mints, the first ${s} s after a start with 20 boxes`, m, mint);
  console.log(
    `  mint / floor after a start: ${pct(m, f)} by rate, ${((100 * cpu(startFloorMint)) / cpu(mint)).toFixed(0)}% by CPU per call`,
  );
  await emu.stop();
}

// 2. Queue: one seat, 10,000 waiters, then status reads spread over the line.
if (PARTS.includes('queue')) {
  const emu = await startEmulator({
    port: 0,
    inMemory: true,
    boxes: 1,
    seats: 1,
    waiterIdleS: 3600,
    queueMaxWaiters: WAITERS * 2,
    ...quiet,
  });
  const key = emu.keys.secretKey;
  await call(emu.baseUrl, 'POST', '/api/v1/sessions', key, mintBody);
  const tickets = new Array(WAITERS);
  const admitted = await rate(WAITERS, async (i) => {
    tickets[i] = (
      await call(emu.baseUrl, 'POST', '/api/v1/sessions', key, mintBody)
    ).body.queue_ticket;
  });
  line('queue admissions (202)', [admitted]);
  const floorIds = floor.ids();
  let last;
  const floorRead = (i) =>
    call(floor.baseUrl, 'GET', `/read/${floorIds[(i * 7919) % floorIds.length]}`, floor.apiKey);
  const queueRead = async (i) => {
    last = (
      await call(emu.baseUrl, 'GET', `/api/v1/sessions/queue/${tickets[(i * 7919) % WAITERS]}`, key)
    ).body;
  };
  const [fr, qr] = await rounds([floorRead, queueRead], READS);
  line('floor: Hono + sqlite keyed read', fr, floorRead);
  line(`queue status reads, ${WAITERS} waiters (HTTP)`, qr, queueRead);
  console.log(
    `  queue read / floor read: ${pct(qr, fr)} by rate, ${((100 * cpu(floorRead)) / cpu(queueRead)).toFixed(0)}% by CPU per call (target: 14k/s)`,
  );
  console.log(`  sample read: ${JSON.stringify(last)}`);
  // The same read without HTTP: the queue's own cost (Fenwick rank, O(log n)).
  const q = sessionRuntime(emu.ctx).queue;
  const n = 1_000_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) q.view(q.get(tickets[(i * 7919) % WAITERS]));
  line('queue status views in-process', [n / ((performance.now() - t0) / 1000)]);
  await emu.stop();
}
await floor.stop();
await dispatcher.close();
