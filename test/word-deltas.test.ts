import { describe, expect, it } from 'vitest';
import { wordDeltas } from '../src/models/brain/index.js';

// compat-a `stream: true` sends these as content deltas (docs/inference.md).
describe('word-sized deltas', () => {
  it('gives each word with the space and punctuation after it; joined they are the text', () => {
    expect(wordDeltas("Hi, I'm Ava. Ask me anything!")).toEqual([
      'Hi, ',
      "I'm ",
      'Ava. ',
      'Ask ',
      'me ',
      'anything!',
    ]);
    expect(wordDeltas('  leading space')).toEqual(['  leading ', 'space']);
  });

  it('splits text without spaces (Chinese) into words too', () => {
    const text = '我是艾娃。我可以回答你的问题。';
    const d = wordDeltas(text);
    expect(d.join('')).toBe(text);
    expect(d.length).toBeGreaterThan(4);
  });
});
