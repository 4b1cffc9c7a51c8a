/**
 * Re-chunks streamed text into whole sentences, so the edge can hand each delta to the
 * voice as soon as it is complete (issue 8: the first sentence is spoken before the reply
 * is). Deltas keep the exact text, whitespace included: joined, they are the reply.
 * A sentence is known complete when the next one has begun, or at `flush()`.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export class SentenceChunker {
  private buffer = '';

  /** Add streamed text; returns the sentences it completed (possibly none). */
  push(text: string): string[] {
    this.buffer += text;
    const parts = [...segmenter.segment(this.buffer)].map((s) => s.segment);
    if (parts.length < 2) return [];
    this.buffer = parts.pop()!;
    return parts;
  }

  /** The rest of the text, once the stream has ended. */
  flush(): string[] {
    const rest = this.buffer;
    this.buffer = '';
    return rest ? [rest] : [];
  }
}

/** A finished text as sentence deltas (what a streaming brain would have sent). */
export function sentenceDeltas(text: string): string[] {
  const c = new SentenceChunker();
  return [...c.push(text), ...c.flush()];
}

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
/** Scripts written without spaces between words. */
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Text as word-sized deltas, the way OpenAI-compatible servers stream (compat-a
 * `stream: true`): each word with the spaces and punctuation after it (text before the
 * first word goes with it); scripts without spaces (Chinese) split per word the segmenter
 * finds. Joined, they are the text.
 */
export function wordDeltas(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const s of words.segment(text)) {
    if (s.isWordLike && /\S/.test(cur) && (/[\s\p{P}]$/u.test(cur) || UNSPACED.test(s.segment))) {
      out.push(cur);
      cur = '';
    }
    cur += s.segment;
  }
  if (cur) out.push(cur);
  return out;
}
