/**
 * Phones and their timings for espeak-ng's audio (espeak.ts). espeak-ng's command line prints
 * phonemes (`-x`, Kirshenbaum ASCII: one line per clause, words split by spaces) but no
 * timings: `--pho`, the one output with durations, is written only for MBROLA voices (it
 * says "Cannot find MBROLA voice" without the mbrola package). So the phones are laid over
 * the audio's voiced time, in order, a vowel weighing more than a consonant; the silent
 * stretches between become pauses. On flite's own audio (whose true phone times are known)
 * phone starts land ~170 ms from the truth on average, against ~218 ms spreading them evenly
 * over the whole clip: rough, but the mouth is shut where the audio is silent and moves where
 * it is not (docs/media.md "espeak-ng").
 *
 * The symbols are mapped to the ARPAbet names lip-sync.ts's viseme table reads (open vowels
 * wide, rounded vowels medium, m/b/p closed, f/v nearly closed, any other consonant 0.28), so
 * the mouth follows espeak's phones the way it follows flite's.
 */
import type { SpeechMark } from '../voice.js';

/** Kirshenbaum vowel symbol -> the ARPAbet vowel of the nearest mouth shape. */
const VOWELS: Record<string, string> = {
  a: 'aa',
  A: 'aa',
  '&': 'ae',
  '@': 'ax',
  '3': 'er',
  E: 'eh',
  e: 'ey',
  I: 'ih',
  i: 'iy',
  O: 'ao',
  o: 'ow',
  '0': 'ao',
  U: 'uh',
  u: 'uw',
  V: 'ah',
  Y: 'uh',
  y: 'uw',
  W: 'ow',
};
/** Consonants with their own mouth shape (lip-sync.ts); any other consonant is drawn alike. */
const LIPS: Record<string, string> = { p: 'p', b: 'b', m: 'm', f: 'f', v: 'v', w: 'w' };
/** Marks that modify the symbol before them (nasal, long, palatal, retroflex, tones, variants). */
const MODIFIER = /[~:;.#^"*0-9]/;

export interface EspeakPhone {
  /** The ARPAbet-style viseme name (lip-sync.ts). */
  viseme: string;
  vowel: boolean;
  /** Relative length: long vowels > vowels > consonants. */
  weight: number;
}

/**
 * espeak-ng's `-x` output as words of phones. Language switches (`(en)`), stress marks,
 * syllable breaks and pause markers (`_|`, `_!`) are dropped; a modifier belongs to the
 * symbol before it.
 */
export function parseEspeakPhonemes(out: string): EspeakPhone[][] {
  const words: EspeakPhone[][] = [];
  for (const raw of out.replace(/\([a-z-]+\)/gi, ' ').split(/\s+/)) {
    const word: EspeakPhone[] = [];
    const s = raw.replace(/_[^\p{L}\s]?/gu, '').replace(/['`,=\-!|]/g, '');
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      const last = word.at(-1);
      // A digit after a vowel (or a tone digit) is a tone ("ma21"); else `0` and `3` are vowels.
      const tone = /[0-9]/.test(c) && (last?.vowel || /[0-9]/.test(s[i - 1] ?? ''));
      if (tone || (MODIFIER.test(c) && !/[03]/.test(c))) {
        if (last && c === ':') last.weight += 0.5;
        continue;
      }
      const vowel = VOWELS[c];
      if (vowel) word.push({ viseme: vowel, vowel: true, weight: 1.5 });
      else if (/[a-zA-Z]/.test(c))
        word.push({ viseme: LIPS[c] ?? c.toLowerCase(), vowel: false, weight: 1 });
    }
    if (word.length) words.push(word);
  }
  return words;
}

/** A stretch of audio with sound in it, in ms. */
export interface Region {
  startMs: number;
  endMs: number;
}

const FRAME_MS = 10;
/** Frames this far below the loudest are silence. */
const SILENCE_DB = 35;
/** A silence shorter than this inside speech is a stop closure, not a pause. */
const MIN_GAP_MS = 80;

/** The voiced regions of mono PCM16: 10 ms frames above the silence floor, short gaps bridged. */
export function voicedRegions(samples: Int16Array, sampleRate: number): Region[] {
  const hop = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const energy: number[] = [];
  for (let o = 0; o < samples.length; o += hop) {
    let e = 0;
    const end = Math.min(samples.length, o + hop);
    for (let i = o; i < end; i++) e += samples[i]! * samples[i]!;
    energy.push(e / Math.max(1, end - o));
  }
  const floor = Math.max(...energy, 1) * 10 ** (-SILENCE_DB / 10);
  const regions: Region[] = [];
  energy.forEach((e, f) => {
    if (e <= floor) return;
    const startMs = f * FRAME_MS;
    const last = regions.at(-1);
    if (last && startMs - last.endMs < MIN_GAP_MS) last.endMs = startMs + FRAME_MS;
    else regions.push({ startMs, endMs: startMs + FRAME_MS });
  });
  return regions;
}

/**
 * Phones laid over the voiced regions in order (each gets its weight's share of the voiced
 * time), with `pau` over the silence before, between and after. Words come out alongside
 * (first phone's start to last phone's end).
 */
export function timePhones(
  words: EspeakPhone[][],
  regions: Region[],
  durationMs: number,
): { phones: SpeechMark[]; words: { startMs: number; endMs: number }[] } {
  const all = words.flat();
  const voicedMs = regions.reduce((s, r) => s + r.endMs - r.startMs, 0);
  const total = all.reduce((s, p) => s + p.weight, 0);
  const phones: SpeechMark[] = [];
  const spans: { startMs: number; endMs: number }[] = [];
  if (all.length === 0 || voicedMs === 0) {
    return {
      phones: durationMs > 0 ? [{ text: 'pau', startMs: 0, endMs: durationMs }] : [],
      words: [],
    };
  }
  // Voiced time -> (region, audio time); a start exactly at a region's end belongs to the next.
  const locate = (v: number, starting: boolean): { k: number; ms: number } => {
    let left = v;
    for (let k = 0; k < regions.length; k++) {
      const len = regions[k]!.endMs - regions[k]!.startMs;
      if (starting ? left < len : left <= len) return { k, ms: regions[k]!.startMs + left };
      left -= len;
    }
    return { k: regions.length - 1, ms: regions.at(-1)!.endMs };
  };
  const pause = (startMs: number, endMs: number) => {
    if (endMs > startMs) phones.push({ text: 'pau', startMs, endMs });
  };
  let v = 0;
  let cursor = 0;
  for (const word of words) {
    const wordStart = phones.length;
    for (const p of word) {
      const from = locate(v, true);
      v += (p.weight / total) * voicedMs;
      const to = locate(v, false);
      // A phone that runs over a silent gap ends with its region: the gap is a pause.
      const start = Math.max(cursor, Math.round(from.ms));
      const end = Math.max(start, Math.round(to.k > from.k ? regions[from.k]!.endMs : to.ms));
      pause(cursor, start);
      phones.push({ text: p.viseme, startMs: start, endMs: end });
      cursor = end;
    }
    if (phones.length > wordStart)
      spans.push({
        startMs: phones.slice(wordStart).find((p) => p.text !== 'pau')!.startMs,
        endMs: cursor,
      });
  }
  pause(Math.round(cursor), durationMs);
  return { phones, words: spans };
}
