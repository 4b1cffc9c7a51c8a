// Terminal client (issue 9). Figures: `avatar --help` and `avatar completion bash` start-up
// (ink, React and the audio pieces must stay out of them), and the v1 connect (three sockets
// up, first fragment) through connectEdge, each next to a reference measured in the same
// run (a bare `node -e 0`; one raw WebSocket to /mse). Asserts nothing.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { connectEdge } from '../dist/client/edge-connect.js';
import { edgeSocketUrl } from '../dist/contract/edge/url.js';
import { startEmulator } from '../dist/emulator/start.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_LIVE_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (label, value, ref) =>
  console.log(`${label.padEnd(52)} ${String(value).padStart(12)}   ${ref ?? ''}`);
const timeSpawn = (args) => {
  const t = performance.now();
  spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
  return performance.now() - t;
};

const bare = median(Array.from({ length: RUNS }, () => timeSpawn(['-e', '0'])));
line(
  'avatar --help (median wall ms)',
  median(Array.from({ length: RUNS }, () => timeSpawn(['bin/avatar.js', '--help']))).toFixed(0),
  `reference: node -e 0 ${bare.toFixed(0)} ms`,
);
line(
  'avatar completion bash (median wall ms)',
  median(
    Array.from({ length: RUNS }, () => timeSpawn(['bin/avatar.js', 'completion', 'bash'])),
  ).toFixed(0),
  `reference: node -e 0 ${bare.toFixed(0)} ms`,
);

const emu = await startEmulator({
  port: 0,
  host: '127.0.0.1',
  inMemory: true,
  seats: 4,
  mintRatePerMinute: 0,
});
const mint = async () => {
  const r = await fetch(`${emu.baseUrl}/api/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.keys.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ persona: 'ava', config: { greeting_enabled: false } }),
  });
  return r.json();
};
const release = (m) =>
  fetch(`${emu.baseUrl}/api/v1/sessions/${m.session_id}/release`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seat_token: m.seat_token }),
  });
const ready = [];
const firstMedia = [];
const raw = [];
for (let i = 0; i < RUNS; i++) {
  const m = await mint();
  const t = performance.now();
  const c = await connectEdge({ connectUrl: m.connect_url, token: m.session_token });
  const media = new Promise((res) => c.on((e) => e.type === 'media' && res(performance.now())));
  await c.ready;
  ready.push(performance.now() - t);
  firstMedia.push((await media) - t);
  await c.close();
  await release(m);

  const m2 = await mint();
  const t2 = performance.now();
  await new Promise((res, rej) => {
    const ws = new WebSocket(edgeSocketUrl(m2.connect_url, '/mse', m2.session_token));
    ws.on('message', (d, bin) => bin && (raw.push(performance.now() - t2), ws.close(), res()));
    ws.on('error', rej);
  });
  await release(m2);
}
line(
  'connectEdge v1: three sockets ready (median ms)',
  median(ready).toFixed(0),
  `reference: one raw /mse socket to its first fragment ${median(raw).toFixed(0)} ms`,
);
line(
  'connectEdge v1: first fMP4 fragment (median ms)',
  median(firstMedia).toFixed(0),
  `reference: one raw /mse socket to its first fragment ${median(raw).toFixed(0)} ms`,
);
await emu.stop();
