import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

/** Prints one closing line `N passed, N failed, N skipped` that CI and humans read. */
export default class SummaryReporter implements Reporter {
  onFinished(files: Task[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const walk = (t: Task) => {
      if (t.type === 'test') {
        if (t.result?.state === 'pass') passed++;
        else if (t.result?.state === 'fail') failed++;
        else skipped++;
      }
      t.tasks?.forEach(walk);
    };
    files.forEach(walk);
    // A file that failed to load counts as a failure, so CI never reads it as green.
    failed += files.filter((f) => f.result?.state === 'fail' && !(f.tasks ?? []).length).length;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
