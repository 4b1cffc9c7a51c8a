// A CPU profile of mints under load (docs/sessions.md "Benchmark"): starts the emulator from
// dist/ as control-plane.bench.js does, with one big in-process box, warms up, then mints
// N times (50 at a time) and prints mints/s and CPU us per call. With PROF=file.cpuprofile
// the profiler runs during the measured mints only (not start-up); read its top self-time
// functions with any .cpuprofile viewer (Chrome DevTools, speedscope). Not a bench file:
// `npm run bench` does not run it. `cd bench && PROF=/tmp/mint.cpuprofile node profile-mint.js`
import { Agent, request } from 'undici';
import { startEmulator } from '../dist/emulator/start.js';
import { sessionRuntime } from '../dist/emulator/sessions/runtime.js';
const N = Number(process.env.N ?? 4000);
const C = 50;
const dispatcher = new Agent({ connections: C, keepAliveTimeout: 30_000 });
const emu = await startEmulator({
  port: 0,
  inMemory: true,
  boxes: 0,
  mintRatePerMinute: 0,
  planLimits: { free: { concurrency: 1_000_000, maxCapSeconds: 3600 } },
});
const rt = sessionRuntime(emu.ctx);
rt.fleet.register(
  'box_bench',
  {
    base_url: `${emu.baseUrl}/bench-box`,
    seats: 1_000_000,
    protocols: [1, 2],
    custom_avatars: true,
    verified: true,
  },
  Date.now(),
);
const mint = async () => {
  const r = await request(emu.baseUrl + '/api/v1/sessions', {
    method: 'POST',
    dispatcher,
    headers: { authorization: `Bearer ${emu.keys.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ persona: 'ava' }),
  });
  const t = await r.body.text();
  if (r.statusCode !== 201) throw new Error(t);
};
async function pool(n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next++ < n) await fn();
    }),
  );
}
await pool(500, mint);
const { Session } = await import('node:inspector/promises');
const ins = new Session();
ins.connect();
if (process.env.PROF) {
  await ins.post('Profiler.enable');
  await ins.post('Profiler.start');
}
const t0 = performance.now();
const c0 = process.cpuUsage();
await pool(N, mint);
const c = process.cpuUsage(c0);
if (process.env.PROF) {
  const { profile } = await ins.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(process.env.PROF, JSON.stringify(profile));
}
console.log(
  `${Math.round(N / ((performance.now() - t0) / 1000))} mints/s, ${Math.round((c.user + c.system) / N)} us CPU/call`,
);
await emu.stop();
await dispatcher.close();
