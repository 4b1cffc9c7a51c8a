/**
 * Issue 24: every shell example in README.md and docs/*.md runs against a throwaway emulator,
 * and a broken one fails naming its file and line (runner: test/helpers/docs-runner.ts,
 * conventions: CONTRIBUTING.md).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFailures, repoRoot, runFile, type FileReport } from './helpers/docs-runner.js';

const docs = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

describe('the docs runner', () => {
  it('fails a broken example, naming its file and line', async () => {
    const r = await runFile(join(repoRoot, 'test/docs-fixtures/broken.md'));
    expect(r.ran).toBe(2);
    expect(r.failures.map((f) => f.where)).toEqual(['test/docs-fixtures/broken.md:10']);
    expect(describeFailures([r])).toMatch(
      /^test\/docs-fixtures\/broken\.md:10: \$ avatar gallery lisst\n {2}exited 2, the docs expect 0/,
    );
  }, 60_000);

  it('carries variables and files across blocks, checks exit codes and output, skips marked blocks', async () => {
    const r = await runFile(join(repoRoot, 'test/docs-fixtures/conventions.md'));
    expect(r.skipped).toEqual([
      { where: 'test/docs-fixtures/conventions.md:4', reason: 'needs a microphone', commands: 1 },
    ]);
    expect(r.ran).toBe(7);
    expect(r.failures.map((f) => `${f.where} ${f.message}`)).toEqual([
      'test/docs-fixtures/conventions.md:30 the output does not show the documented line: goodbye',
    ]);
  }, 60_000);
});

// One emulator per file; files run side by side (vitest's concurrent tests in this worker).
describe.concurrent('every shell example in the docs works when pasted', () => {
  const reports: FileReport[] = [];
  for (const file of docs) {
    it(file, async () => {
      const r = await runFile(join(repoRoot, file));
      reports.push(r);
      const skipped = r.skipped
        .map((s) => `\n  skipped ${s.where} (${s.commands} commands): ${s.reason}`)
        .join('');
      const slowest = r.slowest.map((c) => `${c.where} ${(c.ms / 1000).toFixed(1)} s`).join(', ');
      console.log(
        `docs runner: ${file}: ${r.ran} commands run, ${r.skipped.reduce((n, s) => n + s.commands, 0)} skipped, ${(r.ms / 1000).toFixed(1)} s${slowest ? ` (slowest: ${slowest})` : ''}${skipped}`,
      );
      expect(r.failures, describeFailures([r])).toEqual([]);
    }, 300_000);
  }
});
