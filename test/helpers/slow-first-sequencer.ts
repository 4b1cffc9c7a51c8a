import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that wait longest on real time (live sessions, a browser, child emulators, the
 * docs runner), measured on this 2-core machine, longest first. Two forks share the files;
 * a long file started last runs alone while the other fork idles, so these start first.
 * Vitest orders by its cache of the last run's durations when it has one, and a fresh
 * clone (CI) has none: then it runs the larger files first, and docs-examples, a short
 * file that runs every example in the docs, came last.
 */
export const SLOW_FILES = [
  'sessions-live',
  // Not beside sessions-live at the start: both run pocketsphinx streams, which fall behind
  // (no partials) when too many share the two cores.
  'emulator-start',
  'harness-exec',
  'playground-browser',
  'sessions-replay',
  'docs-examples',
  'recognizer',
  'edge-barge-in',
  'edge-e2e',
  'load-test',
  'cli-transcript',
  'demo',
  'edge-turns',
  'media-browser',
  'voice',
];

const rank = (spec: TestSpecification): number => {
  const i = SLOW_FILES.findIndex((n) => spec.moduleId.endsWith(`/test/${n}.test.ts`));
  return i < 0 ? SLOW_FILES.length : i;
};

/** Vitest's own order (last run's durations, else size), with the known slow files first. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
