// Generations (issue 10). Speak: render time per second of output video at the default
// 352x480, 24 fps (target: at most 0.1 s per second of video on one core), next to a bare
// ffmpeg encode of the same frames with the same encoder settings (the floor). Design: its
// real-time factor next to the bare synthesizer's. Runs against dist/; asserts nothing.
import { readFileSync } from 'node:fs';
import { startEmulator } from '../dist/emulator/start.js';
import { decodePhoto, PhotoRenderer } from '../dist/media/photo.js';
import { runFfmpeg, writeAsync } from '../dist/media/ffmpeg.js';
import { SPEECH_VIDEO_ARGS } from '../dist/media/speech-clip.js';
import { FliteVoice, writeWav } from '../dist/models/voice/index.js';
import { mouthTrack, talkEyes } from '../dist/media/lip-sync.js';
import { designVoice } from '../dist/emulator/generations/design-voice.js';

const RUNS = Number(process.env.BENCH_SPEAK_RUNS ?? 3);
const TEXT =
  'Thanks for calling. Your order shipped this morning and should arrive on Thursday. ' +
  'If anything is missing, reply to the confirmation email and we will sort it out the same day. ' +
  'Is there anything else I can help you with today?';
const face = readFileSync(new URL('../fixtures/personas/leo/face.png', import.meta.url));
const flite = new FliteVoice();
const ref = await flite.synthesize(
  'Hello, this is the voice I would like you to use for the clip.',
  { shape: { voice: 'rms' } },
);
const dataUri = (type, bytes) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
const body = {
  text: TEXT,
  image: dataUri('image/png', face),
  voice_ref: dataUri('audio/wav', writeWav(ref.samples, ref.sampleRate)),
};
const line = (label, value) => console.log(`${label.padEnd(58)} ${value}`);

// Recognition of the reference runs once per voice in the background; off here so it never overlaps a timed render.
const emu = await startEmulator({
  port: 0,
  inMemory: true,
  idleMedia: false,
  transcribeVoiceRefs: false,
});
try {
  const speak = async () => {
    const t0 = performance.now();
    const res = await fetch(`${emu.baseUrl}/api/v1/speak`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${emu.keys.secretKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`speak answered ${res.status}`);
    return {
      wallMs: performance.now() - t0,
      genMs: Number(res.headers.get('x-gen-ms')),
      cloneMs: Number(res.headers.get('x-clone-ms')),
      duration: Number(res.headers.get('x-duration')),
    };
  };
  const first = await speak(); // measures and caches the voice (the "clone")
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await speak());
  const best = runs.reduce((a, b) => (a.genMs <= b.genMs ? a : b));
  line('speak: video length', `${best.duration.toFixed(2)} s at 352x480, 24 fps`);
  line('speak: first request clone (decode + measure reference)', `${first.cloneMs} ms`);
  line(
    'speak: X-Gen-Ms per second of video (TTS + frames + encode)',
    `${(best.genMs / 1000 / best.duration).toFixed(3)} s/s (target <= 0.100)`,
  );
  line(
    'speak: whole request per second of video (client wall time)',
    `${(best.wallMs / 1000 / best.duration).toFixed(3)} s/s`,
  );

  // Reference: the same frames (the photo with the same mouth track), encoded by a bare ffmpeg.
  const speech = await flite.synthesize(TEXT, { shape: {} });
  const photo = new PhotoRenderer(await decodePhoto(face, 352, 480), 352, 480);
  const mouth = mouthTrack(speech);
  const state = (i) => ({ mouth: mouth((i * 1000) / 24), eyes: talkEyes((i * 1000) / 24) });
  const total = Math.ceil((speech.durationMs / 1000) * 24);
  const frames = Array.from({ length: total }, (_, i) => Buffer.from(photo.render(state(i))));
  const t0 = performance.now();
  await runFfmpeg(
    // The encoder settings of src/media/speech-clip.ts (video only).
    [
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      '352x480',
      '-r',
      '24',
      '-i',
      '-',
      ...SPEECH_VIDEO_ARGS,
      '-f',
      'mp4',
      '-y',
      '/dev/null',
    ],
    async (stdin) => {
      for (const f of frames) await writeAsync(stdin, f);
    },
  );
  const bare = (performance.now() - t0) / 1000;
  line(
    'reference: bare ffmpeg encode of the same frames',
    `${(bare / (total / 24)).toFixed(3)} s/s`,
  );
  let tts = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t1 = performance.now();
    await flite.synthesize(TEXT, { shape: {} });
    tts = Math.min(tts, (performance.now() - t1) / speech.durationMs);
  }
  line('reference: TTS alone per second of speech (best of runs)', `${tts.toFixed(3)} s/s`);

  // Design: real-time factor through the route, next to the bare synthesizer.
  const DESCRIPTION = 'a calm middle-aged woman with a warm, slightly low voice';
  const rtfs = [];
  for (let i = 0; i < RUNS; i++) {
    const res = await fetch(`${emu.baseUrl}/api/v1/design`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${emu.keys.secretKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ description: DESCRIPTION, text: TEXT }),
    });
    rtfs.push((await res.json()).rtf);
  }
  line('design: rtf (gen time / audio time, best of runs)', `${Math.min(...rtfs).toFixed(4)}`);
  let bareRtf = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t2 = performance.now();
    const bareSpeech = await flite.synthesize(TEXT, { shape: designVoice(DESCRIPTION).shape });
    bareRtf = Math.min(bareRtf, (performance.now() - t2) / bareSpeech.durationMs);
  }
  line('reference: bare flite rtf, same text and voice (best of runs)', bareRtf.toFixed(4));
} finally {
  await emu.stop();
}
