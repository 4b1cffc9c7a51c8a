import { describe, expect, it } from 'vitest';
import { Bm25 } from '../src/models/brain/bm25.js';
import {
  gatherKnowledge,
  KNOWLEDGE_CACHE_CHARS,
  KNOWLEDGE_CACHE_SIZE,
  knowledgeCached,
} from '../src/models/brain/knowledge.js';
import { bm25Scores } from '../src/emulator/inference/tasks/bm25.js';
import { PassageIndex, terms } from '../src/models/brain/retrieval.js';

describe('one BM25 and one set of terms for the brain and rerank', () => {
  it('rerank scores the documents as the brain scores its sentences', () => {
    const docs = [
      'I grew up in Lisbon by the river.',
      'The cat sleeps all day.',
      'Lisbon has trams.',
    ];
    const viaRerank = bm25Scores('where did you grow up in Lisbon', docs);
    const direct = new Bm25(docs.map((d) => terms(d))).scores(
      terms('where did you grow up in Lisbon'),
    );
    expect(viaRerank).toEqual(direct);
    expect(viaRerank[0]).toBeGreaterThan(viaRerank[2]!);
    expect(viaRerank[1]).toBe(0);
    // "grew" and "grow" are one term (irregular form to its base, then Porter).
    expect(terms('grew')).toEqual(terms('growing'));
    const index = new PassageIndex(
      docs.map((text) => ({ text, source: 'backstory' as const })),
      'en',
    );
    expect(index.search('where did you grow up')[0]?.text).toBe(docs[0]);
  });

  it('the knowledge cache stays bounded however many distinct personas ask', () => {
    for (let i = 0; i < KNOWLEDGE_CACHE_SIZE * 3; i++)
      gatherKnowledge(
        {
          messages: [
            { role: 'system', content: `You are guide number ${i}. You live in town ${i}.` },
            { role: 'user', content: 'hello' },
          ],
        } as Parameters<typeof gatherKnowledge>[0],
        `x-hostile-${i}`,
      );
    expect(knowledgeCached()).toBe(KNOWLEDGE_CACHE_SIZE);
  });

  it('and bounded by the size of what it holds: large prompts keep fewer', () => {
    const big = `Lisbon${'a'.repeat(60_000)}.`; // one 60 KB word: quick to index, large to key
    for (let i = 0; i < 100; i++)
      gatherKnowledge(
        {
          messages: [
            { role: 'system', content: `You are guide ${i}. ${big}` },
            { role: 'user', content: 'hello' },
          ],
        } as Parameters<typeof gatherKnowledge>[0],
        'en',
      );
    expect(knowledgeCached()).toBeLessThanOrEqual(Math.ceil(KNOWLEDGE_CACHE_CHARS / big.length));
  });
});
