/**
 * Voice shaping (issue 8 item 4): measure a voice sample's median pitch and pace so a
 * custom avatar's replies come out near the sample's voice. Pure DSP over mono PCM16:
 *
 * - pitch: normalized autocorrelation on 40 ms frames (10 ms hop) of the loud frames,
 *   searched between 60 and 400 Hz; a frame counts as voiced when its best correlation
 *   exceeds 0.6; the result is the median over voiced frames (robust to octave slips).
 * - pace: syllable nuclei are peaks of the smoothed energy envelope (at least 100 ms
 *   apart, rising 3 dB over the dip before them); the syllable rate is peaks per second of
 *   speech (frames above the silence floor, so pauses do not slow it). `rate` is that
 *   rate over REFERENCE_SYLLABLES_PER_S, the same estimator's reading of flite's own
 *   default voices (test/voice.test.ts checks flite's default pace reads close to 1).
 */
import type { VoiceShape } from '../voice.js';

/** flite's default pace as this estimator reads it (slt reads ~3.7, rms ~4.5, kal16 ~5.1). */
export const REFERENCE_SYLLABLES_PER_S = 4.5;

export interface VoiceMeasure {
  /** Median pitch of voiced frames, Hz (null when nothing voiced was found). */
  pitchHz: number | null;
  /** Energy-peak (syllable) rate per second of speech. */
  syllablesPerS: number | null;
  /** Seconds of speech (frames above the silence floor). */
  speechS: number;
}

export function measureVoice(samples: Int16Array, sampleRate: number): VoiceMeasure {
  const hop = Math.round(sampleRate / 100);
  const win = hop * 4;
  const frames = Math.max(0, Math.floor((samples.length - win) / hop));
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = 0, o = f * hop; i < win; i++) e += samples[o + i]! * samples[o + i]!;
    energy[f] = e / win;
  }
  const loud = Math.max(...energy, 1);
  const floor = loud * 10 ** (-35 / 10);
  const speechFrames = energy.filter((e) => e > floor).length;
  return {
    pitchHz: medianPitch(samples, sampleRate, energy, loud * 10 ** (-25 / 10), hop, win),
    syllablesPerS: syllableRate(energy, floor, speechFrames),
    speechS: speechFrames / 100,
  };
}

function medianPitch(
  x: Int16Array,
  rate: number,
  energy: Float64Array,
  gate: number,
  hop: number,
  win: number,
): number | null {
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.ceil(rate / 60);
  const found: number[] = [];
  for (let f = 0; f < energy.length; f++) {
    if (energy[f]! < gate) continue;
    const o = f * hop;
    if (o + win + maxLag > x.length) break;
    let e0 = 0;
    for (let i = 0; i < win; i++) e0 += x[o + i]! * x[o + i]!;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let c = 0;
      let e1 = 0;
      for (let i = 0; i < win; i++) {
        c += x[o + i]! * x[o + i + lag]!;
        e1 += x[o + i + lag]! * x[o + i + lag]!;
      }
      const r = c / Math.sqrt(e0 * e1 + 1e-9);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6 && bestLag > 0) found.push(rate / bestLag);
  }
  if (found.length === 0) return null;
  found.sort((a, b) => a - b);
  return Math.round(found[Math.floor(found.length / 2)]!);
}

function syllableRate(energy: Float64Array, floor: number, speechFrames: number): number | null {
  if (speechFrames < 20) return null;
  // 50 ms moving average of the energy in dB.
  const db = Array.from(energy, (e) => 10 * Math.log10(e + 1e-9));
  const smooth = db.map((_, i) => {
    let s = 0;
    let n = 0;
    for (let k = Math.max(0, i - 2); k <= Math.min(db.length - 1, i + 2); k++, n++) s += db[k]!;
    return s / n;
  });
  const floorDb = 10 * Math.log10(floor);
  let peaks = 0;
  let last = -100;
  let dip = Infinity;
  for (let i = 1; i < smooth.length - 1; i++) {
    dip = Math.min(dip, smooth[i]!);
    const isPeak = smooth[i]! >= smooth[i - 1]! && smooth[i]! > smooth[i + 1]!;
    if (isPeak && smooth[i]! > floorDb + 6 && smooth[i]! - dip >= 3 && i - last >= 10) {
      peaks++;
      last = i;
      dip = Infinity;
    }
  }
  return peaks / (speechFrames / 100);
}

/**
 * The VoiceShape a sample asks for: its median pitch and its pace relative to flite's.
 * null when nothing in it is voiced (silence, hiss, a click): there is no voice to copy, and
 * a pace read from no syllables would be the slowest there is (it used to give rate 0.5).
 */
export function voiceShapeFromSample(samples: Int16Array, sampleRate: number): VoiceShape | null {
  const m = measureVoice(samples, sampleRate);
  if (m.pitchHz === null) return null;
  const shape: VoiceShape = { pitchHz: m.pitchHz };
  if (m.syllablesPerS)
    shape.rate = Math.min(2, Math.max(0.5, round2(m.syllablesPerS / REFERENCE_SYLLABLES_PER_S)));
  return shape;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
