#!/usr/bin/env node
// Thin entry: all logic lives in dist/cli/main.js (built from src/cli/main.ts).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The one answer that needs nothing else loaded (start-up cost, docs/cli.md).
  const { CLI_VERSION } = await import('../dist/cli/version.js');
  process.stdout.write(`${CLI_VERSION}\n`);
} else {
  const { run } = await import('../dist/cli/main.js');
  const code = await run(argv);
  process.exitCode = code;
  // A failed command exits at once: nothing it started may keep the process alive.
  if (code !== 0) process.exit(code);
}
