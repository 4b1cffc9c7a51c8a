// Media (issue 8 item 5): what a live media session costs on this machine, each figure next
// to a reference measured in the same run. Runs against dist/; prints, asserts nothing.
//   - TTS real-time factor (flite in WASI) vs the bare flite run inside it
//   - CPU per second of a listening session (idle loop re-timed: should be ~0)
//   - CPU per second of talking (spliced from the shape bank; render + live encode) vs a bare
//     ffmpeg encode of the same frames
//   - first talking fragment after speak() (p50/p95), and live media sessions per core
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { FliteVoice } from '../dist/models/voice/index.js';
import { runFlite } from '../dist/models/voice/wasi-flite.js';
import { createSessionStream, faceFromStyle, loadIdleLoop } from '../dist/media/index.js';
import { encodeTalk, speechPcm } from '../dist/media/talk-clip.js';
import { encoderArgs, framesFor, SAMPLES_PER_FRAME } from '../dist/media/encoder.js';
import { ffmpegPath } from '../dist/media/ffmpeg.js';
import { mouthTrack } from '../dist/media/lip-sync.js';
import { spliceTalk, visemeBank } from '../dist/media/visemes.js';
import { personaStyle } from '../dist/emulator/idle-media/worker.js';
import { FIXTURES_DIR } from '../dist/emulator/start.js';

const LISTENERS = Number(process.env.BENCH_LISTENERS ?? 40);
const LISTEN_S = Number(process.env.BENCH_LISTEN_S ?? 5);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 10);

const sentences = [
  'Hello there, it is good to see you again.',
  'The weather today is mild, with a little wind from the west.',
  'I can help you plan the trip, book a table, or just chat for a while.',
  'Tell me more about what you would like to do this weekend.',
  'That sounds like a great idea, and I think your friends will enjoy it.',
];
const row = (label, value, ref) =>
  console.log(`${label.padEnd(52)} ${value.padStart(16)}   ${ref ?? ''}`);
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** CPU seconds of this process plus its reaped children (ffmpeg), from /proc/self/stat. */
function cpuSeconds() {
  const u = process.cpuUsage();
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const children = (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime, clock ticks
  return (u.user + u.system) / 1e6 + children;
}

// 1. TTS real-time factor.
{
  const voice = new FliteVoice();
  await voice.synthesize('warm up');
  for (const v of ['slt', 'kal16']) {
    let synth = 0;
    let bare = 0;
    let audio = 0;
    for (const s of sentences) {
      let t = performance.now();
      const sp = await voice.synthesize(s, { shape: { voice: v } });
      synth += performance.now() - t;
      audio += sp.durationMs;
      t = performance.now();
      await runFlite(['-psdur', '-voice', v], s);
      bare += performance.now() - t;
    }
    row(
      `TTS real-time factor (flite ${v}, with word timings)`,
      (synth / audio).toFixed(3),
      `bare flite run: ${(bare / audio).toFixed(3)}`,
    );
  }
}

const style = personaStyle({ fixturesDir: FIXTURES_DIR }, 'ava');
const face = faceFromStyle(style);
const idle = loadIdleLoop(readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'idle.mp4')));
const voice = new FliteVoice();
const speeches = [];
for (const s of sentences) speeches.push(await voice.synthesize(s));
const speechS = speeches.reduce((a, s) => a + s.durationMs, 0) / 1000;

// 2. Listening: N sessions replaying the idle loop in real time.
let listenCost;
{
  const idleWall = 2;
  let c0 = cpuSeconds();
  await new Promise((r) => setTimeout(r, idleWall * 1000));
  const baseline = (cpuSeconds() - c0) / idleWall;
  const streams = Array.from({ length: LISTENERS }, () => createSessionStream({ face, idle }));
  let bytes = 0;
  let frags = 0;
  for (const s of streams) {
    await s.ready();
    s.on('fragment', (b) => {
      bytes += b.length;
      frags++;
    });
  }
  await new Promise((r) => setTimeout(r, 300));
  c0 = cpuSeconds();
  const f0 = frags;
  await new Promise((r) => setTimeout(r, LISTEN_S * 1000));
  const used = cpuSeconds() - c0 - baseline * LISTEN_S;
  streams.forEach((s) => s.close());
  listenCost = Math.max(0, used) / LISTEN_S / LISTENERS;
  row(
    `CPU per listening session-second (${LISTENERS} sessions)`,
    `${(listenCost * 1000).toFixed(3)} ms`,
    `idle process: ${(baseline * 1000).toFixed(1)} ms/s; ${((frags - f0) / LISTEN_S / LISTENERS).toFixed(1)} fragments/s each`,
  );
}

// 3. Talking: spliced from the face's mouth-shape bank (what sessions do), and a live
// render + encode of the same replies, vs a bare ffmpeg encode of the same frames.
let talkCost;
{
  const bankC0 = cpuSeconds();
  const bank = await visemeBank(face);
  const bankCost = cpuSeconds() - bankC0;
  let c0 = cpuSeconds();
  for (const sp of speeches) await spliceTalk(bank, sp, () => {}).done;
  talkCost = (cpuSeconds() - c0) / speechS;
  row(
    'CPU per talking second, spliced (shapes + AAC)',
    `${(talkCost * 1000).toFixed(1)} ms`,
    `the face's shape bank, once: ${(bankCost * 1000).toFixed(0)} ms`,
  );
  c0 = cpuSeconds();
  for (const sp of speeches)
    await encodeTalk(
      face,
      sp,
      () => {},
      () => {},
    ).done;
  const liveCost = (cpuSeconds() - c0) / speechS;
  // Reference: the same frames pre-rendered as RGB, piped to a bare ffmpeg with the same
  // arguments but RGB input (ffmpeg converts every full frame itself).
  let bare = 0;
  for (const sp of speeches) {
    const frames = framesFor(sp.durationMs);
    const mouth = mouthTrack(sp);
    const raw = Buffer.concat(
      Array.from({ length: frames }, (_, i) =>
        Buffer.from(face.frames.render({ mouth: mouth(i * 40), eyes: 1 })),
      ),
    );
    const pcm = Buffer.alloc(frames * SAMPLES_PER_FRAME * 2);
    const s16 = speechPcm(sp);
    Buffer.from(s16.buffer, s16.byteOffset, s16.byteLength).copy(pcm);
    c0 = cpuSeconds();
    await new Promise((resolve, reject) => {
      const args = encoderArgs(352, 480);
      args[args.indexOf('yuv420p')] = 'rgb24';
      const p = spawn(ffmpegPath(), args, { stdio: ['pipe', 'ignore', 'ignore', 'pipe'] });
      p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}`))));
      p.stdin.end(raw);
      p.stdio[3].end(pcm);
    });
    bare += cpuSeconds() - c0;
  }
  row(
    'CPU per talking second, live (render + encode + mux)',
    `${(liveCost * 1000).toFixed(0)} ms`,
    `bare ffmpeg, same frames as RGB: ${((bare / speechS) * 1000).toFixed(0)} ms`,
  );
}

// 4. First talking fragment after speak() on a listening session (speech ready), and with TTS.
{
  const s = createSessionStream({ face, idle });
  await s.ready();
  let waiting = null;
  s.on('fragment', (_b, info) => {
    if (info.kind === 'talk' && waiting) {
      waiting(performance.now());
      waiting = null;
    }
  });
  await new Promise((r) => setTimeout(r, 500));
  const media = [];
  const withTts = [];
  const short = 'Sure, I can do that.';
  for (let i = 0; i < TRIALS; i++) {
    const t0 = performance.now();
    const sp = await voice.synthesize(short);
    const t1 = performance.now();
    const first = new Promise((r) => (waiting = r));
    const h = s.speak(sp);
    const at = await first;
    media.push(at - t1);
    withTts.push(at - t0);
    await h.done;
    await new Promise((r) => setTimeout(r, 300));
  }
  s.close();
  row(
    'first talk fragment after speak() p50/p95',
    `${pct(media, 50).toFixed(0)}/${pct(media, 95).toFixed(0)} ms`,
    'target < ~100 ms',
  );
  row(
    '  ... counting TTS of a short sentence p50/p95',
    `${pct(withTts, 50).toFixed(0)}/${pct(withTts, 95).toFixed(0)} ms`,
  );
}

// 5. Sessions per core from the measured costs.
for (const talking of [0.3, 0.5, 1]) {
  const perSession = talking * talkCost + (1 - talking) * listenCost;
  row(
    `live media sessions per core (talking ${Math.round(talking * 100)}% of the time)`,
    `${Math.floor(1 / perSession)}`,
    `listening only: ${listenCost > 0 ? Math.floor(1 / listenCost) : 'unbounded'}`,
  );
}
