/**
 * Lip sync (ARCHITECTURE media notes): mouth openness over time from the Voice's phone
 * timings (flite's ARPAbet phones), else from the speech envelope. Openness per phone is a
 * coarse viseme table (open vowels wide, rounded vowels medium, m/b/p closed, f/v nearly
 * closed); between phones the mouth moves linearly over 50 ms so it never snaps.
 */
import type { Speech, SpeechMark } from '../models/voice.js';

const OPEN: Record<string, number> = {
  aa: 1,
  ae: 0.9,
  ah: 0.8,
  ao: 0.85,
  aw: 0.85,
  ay: 0.9,
  eh: 0.7,
  er: 0.5,
  ey: 0.65,
  ih: 0.5,
  iy: 0.4,
  ow: 0.6,
  oy: 0.7,
  uh: 0.45,
  uw: 0.35,
  ax: 0.5,
  m: 0,
  b: 0,
  p: 0,
  f: 0.12,
  v: 0.12,
  w: 0.25,
  pau: 0,
};
const CONSONANT = 0.28;
const BLEND_MS = 50;

export function phoneOpenness(phone: string): number {
  return OPEN[phone] ?? CONSONANT;
}

/** A function from speech time (ms) to mouth openness 0..1. */
export function mouthTrack(
  speech: Pick<Speech, 'phones' | 'samples' | 'sampleRate' | 'durationMs'>,
): (ms: number) => number {
  if (speech.phones && speech.phones.length > 0) return fromPhones(speech.phones);
  return fromEnvelope(speech.samples, speech.sampleRate);
}

function fromPhones(phones: SpeechMark[]): (ms: number) => number {
  return (ms) => {
    const i = phones.findIndex((p) => ms < p.endMs);
    if (i < 0) return 0;
    const p = phones[i]!;
    if (ms < p.startMs) return 0;
    const here = phoneOpenness(p.text);
    const prev = i > 0 ? phoneOpenness(phones[i - 1]!.text) : 0;
    const into = ms - p.startMs;
    return into >= BLEND_MS ? here : prev + ((here - prev) * into) / BLEND_MS;
  };
}

/** RMS in 40 ms windows, scaled so the loud end of this utterance opens the mouth fully. */
function fromEnvelope(samples: Int16Array, rate: number): (ms: number) => number {
  const win = Math.round(rate / 25);
  const rms: number[] = [];
  for (let o = 0; o < samples.length; o += win) {
    let e = 0;
    const end = Math.min(samples.length, o + win);
    for (let i = o; i < end; i++) e += samples[i]! * samples[i]!;
    rms.push(Math.sqrt(e / Math.max(1, end - o)));
  }
  const peak = [...rms].sort((a, b) => a - b)[Math.floor(rms.length * 0.95)] ?? 1;
  return (ms) => {
    const v = rms[Math.floor(ms / 40)] ?? 0;
    return Math.min(1, Math.max(0, (v / (peak || 1) - 0.1) / 0.9));
  };
}

/** Eyes for talking frames: open, with a blink every ~3.7 s (deterministic in time). */
export function talkEyes(ms: number): number {
  const d = Math.abs((ms % 3700) - 1800);
  return d < 90 ? d / 90 : 1;
}
