// Hostile-input memory (issue 19 item 5): "the emulator's RSS grew from 350 to 760 MB over
// a 10,000-request fuzz run". What does a run of hostile requests leave behind once what
// it wrote is deleted? One emulator (in memory, in this process) takes BENCH_HOSTILE
// requests (default 10,000) of ordinary valid traffic, then the same count of hostile ones
// over every operation of the contract (junk path ids, long and emoji strings, deep JSON,
// 100,000-element arrays, unknown fields, bad queries); after each run the state is reset
// (`POST /_emulator/state/reset`: what the run wrote is deleted), the heap collected, and
// the heap and RSS recorded. The figure is what the hostile run keeps over what the valid
// run keeps. Prints figures, asserts nothing (test/emulator-bounded.test.ts checks the
// bounded structures by count). `npm run bench -- hostile`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent, request } from 'undici';
import { allOperations } from '../dist/contract/index.js';
import { fillPath, pathParamNames } from '../dist/contract/operation.js';
import { startEmulator } from '../dist/emulator/start.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const N = Number(process.env.BENCH_HOSTILE ?? 10_000);
const CONCURRENCY = 16;
const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });

const emu = await startEmulator({
  port: 0,
  host: '127.0.0.1',
  inMemory: true,
  boxes: 0,
  idleMedia: false,
  mintRatePerMinute: 0,
});
const MB = (b) => `${(b / 1024 / 1024).toFixed(1).padStart(7)} MB`;

async function send(method, path, body, key) {
  const headers = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const r = await request(emu.baseUrl + path, { method, headers, body, dispatcher });
    await r.body.dump();
    return r.statusCode;
  } catch {
    return 0;
  }
}

async function pool(n, fn) {
  let next = 0;
  const statuses = new Map();
  const worker = async () => {
    while (next < n) {
      const s = await fn(next++);
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

async function settle() {
  await send('POST', '/_emulator/state/reset', '{"keep_keys":true}', emu.operatorToken);
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external + m.arrayBuffers };
}

const key = () => emu.keys.secretKey;

// Valid traffic: reads of every list, and writes (tokens, webhooks, avatars) the reset deletes.
const valid = [
  () => ['GET', '/api/v1/avatars'],
  () => ['GET', '/api/v1/tokens'],
  (i) => ['POST', '/api/v1/tokens', JSON.stringify({ name: `bench ${i}` })],
  (i) => ['POST', '/api/v1/avatars', JSON.stringify({ name: `Bench ${i}`, kind: 'custom' })],
  () => ['GET', '/api/v1/voices'],
  () => ['GET', '/api/v1/webhooks'],
];

const deep = (n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const junkIds = [
  'x'.repeat(4000),
  '😀'.repeat(500),
  '../../etc/passwd',
  '%00',
  '00000000-0000-0000-0000-000000000000',
];
const hostileBodies = [
  () => deep(5000),
  () => JSON.stringify({ text: '😀'.repeat(2000), name: '😀'.repeat(2000) }),
  () => JSON.stringify({ protocol_versions: new Array(100_000).fill(0) }),
  (i) => JSON.stringify({ [`unknown_${i}`]: 'y'.repeat(50_000), name: 'z'.repeat(50_000) }),
  () => '{nope',
  () => JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(100_000) }] }),
  (i) => JSON.stringify({ model: `model-${i}-${'m'.repeat(300)}`, input: ['a'], query: 'q' }),
];
const ops = allOperations.filter((o) => !o.path.startsWith('/_emulator'));

function hostile(i) {
  const op = ops[i % ops.length];
  const params = {};
  for (const name of pathParamNames(op.path)) params[name] = junkIds[i % junkIds.length];
  const query = `?limit=${'9'.repeat(30)}&after=${'x'.repeat(200)}&lang=${'q'.repeat(i % 300)}${i}`;
  const body =
    op.method === 'get' || op.method === 'delete'
      ? undefined
      : hostileBodies[i % hostileBodies.length](i);
  return [op.method.toUpperCase(), fillPath(op.path, params) + query, body];
}

const base = await settle();
const v = await pool(N, (i) => {
  const [m, p, b] = valid[i % valid.length](i);
  return send(m, p, b, key());
});
const afterValid = await settle();
const h = await pool(N, (i) => {
  const [m, p, b] = hostile(i);
  return send(m, p, b, key());
});
const afterHostile = await settle();

const row = (label, a, b) =>
  console.log(
    `${label.padEnd(44)} heap ${MB(b.heap - a.heap)}  rss ${MB(b.rss - a.rss)}  external ${MB(b.external - a.external)}`,
  );
console.log(`start (after reset and GC): heap ${MB(base.heap)}  rss ${MB(base.rss)}`);
row(`kept by ${N} valid requests (reference)`, base, afterValid);
row(`kept by ${N} hostile requests`, afterValid, afterHostile);
const codes = (m) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
console.log(`valid answers:   ${codes(v)}`);
console.log(`hostile answers: ${codes(h)}`);
console.log(`after both: heap ${MB(afterHostile.heap)}  rss ${MB(afterHostile.rss)}`);
await emu.stop();
await dispatcher.close();
