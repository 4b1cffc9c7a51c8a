/**
 * Phone and word timings from flite's `-psdur` trace. flite prints each segment with its
 * end time (`hh:0.255`); a phrase break restarts the clock on a new line (`\npau:...`).
 * flite reports no word timings, so words are found by a second, silent run of the same
 * tokens each followed by a full stop: each token then ends in a pause, which splits the
 * phones into per-token groups; the groups' sizes are laid over the real run's phones.
 * When the counts disagree (abbreviations such as "Mr." join tokens), words fall back to
 * spreading the phones over the tokens by letter count.
 */
import type { SpeechMark } from '../voice.js';

export function parsePhoneTrace(trace: string): SpeechMark[] {
  const marks: SpeechMark[] = [];
  let phraseStart = 0;
  for (const raw of trace.split(/[ \t]+/)) {
    const tok = raw.trim();
    if (!tok) continue;
    const colon = tok.lastIndexOf(':');
    if (colon <= 0) continue;
    const end = Number(tok.slice(colon + 1));
    if (!Number.isFinite(end)) continue;
    const start = marks.length ? marks[marks.length - 1]!.endMs : 0;
    if (raw.startsWith('\n') || raw.includes('\n')) phraseStart = start / 1000;
    marks.push({ text: tok.slice(0, colon), startMs: start, endMs: Math.round((phraseStart + end) * 1000) });
  }
  return marks;
}

/** The text's words as spoken tokens (punctuation stripped, empties dropped). */
export function wordTokens(text: string): { token: string; spoken: string }[] {
  return text
    .split(/\s+/)
    .map((token) => ({ token, spoken: token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') }))
    .filter((t) => t.spoken.length > 0);
}

/** Phone groups of the full-stop-separated run: one array of phones per pause-delimited group. */
export function phoneGroups(marks: SpeechMark[]): number[] {
  const groups: number[] = [];
  let n = 0;
  for (const m of marks) {
    if (m.text === 'pau') {
      if (n > 0) groups.push(n);
      n = 0;
    } else n++;
  }
  if (n > 0) groups.push(n);
  return groups;
}

/** Word timings over `phones` given each word's phone count (or a letter-count fallback). */
export function wordMarks(words: string[], phones: SpeechMark[], counts: number[] | null): SpeechMark[] {
  const voiced = phones.filter((p) => p.text !== 'pau');
  if (voiced.length === 0 || words.length === 0) return [];
  let sizes = counts && counts.length === words.length && sum(counts) === voiced.length ? counts : null;
  if (!sizes) {
    // Spread by letters: keeps order and total, loses exact boundaries.
    const letters = words.map((w) => Math.max(1, w.length));
    const total = sum(letters);
    let acc = 0;
    let prev = 0;
    sizes = letters.map((l, i) => {
      acc += l;
      const upto = i === words.length - 1 ? voiced.length : Math.max(prev + 1, Math.round((acc / total) * voiced.length));
      const size = Math.max(0, Math.min(voiced.length, upto) - prev);
      prev += size;
      return size;
    });
  }
  const out: SpeechMark[] = [];
  let i = 0;
  words.forEach((w, k) => {
    const size = sizes![k]!;
    if (size === 0) return;
    const first = voiced[i]!;
    const last = voiced[Math.min(voiced.length - 1, i + size - 1)]!;
    out.push({ text: w, startMs: first.startMs, endMs: last.endMs });
    i += size;
  });
  return out;
}

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
