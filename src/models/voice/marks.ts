/**
 * Phone and word timings from flite's `-psdur` trace. flite prints each segment with its
 * end time (`hh:0.255`); a phrase break restarts the clock on a new line (`\npau:...`).
 * flite reports no word timings, so words are found by a second, silent run of the same
 * tokens each followed by a full stop: each token then ends in a pause, which splits the
 * phones into per-token groups; the groups' sizes are laid over the real run's phones.
 * When flite joins tokens into one group (an abbreviation such as "Mr." runs into the next
 * word), `alignCounts` finds which neighbours share a group (a small dynamic programme on
 * estimated phone counts) and splits that group between them; failing that, words are
 * spread over the phones by letter count.
 */
import type { SpeechMark } from '../voice.js';
import { own } from '../../contract/own.js';

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
    marks.push({
      text: tok.slice(0, colon),
      startMs: start,
      endMs: Math.round((phraseStart + end) * 1000),
    });
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
export function wordMarks(
  words: string[],
  phones: SpeechMark[],
  counts: number[] | null,
): SpeechMark[] {
  const voiced = phones.filter((p) => p.text !== 'pau');
  if (voiced.length === 0 || words.length === 0) return [];
  let sizes =
    counts && counts.length === words.length && sum(counts) === voiced.length ? counts : null;
  if (!sizes) {
    // Spread by letters: keeps order and total, loses exact boundaries.
    const letters = words.map((w) => Math.max(1, w.length));
    const total = sum(letters);
    let acc = 0;
    let prev = 0;
    sizes = letters.map((l, i) => {
      acc += l;
      const upto =
        i === words.length - 1
          ? voiced.length
          : Math.max(prev + 1, Math.round((acc / total) * voiced.length));
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

/** Phone counts of the abbreviations flite expands (they are what joins tokens). */
const ABBREVIATIONS: Record<string, number> = {
  mr: 5,
  mrs: 5,
  ms: 3,
  dr: 5,
  st: 5,
  jr: 6,
  sr: 6,
  prof: 8,
  mt: 6,
  vs: 6,
  etc: 9,
  ave: 6,
  no: 6,
};

/** Rough phone count of a token as flite says it (digits expand into number words). */
function estimatePhones(token: string): number {
  const bare = token.toLowerCase().replace(/\./g, '');
  const abbreviation = own(ABBREVIATIONS, bare);
  if (abbreviation !== undefined) return abbreviation;
  // Spelled-out letters: U.S.A, a.m, FBI.
  if (/^(\p{L}\.)+\p{L}?$/u.test(token) || /^\p{Lu}{2,4}$/u.test(token)) return bare.length * 2;
  let n = 0;
  for (const ch of token) n += /\p{N}/u.test(ch) ? 4 : /\p{L}/u.test(ch) ? 0.85 : 0;
  return Math.max(1, n);
}

/**
 * Phones per token when the probe found fewer groups than tokens: each group takes one or
 * more consecutive tokens (the split that best matches estimated counts), and a shared
 * group's phones are divided by the estimates. Null when it cannot apply.
 */
export function alignCounts(tokens: string[], groups: number[]): number[] | null {
  const T = tokens.length;
  const G = groups.length;
  if (G === 0 || G > T) return null;
  if (G === T) return groups;
  const est = tokens.map(estimatePhones);
  const pre = [0];
  for (const e of est) pre.push(pre[pre.length - 1]! + e);
  const cost = (k: number, i: number, g: number) =>
    Math.abs(groups[g]! - (pre[i]! - pre[k]!)) / groups[g]!;
  // dp[j][i]: best cost placing the first i tokens into the first j groups.
  const dp = Array.from({ length: G + 1 }, () => new Array<number>(T + 1).fill(Infinity));
  const from = Array.from({ length: G + 1 }, () => new Array<number>(T + 1).fill(-1));
  dp[0]![0] = 0;
  for (let j = 1; j <= G; j++) {
    for (let i = j; i <= T - (G - j); i++) {
      for (let k = j - 1; k < i; k++) {
        const c = dp[j - 1]![k]! + cost(k, i, j - 1) + (i - k - 1) * 0.5; // sharing a group is the exception
        if (c < dp[j]![i]!) {
          dp[j]![i] = c;
          from[j]![i] = k;
        }
      }
    }
  }
  if (!Number.isFinite(dp[G]![T]!)) return null;
  const counts = new Array<number>(T).fill(0);
  for (let j = G, i = T; j > 0; j--) {
    const k = from[j]![i]!;
    const share = pre[i]! - pre[k]!;
    let left = groups[j - 1]!;
    for (let t = k; t < i; t++) {
      const c =
        t === i - 1
          ? left
          : Math.min(
              left - (i - 1 - t),
              Math.max(1, Math.round((groups[j - 1]! * est[t]!) / share)),
            );
      counts[t] = c;
      left -= c;
    }
    i = k;
  }
  return counts.every((c) => c > 0) ? counts : null;
}
