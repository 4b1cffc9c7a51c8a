import { terms } from './text.js';

/**
 * The local embedding model (spec 4.12 embeddings): signed feature hashing of word
 * unigrams, word bigrams and character trigrams (of each word with boundary marks) into
 * `dims` buckets, L2-normalised. Deterministic and offline; texts that share words and
 * spellings get a higher cosine similarity than texts that do not.
 */
export const DEFAULT_DIMS = 384;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function add(v: Float64Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const sign = (h & 1) === 0 ? 1 : -1;
  v[(h >>> 1) % v.length]! += sign * weight;
}

export function embed(text: string, dims = DEFAULT_DIMS): number[] {
  const v = new Float64Array(dims);
  const words = terms(text);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    add(v, `w:${w}`, 1);
    if (i > 0) add(v, `b:${words[i - 1]} ${w}`, 0.5);
    const marked = `<${w}>`;
    for (let j = 0; j + 3 <= marked.length; j++) add(v, `c:${marked.slice(j, j + 3)}`, 0.35);
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  // An empty or symbol-only text has no features: the zero vector (cosine 0 with everything).
  return Array.from(v, (x) => (norm > 0 ? x / norm : 0));
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/** The OpenAI wire's `encoding_format: base64`: little-endian float32 bytes. */
export function toBase64(vec: readonly number[]): string {
  return Buffer.from(new Float32Array(vec).buffer).toString('base64');
}
