/**
 * Where the speech is in a recording: the VAD's 100 ms decisions turned into regions, with
 * pauses shorter than `bridgeMs` bridged (a breath inside a sentence is not a new segment).
 * The recognisers use these as `verbose_json` segments (spec 4.12) when the recogniser
 * itself reports no timing.
 */
import type { Vad } from '../vad.js';

export interface SpeechRegion {
  startS: number;
  endS: number;
}

const FRAME = 1600; // 100 ms at 16 kHz

export function speechRegions(
  samples: Int16Array,
  vad: Vad,
  opts: { bridgeMs?: number } = {},
): SpeechRegion[] {
  const bridge = Math.round((opts.bridgeMs ?? 400) / 100);
  vad.reset();
  const out: { start: number; end: number }[] = [];
  const frames = Math.ceil(samples.length / FRAME);
  for (let i = 0; i < frames; i++) {
    let frame = samples.subarray(i * FRAME, (i + 1) * FRAME);
    if (frame.length % 160 !== 0) {
      // The tail is padded with silence up to the next 10 ms.
      const padded = new Int16Array(Math.ceil(frame.length / 160) * 160);
      padded.set(frame);
      frame = padded;
    }
    if (!vad.isSpeech(frame)) continue;
    const last = out[out.length - 1];
    if (last && i - last.end <= bridge) last.end = i + 1;
    else out.push({ start: i, end: i + 1 });
  }
  vad.reset();
  const total = samples.length / 16_000;
  return out.map((r) => ({ startS: r.start / 10, endS: Math.min(total, r.end / 10) }));
}
