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
  frames.push(...silence(silenceFrames));
  return frames;
}

/** `n` zeroed mic frames (100 ms each). */
const silence = (n: number): Buffer[] => Array.from({ length: n }, () => Buffer.alloc(3200));

/**
 * Send frames one per `paceMs` (default 100 ms: real-time cadence, as a microphone would);
 * `tag` prefixes each (v2). The box's voice activity and partials run on mic-stream
 * positions (frame counts), not on a clock, so a test that does not watch the avatar talk
 * while the user speaks can send faster than real time (`FAST_MIC_MS`). Not with
 * pocketsphinx: its stream would fall behind, and the batch fallback (recognition.ts) loads
 * the model again, which is slower than the real-time stream on a loaded machine.
 */
export async function streamFrames(
  s: Sock,
  frames: Buffer[],
  tag?: number,
  paceMs = 100,
): Promise<void> {
  for (const f of frames) {
    s.ws.send(tag === undefined ? f : Buffer.concat([Buffer.from([tag]), f]));
    await new Promise((r) => setTimeout(r, paceMs));
  }
}

/** A mic pace five times real time (20 ms per 100 ms frame), for a session without pocketsphinx. */
export const FAST_MIC_MS = 20;

/**
 * Say `text` on a mic socket and see a `partial` before the utterance ends: the speech
 * frames at real-time cadence and 400 ms of silence (pocketsphinx ends its own utterance
 * after 200 ms and prints the words; the box's turn needs 700 ms), then, once the box has
 * sent a partial, the rest of the silence, which ends the utterance. The pocketsphinx stream
 * sends partials as it catches up with the frames, and on a busy machine it may catch up
 * only after the utterance ended (the turn then comes with no partial before it): waiting
 * for the partial, not for time, makes the check independent of load. Resolves with it.
 */
export async function speakSeeingPartial(
  s: Sock,
  text: string,
  tag?: number,
  partialTimeoutMs = 30_000,
): Promise<any> {
  await streamFrames(s, await utteranceFrames(text, 4), tag);
  const partial = await s.next((x) => x.type === 'partial', partialTimeoutMs);
  await streamFrames(s, silence(6), tag);
  return partial;
}
