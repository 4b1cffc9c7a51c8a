// Edge (issue 8). Figures: /chat to first reply fragment on /mse (p50/p95) in one
// conversation and under load (end of mic speech: edge-mic.bench.js), live
// sessions the box keeps at real time, the same in brain-only mode, memory per live session.
// Media runs use a stub LLM upstream (stubLlm) so every reply is new to the box. The emulator (with its in-process box) runs
// in its own process, so the box has one core and this client the other. Prints figures
// next to a reference measured in the same run; asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { sock, waitFor } from './lib/edge-sockets.js';
import { ffmpegPath } from '../dist/media/ffmpeg.js';
import { encoderOutputArgs } from '../dist/media/encoder.js';

const BRAIN_ONLY_SESSIONS = Number(process.env.BENCH_EDGE_BRAIN_ONLY ?? 500);
const MEDIA_SESSIONS = Number(process.env.BENCH_EDGE_MEDIA ?? 40);
const TALKING = Number(process.env.BENCH_EDGE_TALKING ?? MEDIA_SESSIONS);
const TURNS = Number(process.env.BENCH_EDGE_TURNS ?? 20);
const RUN_S = Number(process.env.BENCH_EDGE_RUN_S ?? 20);
/**
 * Seconds of the media load before the measured RUN_S: all sessions ask their first reply
 * together (a stampede no steady load has), and the box's JIT compiles the hot JavaScript
 * and each flite worker's hot WASM (one-time costs). Reported on a line of its own.
 */
const WARMUP_S = Number(process.env.BENCH_EDGE_WARMUP_S ?? 5);
/**
 * Busy processes (a spin loop each, normal priority) running beside the box during the media
 * part: a machine shared with other work (a test suite, a build), the same from run to run.
 */
const BUSY = Number(process.env.BENCH_EDGE_BUSY ?? 0);
/** Which parts run (all by default): chat (one conversation), media (live media sessions), brain (brain-only); speech -> turn is bench/edge-mic.bench.js. */
const PARTS = (process.env.BENCH_EDGE_PARTS ?? 'chat,media,brain').split(',');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (v) => `${Number.isFinite(v) ? v.toFixed(0) : '-'} ms`;
const line = (label, value, ref) =>
  console.log(`${label.padEnd(52)} ${String(value).padStart(18)}   ${ref ?? ''}`);
/** The fields of a /proc stat file after the name (which may itself hold a ')'), from `state` on. */
const statFields = (path) => {
  const raw = readFileSync(path, 'utf8');
  return raw.slice(raw.lastIndexOf(')') + 2).split(' ');
};
/**
 * CPU seconds (user + system) used so far by the process and its descendants: the box's
 * ffmpeg encoders and pocketsphinx runs are child processes. Live children are summed
 * from /proc; exited ones are in the parent's cutime/cstime once reaped.
 */
const cpuS = (pid) => {
  const stat = (p) => {
    try {
      const f = statFields(`/proc/${p}/stat`);
      return {
        ppid: Number(f[1]),
        cpu: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
      };
    } catch {
      return null;
    }
  };
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => [Number(d), stat(d)])
    .filter(([, s]) => s);
  const kids = new Map();
  for (const [p, s] of all) kids.set(s.ppid, [...(kids.get(s.ppid) ?? []), p]);
  const byPid = new Map(all);
  let total = 0;
  const walk = (p) => {
    total += byPid.get(p)?.cpu ?? 0;
    for (const c of kids.get(p) ?? []) walk(c);
  };
  walk(pid);
  return total / 100;
};
/**
 * CPU seconds of the process itself split by thread: the main thread (tid = pid), the
 * flite workers (they name themselves `flite`), and the rest (V8's GC and compiler
 * helpers, libuv's pool, threads that have ended).
 */
const threadCpuS = (pid) => {
  const ticks = (f) => Number(f[11]) + Number(f[12]);
  const out = { own: ticks(statFields(`/proc/${pid}/stat`)) / 100, main: 0, flite: 0 };
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const cpu = ticks(statFields(`/proc/${pid}/task/${t}/stat`)) / 100;
      if (Number(t) === pid) out.main += cpu;
      else if (readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim() === 'flite')
        out.flite += cpu;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
};
const rssKb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

/**
 * A stub OpenAI-compatible chat upstream on loopback (the box's `--llm-url`): it streams a
 * reply that is new every time (two sentences, like the local brain's), so no reply is ever
 * a line the box has said before, down to its first chunk: every first fragment below pays
 * for fresh synthesis (the speech cache, docs/media.md, never helps).
 */
async function stubLlm() {
  const colours = ['red', 'blue', 'green', 'yellow', 'silver', 'orange', 'purple', 'brown'];
  const things = ['lamp', 'window', 'garden', 'kettle', 'bridge', 'river', 'market', 'library'];
  let n = 0;
  const reply = () => {
    const k = n++;
    const c = colours[k % 8];
    const t = things[Math.floor(k / 8) % 8];
    // New from its first words on (the number): the reply speaker's first chunk ("The red
    // lamp is 3", docs/edge.md) is never a line the speech cache holds.
    return `The ${c} ${t} is ${k + 3} steps from here, by the door. Walk past the ${things[(k + 3) % 8]} and you will see it on your left.`;
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const word of reply().split(/(?<= )/)) {
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: word } }] })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Emulators this bench started: killed if it dies before stopping them (none outlives it). */
const children = new Set();
process.on('exit', () => children.forEach((p) => p.kill('SIGKILL')));

/**
 * How fast this machine encodes right now: CPU seconds of a bare ffmpeg run encoding 10 s of
 * media with the live encoder's output arguments (encoderOutputArgs, src/media/encoder.ts), from generated frames
 * and a tone. Shared machines differ from day to day; sessions per core move with this.
 */
function encodeReferenceS() {
  const t0 = cpuS(process.pid);
  spawnSync(ffmpegPath(), [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=352x480:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:sample_rate=16000',
    '-t',
    '10',
    ...encoderOutputArgs(),
    '-y',
    '/dev/null',
  ]);
  return cpuS(process.pid) - t0;
}

async function emulator(seats, extra = []) {
  // BENCH_EDGE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the box's process.
  const nodeArgs = (process.env.BENCH_EDGE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const p = spawn(
    process.execPath,
    [
      ...nodeArgs,
      'bin/avatar.js',
      'emulator',
      'start',
      '--port',
      '0',
      '--in-memory',
      '--json',
      '--seats',
      String(seats),
      '--mint-rate',
      '0',
      '--pending-idle-s',
      '600',
      '--plan-limits',
      '{"free":{"concurrency":100000,"maxCapSeconds":3600}}',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.add(p);
  p.once('exit', () => children.delete(p));
  const ready = JSON.parse(
    await new Promise((res) => createInterface({ input: p.stdout }).once('line', res)),
  );
  return {
    ...ready,
    pid: p.pid,
    stop: () => new Promise((r) => (p.once('exit', r), p.kill('SIGINT'))),
  };
}

async function mint(emu, body) {
  const r = await fetch(`${emu.base_url}/api/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.secret_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ persona: 'ava', session_cap_seconds: 3600, ...body }),
  });
  if (r.status !== 201) throw new Error(`mint ${r.status}: ${await r.text()}`);
  return r.json();
}

async function healthRtt(base, n = 50) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await (await fetch(`${base}/health`)).text();
    xs.push(performance.now() - t);
  }
  return pct(xs, 50);
}

/** N sessions on one box: each sends mic frames at 100 ms cadence; every few seconds one types a turn. */
async function loadRun(n, config) {
  const emu = await emulator(n + 4);
  const rss0 = rssKb(emu.pid);
  const sessions = [];
  for (let i = 0; i < n; i++) {
    const m = await mint(emu, { config });
    const mic = await sock(m, '/mic_stream');
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    const mse = config.render === false ? null : await sock(m, '/mse');
    sessions.push({ m, mic, mse, lastFrag: 0, gaps: [] });
  }
  await sleep(1500);
  const rss1 = rssKb(emu.pid);
  const zero = Buffer.alloc(3200);
  let running = true;
  const pump = (async () => {
    let next = performance.now();
    while (running) {
      for (const s of sessions) s.mic.ws.send(zero);
      next += 100;
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  for (const s of sessions)
    s.mse?.on((msg) => {
      if (!msg.bin) return;
      const t = performance.now();
      if (s.lastFrag) s.gaps.push(t - s.lastFrag);
      s.lastFrag = t;
    });
  const latencies = [];
  const cpu0 = cpuS(emu.pid);
  const t0run = performance.now();
  const end = performance.now() + RUN_S * 1000;
  let i = 0;
  while (performance.now() < end) {
    const s = sessions[i++ % sessions.length];
    const t0 = performance.now();
    const r = await fetch(`${s.m.connect_url}/chat?token=${s.m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Where do you live?' }),
    });
    const { speech_id } = await r.json();
    await waitFor(s.mic, (x) => x.type === 'turn' && x.speech_id === speech_id);
    latencies.push(performance.now() - t0);
    await sleep(Math.max(0, 3000 / Math.max(1, n / 10)));
  }
  running = false;
  await pump;
  const cpuPerS = (cpuS(emu.pid) - cpu0) / ((performance.now() - t0run) / 1000);
  const gaps = sessions.flatMap((s) => s.gaps);
  for (const s of sessions) s.mic.ws.close(), s.mse?.ws.close();
  const ref = await healthRtt(sessions[0].m.connect_url);
  await emu.stop();
  return { latencies, gaps, perSessionKb: (rss1 - rss0) / n, ref, cpuPerS, perCore: n / cpuPerS };
}

const llm = await stubLlm();
const llmFlags = ['--llm-url', llm.url, '--llm-model', 'stub'];

/** One live media session (/mse + /mic_stream + /events, hello sent) and its fragment gaps. */
async function mediaSession(emu) {
  const m = await mint(emu, { config: { greeting_enabled: false } });
  const mse = await sock(m, '/mse');
  const mic = await sock(m, '/mic_stream');
  const ev = await sock(m, '/events');
  mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
  const s = { m, mse, mic, ev, last: 0, gaps: [] };
  mse.on((msg) => {
    if (!msg.bin) return;
    const t = performance.now();
    if (s.last) s.gaps.push(t - s.last);
    s.last = t;
  });
  return s;
}

/**
 * Type a turn; `onFirst` gets ms from /chat to the reply's first fragment (`speech started`)
 * when it comes; resolves once the avatar is listening again.
 */
async function chatTurn(s, text, onFirst = () => {}) {
  const tc = performance.now();
  const r = await fetch(`${s.m.connect_url}/chat?token=${s.m.session_token}`, {
    method: 'POST',
    body: JSON.stringify({ text }),
  });
  const { speech_id } = await r.json();
  await waitFor(
    s.ev,
    (x) => x.type === 'speech' && x.status === 'started' && x.speech_id === speech_id,
    60_000,
  );
  const ms = performance.now() - tc;
  onFirst(ms);
  await waitFor(s.ev, (x) => x.type === 'status' && x.state === 'listening', 60_000);
  return ms;
}

/**
 * Reference for the first fragment: wall ms (p50 of 5) of a bare ffmpeg run, started cold,
 * encoding one fragment (4 frames, 160 ms of sound) at the live settings: what the first
 * fragment of a reply would cost if it were encoded.
 */
function firstFragmentReferenceMs() {
  const xs = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    spawnSync(ffmpegPath(), [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=352x480:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:sample_rate=16000',
      '-frames:v',
      '4',
      '-t',
      '0.16',
      ...encoderOutputArgs(),
      '-y',
      '/dev/null',
    ]);
    xs.push(performance.now() - t);
  }
  return pct(xs, 50);
}

// The first reply fragment of one conversation on an otherwise quiet box: /chat -> the
// reply's first fragment (the `speech started` event the box sends with it), one turn at a
// time, each reply new to the box.
if (PARTS.includes('chat')) {
  const emu = await emulator(2, llmFlags);
  const s = await mediaSession(emu);
  await sleep(1500);
  await chatTurn(s, 'Hello?'); // warm-up: the box's first reply also loads the upstream brain's client
  const xs = [];
  for (let i = 0; i < TURNS; i++) {
    xs.push(await chatTurn(s, 'Where is it?'));
    await sleep(200);
  }
  s.mse.ws.close(), s.mic.ws.close(), s.ev.ws.close();
  const ref = await healthRtt(s.m.connect_url);
  await emu.stop();
  line(
    '/chat -> first reply fragment, one conversation',
    `${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}`,
    `(p50 / p95; target p50 <= 150 ms) ref: box /health RTT p50 ${ms(ref)}; bare ffmpeg encode of one fragment ${ms(firstFragmentReferenceMs())}`,
  );
}

// Live media sessions: each with /mse + /mic_stream + /events, zeroed mic frames at cadence,
// every session in turns (a typed turn, its reply, a pause, the next: BENCH_EDGE_TALKING of
// them at once, all by default); /chat -> the reply's first fragment under that load;
// fragment gaps on the client as the real-time check.
if (PARTS.includes('media')) {
  const n = MEDIA_SESSIONS;
  const emu = await emulator(n + 2, llmFlags);
  const rss0 = rssKb(emu.pid);
  const sessions = [];
  for (let i = 0; i < n; i++) sessions.push(await mediaSession(emu));
  await sleep(2000);
  const rss1 = rssKb(emu.pid);
  for (const s of sessions) s.gaps.length = 0;
  let running = true;
  const pump = (async () => {
    let next = performance.now();
    while (running) {
      for (const s of sessions) s.mic.ws.send(Buffer.alloc(3200));
      next += 100;
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  const busy = Array.from({ length: BUSY }, () => {
    const p = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    children.add(p);
    return p;
  });
  let cpu0 = 0;
  let threads0 = null;
  let t0 = Infinity;
  const warmFrag = [];
  // The measured run starts after the warm-up: CPU from here, gaps and lateness from here.
  const measuring = setTimeout(() => {
    cpu0 = cpuS(emu.pid);
    threads0 = threadCpuS(emu.pid);
    t0 = performance.now();
    for (const s of sessions) s.gaps.length = 0;
    stalls.length = 0;
  }, WARMUP_S * 1000);
  // Reference: this client's own timer lateness (a 40 ms interval) over the same run; on a
  // loaded machine the client stalls too, and a stall shows up as a fragment gap.
  const stalls = [];
  let tick = performance.now();
  const lag = setInterval(() => {
    const now = performance.now();
    stalls.push(now - tick - 40);
    tick = now;
  }, 40);
  const firstFrag = [];
  // Replies being made (asked, first fragment not yet out) when each was asked: the bench's
  // sessions start together and stay in step, so replies come in bursts, and a first
  // fragment asked in a burst waits behind the others' synthesis (docs/media.md).
  let making = 0;
  const alone = [];
  const burst = [];
  const end = performance.now() + (WARMUP_S + RUN_S) * 1000;
  let i = 0;
  let replies = 0;
  const inFlight = new Set();
  while (performance.now() < end) {
    const s = sessions[i++ % n];
    if (inFlight.has(s) || inFlight.size >= TALKING) {
      await sleep(20);
      continue;
    }
    inFlight.add(s);
    const ahead = making++;
    const warm = performance.now() < t0;
    let counted = false;
    const first = () => counted || ((counted = true), making--);
    chatTurn(s, 'Where is it?', (x) => {
      first();
      if (warm) return void warmFrag.push(x);
      firstFrag.push(x);
      (ahead <= 3 ? alone : burst).push(x);
    })
      .then(
        () => replies++,
        () => first(),
      )
      .finally(() => setTimeout(() => inFlight.delete(s), 500));
    await sleep(20);
  }
  if (!threads0) throw new Error('the media run ended before its warm-up: raise BENCH_EDGE_RUN_S');
  const cpuUsed = cpuS(emu.pid) - cpu0;
  const threads1 = threadCpuS(emu.pid);
  const cpuPerS = cpuUsed / ((performance.now() - t0) / 1000);
  clearInterval(lag);
  clearTimeout(measuring);
  for (const p of busy) p.kill('SIGKILL'), children.delete(p);
  running = false;
  await pump;
  const gaps = sessions.flatMap((s) => s.gaps);
  const late = gaps.filter((g) => g > 400).length;
  for (const s of sessions) s.mse.ws.close(), s.mic.ws.close(), s.ev.ws.close();
  const ref = await healthRtt(sessions[0].m.connect_url);
  await emu.stop();
  const refS = encodeReferenceS();
  line(
    `media: ${n} live sessions, ${TALKING} in turns at once${BUSY ? `, ${BUSY} busy beside` : ''}`,
    `${firstFrag.length} replies started, ${replies} ended`,
  );
  line(
    '  box CPU used (cores busy)',
    cpuPerS.toFixed(2),
    `ref: a bare ffmpeg encode of 10 s of media at the live settings takes ${refS.toFixed(2)} CPU-s here now`,
  );
  const main = threads1.main - threads0.main;
  const flite = threads1.flite - threads0.flite;
  const own = threads1.own - threads0.own;
  const share = (x) => `${Math.round((100 * x) / cpuUsed)} %`;
  line(
    '  ... by thread: main / flite / other threads / ffmpeg',
    `${share(main)} / ${share(flite)} / ${share(own - main - flite)} / ${share(cpuUsed - own)}`,
    '(other threads: V8 GC and compiler helpers, libuv; ffmpeg: the AAC encoders)',
  );
  // Per reply: what the box spends on one (voice, media, its share of the listening
  // sessions) moves far less with the machine's load than sessions per core, which a
  // starved box inflates (fewer replies get through, so it spends less per second).
  line(
    '  box CPU per reply started',
    `${((cpuUsed / Math.max(1, firstFrag.length)) * 1000).toFixed(0)} ms`,
    `(each reply: two sentences, ~5.5 s of speech) load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
  );
  line(
    '  live media sessions one core keeps (CPU-bound)',
    Math.round(n / cpuPerS),
    `(target >= 100 per core, with no late fragment) ref: sessions talking all the time one core could encode with bare ffmpeg: ${Math.round(10 / refS)}`,
  );
  line(
    '  fragment gaps > 400 ms on the clients',
    `${late} of ${gaps.length}`,
    `(0 = every fragment on time) ref: client timer late > 240 ms ${stalls.filter((x) => x > 240).length} times, p99 ${ms(pct(stalls, 99))}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
  );
  line(
    '  /chat -> first reply fragment under this load',
    `${ms(pct(firstFrag, 50))} / ${ms(pct(firstFrag, 95))}`,
    `(p50 / p95; target p50 <= 150 ms) ref: box /health RTT p50 ${ms(ref)}; bare ffmpeg encode of one fragment ${ms(firstFragmentReferenceMs())}`,
  );
  line(
    '    asked with <= 3 / > 3 other replies being made',
    `${ms(pct(alone, 50))} / ${ms(pct(burst, 50))}`,
    `(p50 of each; ${alone.length} / ${burst.length} replies) the rest is queueing in a burst`,
  );
  line(
    `  the same in the ${WARMUP_S} s warm-up before (not counted above)`,
    `${ms(pct(warmFrag, 50))} / ${ms(pct(warmFrag, 95))}`,
    `(p50 / p95; ${warmFrag.length} replies) every session asks its first reply at once; the JIT warms up`,
  );
  line(
    '  memory per live media session (server RSS delta)',
    `${((rss1 - rss0) / n / 1024).toFixed(1)} MB`,
  );
}

// Reference for the latencies: HTTP /health round trip to the same box.
if (PARTS.includes('brain')) {
  const r = await loadRun(BRAIN_ONLY_SESSIONS, { render: false, greeting_enabled: false });
  line(
    `brain-only: ${BRAIN_ONLY_SESSIONS} sessions, mic at 100 ms cadence`,
    `${r.latencies.length} turns`,
  );
  line(
    '  box CPU used (cores busy)',
    r.cpuPerS.toFixed(2),
    '(the machine is shared: latencies below suffer from other load)',
  );
  line(
    '  brain-only sessions one core keeps (CPU-bound)',
    Math.round(r.perCore),
    '(target >= 500 per core)',
  );
  line(
    '  /chat -> turn (brain-only) p50 / p95',
    `${ms(pct(r.latencies, 50))} / ${ms(pct(r.latencies, 95))}`,
    `ref: box /health RTT p50 ${ms(r.ref)}`,
  );
  line(
    '  memory per brain-only session (server RSS delta)',
    `${(r.perSessionKb / 1024).toFixed(2)} MB`,
  );
}

// End of mic speech -> turn and -> first reply audio, and word accuracy: bench/edge-mic.bench.js.
await llm.close();
