// Control plane. // Benchmark (issue 4): mints per second, and queue status reads per second with 10,000
// waiters in line. Runs against the built package (dist/); prints figures, asserts nothing.
import { Agent } from 'undici';
import { AvatarClient } from '../dist/client/index.js';
import { startEmulator } from '../dist/emulator/start.js';

const MINTS = Number(process.env.BENCH_MINTS ?? 3000);
const WAITERS = Number(process.env.BENCH_WAITERS ?? 10_000);
const READS = Number(process.env.BENCH_READS ?? 30_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);

async function pool(n, fn) {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function timed(label, n, fn) {
  const t0 = performance.now();
  await pool(n, fn);
  const s = (performance.now() - t0) / 1000;
  console.log(`${label.padEnd(44)} ${String(n).padStart(7)} in ${s.toFixed(2)} s = ${Math.round(n / s)} /s`);
}

const quiet = { mintRatePerMinute: 0, planLimits: { free: { concurrency: 1e9, maxCapSeconds: 3600 } } };
const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });

// 1. Mints per second: enough seats that every mint is a 201.
{
  const emu = await startEmulator({ port: 0, inMemory: true, boxes: 2, seats: MINTS, ...quiet });
  const client = new AvatarClient({ baseUrl: emu.baseUrl, apiKey: emu.keys.secretKey, dispatcher });
  let ok = 0;
  await timed('mints (201, persona, EdDSA token)', MINTS, async () => {
    const r = await client.send('sessions.mint', { body: { persona: 'ava' } });
    if (r.status === 201) ok++;
  });
  if (ok !== MINTS) console.log(`  (only ${ok} of ${MINTS} were 201)`);
  await emu.stop();
}

// 2. Queue: one seat, 10,000 waiters, then status reads spread over the line.
{
  const emu = await startEmulator({ port: 0, inMemory: true, boxes: 1, seats: 1, waiterIdleS: 3600, queueMaxWaiters: WAITERS * 2, ...quiet });
  const client = new AvatarClient({ baseUrl: emu.baseUrl, apiKey: emu.keys.secretKey, dispatcher });
  await client.call('sessions.mint', { body: { persona: 'ava' } });
  const tickets = new Array(WAITERS);
  await timed('queue admissions (202)', WAITERS, async (i) => {
    tickets[i] = (await client.call('sessions.mint', { body: { persona: 'ava' } })).body.queue_ticket;
  });
  let last;
  await timed(`queue status reads, ${WAITERS} waiters (HTTP)`, READS, async (i) => {
    last = (await client.call('sessions.queue.status', { params: { ticket: tickets[(i * 7919) % WAITERS] } })).body;
  });
  console.log(`  sample read: ${JSON.stringify(last)}`);
  // The same read without HTTP: the queue's own cost (Fenwick rank, O(log n)).
  const { sessionRuntime } = await import('../dist/emulator/sessions/runtime.js');
  const q = sessionRuntime(emu.ctx).queue;
  const n = 1_000_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) q.view(q.get(tickets[(i * 7919) % WAITERS]));
  const s = (performance.now() - t0) / 1000;
  console.log(`${'queue status views in-process'.padEnd(44)} ${String(n).padStart(7)} in ${s.toFixed(2)} s = ${Math.round(n / s)} /s`);
  await emu.stop();
}
await dispatcher.close();
