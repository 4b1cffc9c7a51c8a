#!/usr/bin/env node
// Thin entry: all logic lives in dist/cli/main.js (built from src/cli/main.ts). The two
// answers people ask for most, the version and the top-level help, come from small modules
// without loading the CLI (start-up cost, docs/cli.md).
// `avatar ... | head`: the reader went away, which is not an error of ours (exit quietly,
// like any Unix filter) rather than crashing with an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
let text = null;
if (only === '--version' || only === '-V') {
  const { CLI_VERSION } = await import('../dist/cli/version.js');
  text = `${CLI_VERSION}\n`;
} else if (only === '--help' || only === '-h' || only === 'help') {
  const { topHelp } = await import('../dist/cli/top-help.js');
  text = topHelp(process);
}
if (text !== null) process.stdout.write(text);
else {
  const { run } = await import('../dist/cli/main.js');
  const code = await run(argv);
  process.exitCode = code;
  // A failed command exits at once: nothing it started may keep the process alive.
  if (code !== 0) process.exit(code);
}
