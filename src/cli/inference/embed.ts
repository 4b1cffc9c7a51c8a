/** `avatar embed TEXT...`: compat-a embeddings (spec 4.12). */
import { defineCommand } from '../define.js';
import { inference, positiveInt, termWidth } from './inference-common.js';

export const embedCommand = defineCommand({
  name: 'embed',
  summary:
    'Embed texts; prints each vector (size, norm, first non-zero values) and their cosines; --json prints the vectors whole  [POST /compat-a/v1/embeddings]',
  args: { texts: { usage: '<text...>', description: 'one or more texts' } },
  options: {
    model: { flags: '--model <id>', description: 'model id', default: 'avatar-embed' },
    dimensions: { flags: '--dimensions <n>', description: 'vector size' },
  },
  async run({ args: { texts }, options: o, cli }) {
    const r = await inference(cli).embed({
      model: o.model,
      input: texts,
      ...(o.dimensions ? { dimensions: positiveInt(o.dimensions, '--dimensions') } : {}),
    });
    const vectors = (r.data as { index: number; embedding: number[] }[]).map((d) => ({
      index: d.index,
      v: d.embedding,
    }));
    cli.print(
      r,
      () =>
        describeVectors(texts, vectors, termWidth(cli) ?? 80) +
        `\n${r.usage.prompt_tokens} token${r.usage.prompt_tokens === 1 ? '' : 's'}`,
    );
  },
});

/**
 * One block per text: its size, how many components are not zero, its norm, then the
 * first non-zero components as `[index] value`, as many as fit the width. The local model
 * hashes features into mostly-zero vectors, so "the first four values" read 0.000 and said
 * nothing; the first non-zero ones are the vector's content. Then the cosine of each pair.
 */
export function describeVectors(
  texts: string[],
  vectors: { index: number; v: number[] }[],
  width: number,
): string {
  const out: string[] = [];
  const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  for (const { index, v } of vectors) {
    const nonZero = v.flatMap((x, i) => (x !== 0 ? [`[${i}] ${x.toFixed(3)}`] : []));
    out.push(`#${index + 1} ${cut(texts[index] ?? '', width - 4)}`);
    out.push(`   ${v.length} dimensions, ${nonZero.length} non-zero, norm ${norm(v).toFixed(3)}`);
    if (nonZero.length) {
      let line = ' ';
      let shown = 0;
      for (const c of nonZero) {
        if (line.length + 2 + c.length + 3 > width && shown > 0) break;
        line += `  ${c}`;
        shown++;
      }
      out.push(line + (shown < nonZero.length ? '  …' : ''));
    }
  }
  if (vectors.length > 1) {
    // Every pair for a few texts; past 4 texts, each against the first.
    const pairs: [number, number][] = [];
    for (let a = 0; a < vectors.length; a++)
      for (let b = a + 1; b < vectors.length; b++)
        if (vectors.length <= 4 || a === 0) pairs.push([a, b]);
    const items = pairs.map(
      ([a, b]) =>
        `#${vectors[a]!.index + 1}·#${vectors[b]!.index + 1} ${cosine(vectors[a]!.v, vectors[b]!.v).toFixed(3)}`,
    );
    let line = 'cosine:';
    for (const item of items) {
      if (line.length + 2 + item.length > width) {
        out.push(line);
        line = '       ';
      }
      line += `  ${item}`;
    }
    out.push(line);
  }
  return out.join('\n');
}

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** The cosine of two vectors (0 when either is the zero vector, e.g. an empty text). */
function cosine(a: number[], b: number[]): number {
  const n = norm(a) * norm(b);
  return n === 0 ? 0 : a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0) / n;
}
