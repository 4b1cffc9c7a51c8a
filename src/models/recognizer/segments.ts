/**
 * `verbose_json` segments (spec 4.12) for recognisers: the words a recogniser timed, grouped
 * by the speech regions the VAD found (a pause of 400 ms or more starts a new segment).
 * A word belongs to the region it overlaps most, else to the nearest one.
 */
import type { RecognitionSegment } from '../recognizer.js';
import { createWebRtcVad, speechRegions, type SpeechRegion } from '../vad/index.js';

export interface TimedWord {
  text: string;
  startS: number;
  endS: number;
}

export async function vadRegions(samples: Int16Array): Promise<SpeechRegion[]> {
  const vad = await createWebRtcVad();
  try {
    return speechRegions(samples, vad);
  } finally {
    vad.dispose();
  }
}

export function groupWords(words: TimedWord[], regions: SpeechRegion[]): RecognitionSegment[] {
  if (words.length === 0) return [];
  if (regions.length === 0)
    return [
      {
        startS: words[0].startS,
        endS: words[words.length - 1].endS,
        text: words.map((w) => w.text).join(' '),
      },
    ];
  const buckets: TimedWord[][] = regions.map(() => []);
  for (const w of words) {
    let best = 0;
    let bestScore = -Infinity;
    regions.forEach((r, i) => {
      const overlap = Math.min(r.endS, w.endS) - Math.max(r.startS, w.startS);
      const score =
        overlap > 0 ? overlap : -Math.min(Math.abs(r.startS - w.endS), Math.abs(w.startS - r.endS));
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    buckets[best].push(w);
  }
  const out: RecognitionSegment[] = [];
  buckets.forEach((ws, i) => {
    if (ws.length === 0) return;
    out.push({
      startS: round(Math.min(regions[i].startS, ws[0].startS)),
      endS: round(Math.max(regions[i].endS, ws[ws.length - 1].endS)),
      text: ws.map((w) => w.text).join(' '),
    });
  });
  return out;
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** Words pocketsphinx prints that are not words ("<s>", "<sil>", "[NOISE]", "++UH++"). */
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/** `-time yes` output: a hypothesis line per utterance, then "word start end confidence" lines. */
export function parseTimedWords(stdout: string): TimedWord[] {
  const words: TimedWord[] = [];
  for (const line of stdout.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length !== 4 || ![f[1], f[2], f[3]].every((x) => /^-?\d+(\.\d+)?$/.test(x))) continue;
    const text = f[0].replace(/\(\d+\)$/, ''); // "your(2)": an alternative pronunciation
    if (FILLER.test(text)) continue;
    words.push({ text, startS: Number(f[1]), endS: Number(f[2]) });
  }
  return words;
}
