import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Caches are bounded by `lru-cache` (docs/architecture.md): no hand-written LRU (a Map that
 * evicts its first key) is left in src.
 */
describe('caches', () => {
  it('no Map-based LRU (evicting keys().next().value, or re-inserting a key to make it recent) remains in src', () => {
    const src = join(import.meta.dirname, '..', 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(ts|js|mjs)$/.test(f),
    );
    expect(files.length).toBeGreaterThan(50);
    const handWritten = files.filter((f) => {
      const text = readFileSync(join(src, f), 'utf8');
      return (
        /\.keys\(\)\s*\.next\(\)\s*\.value/.test(text) ||
        /(\w+)\.delete\((\w+)\);[^\n]*\n\s*\1\.set\(\2,/.test(text)
      );
    });
    expect(handWritten).toEqual([]);
  });
});
