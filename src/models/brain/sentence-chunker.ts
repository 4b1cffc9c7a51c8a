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
