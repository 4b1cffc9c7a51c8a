import { describe, expect, it } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `avatar embed` for a person: the local model's vectors are sparse (feature hashing, spec
 * 4.12), so the first four values of a 384-wide vector are mostly 0.0000 and a table of
 * them said nothing. The table shows the size, the norm and the first non-zero components
 * (with their index), each read from the very vector --json prints.
 */
const h = useEmulator({ inferenceRateLimits: false });
const env = () => emulatorEnv(h);

describe('avatar embed', () => {
  it('shows dimensions, norm and non-zero components that are in the vector; --json keeps it whole', async () => {
    const texts = ['hello', 'the cat sat', 'a cat sat down'];
    const j = await cli(['--json', 'embed', ...texts], env());
    expect(j.code, j.stderr).toBe(0);
    const vectors = (j.json().data as { embedding: number[] }[]).map((d) => d.embedding);
    expect(vectors[0]).toHaveLength(384);
    const r = await cli(['embed', ...texts], env());
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    const lines = r.stdout.split('\n');
    texts.forEach((t, i) => {
      const at = lines.indexOf(`#${i + 1} ${t}`);
      expect(at, r.stdout).toBeGreaterThanOrEqual(0);
      const nonZero = vectors[i]!.filter((x) => x !== 0).length;
      expect(lines[at + 1]).toContain(`384 dimensions, ${nonZero} non-zero, norm 1.000`); // L2-normalised
      const shown = [...lines[at + 2]!.matchAll(/\[(\d+)\] (-?\d\.\d+)/g)];
      expect(shown.length, lines[at + 2]).toBeGreaterThanOrEqual(2);
      expect(Number(shown[0]![1])).toBe(vectors[i]!.findIndex((x) => x !== 0));
      for (const [, idx, val] of shown)
        expect(Number(val)).toBeCloseTo(vectors[i]![Number(idx)]!, 3);
    });
    // Similarity a person can read: the two cat sentences are closer than hello and either.
    const cos = (a: number, b: number) =>
      Number(new RegExp(`#${a}·#${b} (-?\\d\\.\\d+)`).exec(r.stdout)?.[1]);
    expect(cos(2, 3)).toBeGreaterThan(0.3);
    expect(cos(1, 2)).toBeLessThan(cos(2, 3));
  });
});
