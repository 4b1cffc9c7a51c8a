/**
 * Text helpers shared by the brains: sentence and word splitting with the runtime's ICU
 * (Intl.Segmenter, so accents, apostrophes and CJK behave), and the token count both
 * brains report in `usage`.
 */
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** Sentences of `text`, each trimmed, empty ones dropped. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const s of sentenceSegmenter.segment(text)) {
    // A blank line or a bullet also ends a sentence in a backstory written as notes.
    for (const part of s.segment.split(/\n\s*\n|\n\s*[-*•]\s+/)) {
      const t = part.replace(/\s+/g, ' ').trim();
      if (t) out.push(t);
    }
  }
  return out;
}

/** Lower-cased words (letters and digits), punctuation dropped. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of wordSegmenter.segment(text.toLowerCase())) if (w.isWordLike) out.push(w.segment);
  return out;
}

/**
 * Tokens as the brains count them for `usage`: every word and every punctuation mark is
 * one token (Intl.Segmenter's word segments that are not whitespace). This is an
 * approximation of a BPE tokenizer (which splits long or rare words further), stable and
 * the same for every brain, so `usage` is comparable across runs.
 */
export function countTokens(text: string): number {
  let n = 0;
  for (const w of wordSegmenter.segment(text)) if (w.segment.trim()) n++;
  return n;
}

/** Cut `text` to at most `max` tokens (whole segments), for `maxTokens`. */
export function truncateTokens(text: string, max: number): string {
  let n = 0;
  let end = 0;
  for (const w of wordSegmenter.segment(text)) {
    if (w.segment.trim()) {
      if (n === max) break;
      n++;
    }
    end = w.index + w.segment.length;
  }
  return text.slice(0, end).trimEnd();
}
