/**
 * POST /api/v1/speak (spec 4.10): text + face + voice reference in, a lip-synced MP4 out,
 * read back with the shipped ffmpeg (codecs, size, frame rate, duration, faststart), its
 * audio measured (the reference's pitch carries over), its frames compared (end_frame).
 */
import { describe, expect, it } from 'vitest';
import { decodeAudio } from '../src/media/audio.js';
import {
  FliteVoice,
  measureVoice,
  voiceShapeFromSample,
  writeWav,
} from '../src/models/voice/index.js';
import { generationState } from '../src/emulator/generations/state.js';
import { useEmulator } from './helpers/emulator.js';
import {
  dataUri,
  frames,
  meanColor,
  mp4Audio,
  mp4Info,
  solidPng,
  spokenWav,
  transcode,
} from './helpers/generation-media.js';
import { png } from './helpers/avatar-media.js';

// Transcription of references has its own emulator below (it runs pocketsphinx when installed).
const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false });
const TEXT = 'Welcome to the demo. I can talk with any face you give me, and with your voice.';

const speak = (body: unknown) => h.api('/api/v1/speak', { body });

/** What the service should say: the same text in the voice shaped from the same reference. */
async function expectedSpeechS(ref: Buffer, text: string): Promise<number> {
  const pcm = await decodeAudio(ref, 16_000, { maxSeconds: 30 });
  const s = await new FliteVoice().synthesize(text, {
    shape: voiceShapeFromSample(pcm, 16_000) ?? undefined,
  });
  return s.durationMs / 1000;
}

describe('speak from local media (data: URIs)', () => {
  it('answers an H.264 + AAC faststart MP4 at the default 352x480, 24 fps, as long as the speech, with the timing headers', async () => {
    const ref = await spokenWav(
      'Hello, this is my own voice. I am reading a short sample for you.',
      { voice: 'rms', pitchHz: 110 },
    );
    const r = await speak({
      text: TEXT,
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
    });
    expect(r.status).toBe(200);
    expect(r.type).toBe('video/mp4');
    const info = await mp4Info(r.body);
    expect(info.video).toMatchObject({ codec: 'h264', width: 352, height: 480, fps: 24 });
    expect(info.audio?.codec).toBe('aac');
    expect(info.faststart).toBe(true);
    const speech = await expectedSpeechS(ref, TEXT);
    expect(Math.abs(info.durationS - speech)).toBeLessThan(speech * 0.1);
    expect(Math.abs(Number(r.headers.get('x-duration')) - speech)).toBeLessThan(speech * 0.1);
    for (const name of ['x-clone-ms', 'x-gen-ms', 'x-total-ms'])
      expect(Number(r.headers.get(name))).toBeGreaterThanOrEqual(0);
    expect(Number(r.headers.get('x-total-ms'))).toBeGreaterThanOrEqual(
      Number(r.headers.get('x-gen-ms')),
    );
    expect(r.headers.get('x-box-id')).toBe(
      (await h.op('/_emulator/boxes').then((x) => x.json())).data[0].id,
    );
  });

  it('honours width, height and frame_rate; a longer text gives a longer video', async () => {
    const ref = await spokenWav('This is the reference voice for the size test.', { voice: 'slt' });
    const short = await speak({
      text: 'Hi there.',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
      width: 256,
      height: 320,
      frame_rate: 15,
    });
    expect(short.status).toBe(200);
    const info = await mp4Info(short.body);
    expect(info.video).toMatchObject({ width: 256, height: 320, fps: 15 });
    const long = await speak({
      text: TEXT,
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
      width: 256,
      height: 320,
      frame_rate: 15,
    });
    expect((await mp4Info(long.body)).durationS).toBeGreaterThan(info.durationS * 2);
  });

  it('the voice reference shapes the voice: a low reference speaks low, a high one high', async () => {
    const low = await spokenWav('My voice is quite low and slow, as you can hear in this sample.', {
      voice: 'rms',
      pitchHz: 95,
    });
    const high = await spokenWav('My voice is quite high, as you can hear in this sample.', {
      voice: 'slt',
      pitchHz: 230,
    });
    const pitchOf = async (ref: Buffer) => {
      const r = await speak({
        text: TEXT,
        image: dataUri('image/png', png()),
        voice_ref: dataUri('audio/wav', ref),
      });
      expect(r.status).toBe(200);
      const pcm = await mp4Audio(r.body);
      return measureVoice(pcm.samples, pcm.sampleRate).pitchHz!;
    };
    const lowHz = await pitchOf(low);
    const highHz = await pitchOf(high);
    expect(Math.abs(lowHz - 95)).toBeLessThan(20);
    expect(Math.abs(highHz - 230)).toBeLessThan(35);
  });

  it.each(['mp3', 'm4a', 'flac', 'ogg'] as const)(
    'takes a %s voice reference as content input_audio, with the face as an image_url part',
    async (format) => {
      const ref = await transcode(
        await spokenWav('A sample of my voice in another format.', { voice: 'slt' }),
        format,
      );
      const r = await speak({
        text: 'Hello.',
        content: [
          { type: 'image_url', image_url: { url: dataUri('image/png', png()) } },
          { type: 'input_audio', input_audio: { data: ref.toString('base64'), format } },
        ],
      });
      expect(r.status).toBe(200);
      expect((await mp4Info(r.body)).audio?.codec).toBe('aac');
    },
  );

  it('flat fields win over content parts', async () => {
    const ref = await spokenWav('Flat fields win.', { voice: 'slt' });
    const red = await solidPng('red');
    const r = await speak({
      text: 'Hello.',
      image: dataUri('image/png', red),
      voice_ref: dataUri('audio/wav', ref),
      // Content that would fail if it were used.
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'audio_url', audio_url: { url: 'data:audio/wav;base64,AAAA' } },
      ],
    });
    expect(r.status).toBe(200);
    const [first] = await frames(r.body, 16, 16);
    const [cr, cg, cb] = meanColor(first!);
    expect(cr).toBeGreaterThan(200);
    expect(cg + cb).toBeLessThan(80);
  });

  it('end_frame is the last frame; the first frame is the image', async () => {
    const ref = await spokenWav('End frame test.', { voice: 'slt' });
    const r = await speak({
      text: 'We start on red and end on blue.',
      image: dataUri('image/png', await solidPng('red')),
      end_frame: dataUri('image/png', await solidPng('blue')),
      voice_ref: dataUri('audio/wav', ref),
    });
    expect(r.status).toBe(200);
    const all = await frames(r.body, 16, 16);
    const first = meanColor(all[0]!);
    const last = meanColor(all.at(-1)!);
    expect(first[0]).toBeGreaterThan(200);
    expect(last[2]).toBeGreaterThan(200);
    expect(last[0]).toBeLessThan(40);
  });

  it('the face talks: the mouth moves while the voice speaks and the face rests in the pauses', async () => {
    const ref = await spokenWav('Lip sync test voice.', { voice: 'slt' });
    const r = await speak({
      text: 'Ah, papa. Oh, mama. Aha!',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
    });
    expect(r.status).toBe(200);
    const W = 176;
    const H = 240;
    const all = await frames(r.body, W, H);
    // Mean difference over the lower middle of the face (where the mouth is).
    const diff = (a: Buffer, b: Buffer) => {
      let d = 0;
      let n = 0;
      for (let y = Math.round(H * 0.45); y < Math.round(H * 0.75); y++) {
        for (let x = Math.round(W * 0.25); x < Math.round(W * 0.75); x++, n++) {
          for (let c = 0; c < 3; c++)
            d += Math.abs(a[(y * W + x) * 3 + c]! - b[(y * W + x) * 3 + c]!);
        }
      }
      return d / n / 3;
    };
    const moved = all.map((f) => diff(f, all[0]!));
    // flite starts and ends with a pause: the first and last frames show the resting face.
    const rest = moved.at(-1)!;
    // (frames between words differ from the first by encoder noise, under 1 level)
    expect(rest).toBeLessThan(1.5);
    expect(Math.max(...moved)).toBeGreaterThan(2.5 * rest + 0.5);
    // and it opens on every vowel, not once
    expect(moved.filter((d) => d > 2 * rest + 0.3).length).toBeGreaterThan(all.length / 4);
  });
});

describe('voice reference transcripts', () => {
  const t = useEmulator({ idleMedia: false });
  const speakT = (b: unknown) => t.api('/api/v1/speak', { body: b });
  it('transcribes a reference sent without voice_text once, in the background, and keeps a sent voice_text', async () => {
    const ref = await spokenWav('Hello world. This is a test of my voice.', { voice: 'rms' });
    const r = await speakT({
      text: 'Hi.',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
    });
    expect(r.status).toBe(200);
    await generationState(t.emu.ctx).transcribing();
    const voices = (await t.op('/_emulator/generations/voices').then((x) => x.json()))
      .data as any[];
    expect(voices).toHaveLength(1);
    const { transcript } = voices[0];
    expect(transcript.source).toBe('recognized');
    // pocketsphinx when installed (.ci/run installs it); else the honest fallback says what to install.
    if (transcript.recognised)
      expect(transcript.text.toLowerCase()).toMatch(/hello|world|test|voice/);
    else expect(transcript.text).toMatch(/apt-get install/);
    // the same voice again reuses its cached entry (same transcript object, no new one)
    await speakT({
      text: 'Again.',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', ref),
    });
    const again = (await t.op('/_emulator/generations/voices').then((x) => x.json())).data;
    expect(again).toEqual(voices);
    const other = await spokenWav('Another sample of a voice.', { voice: 'slt', pitchHz: 200 });
    await speakT({
      text: 'Hi.',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', other),
      voice_text: 'Another sample of a voice.',
    });
    const after = (await t.op('/_emulator/generations/voices').then((x) => x.json())).data as any[];
    expect(
      after.some(
        (v) =>
          v.transcript?.source === 'provided' && v.transcript.text === 'Another sample of a voice.',
      ),
    ).toBe(true);
  });

  it('transcribes a reference of any length, not only whole milliseconds (a 22.05 kHz recording)', async () => {
    // 22.05 kHz audio decodes to a 16 kHz sample count that is rarely a multiple of 16.
    const ref = await spokenWav('Hello world. This is a test of my voice.', { voice: 'rms' });
    const pcm = await decodeAudio(ref, 16_000);
    const odd = writeWav(pcm.subarray(0, pcm.length - (pcm.length % 16) - 7), 16_000);
    const r = await speakT({
      text: 'Hi.',
      image: dataUri('image/png', png()),
      voice_ref: dataUri('audio/wav', odd),
    });
    expect(r.status).toBe(200);
    await generationState(t.emu.ctx).transcribing();
    const voices = (await t.op('/_emulator/generations/voices').then((x) => x.json()))
      .data as any[];
    const { transcript } = voices.at(-1);
    if (transcript.recognised)
      expect(transcript.text.toLowerCase()).toMatch(/hello|world|test|voice/);
    else expect(transcript.text).toMatch(/apt-get install/);
  });
});
