import { defaultVoice } from '../../src/models/voice/index.js';
import type { Sock } from './edge.js';

/** A synthesized utterance as 16 kHz PCM16 mic frames of 1600 samples (spec 4.6), padded with silence. */
export async function utteranceFrames(text: string, silenceFrames = 10): Promise<Buffer[]> {
  const speech = await defaultVoice().synthesize(text);
  if (speech.sampleRate !== 16_000) throw new Error(`voice gave ${speech.sampleRate} Hz`);
  const frames: Buffer[] = [];
  for (let o = 0; o < speech.samples.length; o += 1600) {
    const f = new Int16Array(1600);
    f.set(speech.samples.subarray(o, Math.min(o + 1600, speech.samples.length)));
    frames.push(Buffer.from(f.buffer));
  }
  for (let i = 0; i < silenceFrames; i++) frames.push(Buffer.alloc(3200));
  return frames;
}

/** Send frames at real-time cadence (one per 100 ms), as a microphone would; `tag` prefixes each (v2). */
export async function streamFrames(s: Sock, frames: Buffer[], tag?: number): Promise<void> {
  for (const f of frames) {
    s.ws.send(tag === undefined ? f : Buffer.concat([Buffer.from([tag]), f]));
    await new Promise((r) => setTimeout(r, 100));
  }
}
