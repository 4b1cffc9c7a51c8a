/**
 * Issue 24: every shell example in README.md and docs/*.md runs against a throwaway emulator,
 * and a broken one fails naming its file and line (runner: test/helpers/docs-runner.ts,
 * conventions: CONTRIBUTING.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeFailures,
  pageStartFlags,
  parseBlocks,
  recommendedStartFlags,
  repoRoot,
  runFile,
  runWalkthrough,
  walkthroughOrder,
  type FileReport,
} from './helpers/docs-runner.js';

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

  it('walks pages in order in one shell: a page with its own start gets it, the next the recommended one again', async () => {
    const r = await runWalkthrough([
      'test/docs-fixtures/another-start.md',
      'test/docs-fixtures/after-another-start.md',
    ]);
    expect(r.pages.map((p) => [p.file, p.ran])).toEqual([
      ['test/docs-fixtures/another-start.md', 2],
      ['test/docs-fixtures/after-another-start.md', 2],
    ]);
    expect(
      r.pages.flatMap((p) => p.failures),
      describeFailures(r.pages),
    ).toEqual([]);
  }, 120_000);
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
    }, 600_000); // every file at once: on a loaded 2-core machine the README alone took 240 s
  }
});

/**
 * Issue 32 items 12 and 15: one recommended start (the README's Quick start) that every page
 * assumes and says so at its top; a page that needs another start says how to stop the first;
 * no page leaves what breaks the next one, or writes to a path another page or program shares.
 */
describe('one recommended start, and pages that clean up after themselves', () => {
  const read = (f: string) => readFileSync(join(repoRoot, f), 'utf8');
  const runnable = (f: string) =>
    parseBlocks(f, read(f)).filter((b) => b.skip === undefined && b.commands.length > 0);

  it('the README names it once: the Quick start, two commands, the second `npm test`', () => {
    const readme = read('README.md');
    const quick = readme.slice(readme.indexOf('## Quick start'));
    const block = parseBlocks('README.md', quick)[0]!;
    expect(block.commands.map((c) => c.text.replace(/\s+#.*$/, ''))).toEqual([
      `npm ci && npm start${recommendedStartFlags().length ? ` -- ${recommendedStartFlags().join(' ')}` : ''}`,
      'npm test',
    ]);
  });

  it('every page with examples says at its top that they assume it (before its first example)', () => {
    const missing = docs
      .filter((f) => f !== 'README.md' && runnable(f).length > 0)
      .filter((f) => {
        const firstFence = runnable(f)[0]!.line;
        const top = read(f).split('\n').slice(0, firstFence).join('\n');
        return !/README\.md#quick-start/.test(top);
      });
    expect(missing).toEqual([]);
  });

  it('a page that needs another start says how to stop the recommended one, and to start it again', () => {
    const wrong = docs
      .filter((f) => pageStartFlags(read(f)).length > 0)
      .filter((f) => {
        const text = read(f);
        return !(/Ctrl-C/.test(text) && text.includes(pageStartFlags(text).join(' ')));
      });
    expect(wrong).toEqual([]);
  });

  it('no example writes to a shared /tmp path (each page keeps its files in the directory it runs in)', () => {
    const shared = docs.flatMap((f) =>
      runnable(f)
        .flatMap((b) => b.commands)
        .filter((c) => /(^|[\s'"=@])\/tmp\//.test(c.text))
        .map((c) => `${f}:${c.line}`),
    );
    expect(shared).toEqual([]);
  });

  it('pasted in order (README, then the docs it lists) against the one start, every page works and leaves no mess', async () => {
    const r = await runWalkthrough(walkthroughOrder());
    for (const p of r.pages)
      console.log(
        `walk-through: ${p.file}: ${p.ran} commands run, ${p.skipped.reduce((n, s) => n + s.commands, 0)} skipped, ${(p.ms / 1000).toFixed(1)} s, ${p.failures.length} failed`,
      );
    expect(r.pages.flatMap((p) => p.failures).length, describeFailures(r.pages)).toBe(0);
    // Each page made its avatar under a name of its own (or removed it): no two alike.
    const names = r.leftovers!.avatars;
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    // The organisation is back on the plan the emulator starts with (no 429 for what follows).
    expect(r.leftovers!.orgPlan).toBe('enterprise');
  }, 1_800_000);
});
