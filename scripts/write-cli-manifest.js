// After tsc (npm run build): dist/cli/command-manifest.json, the generated commands as
// data, so help and usage errors need not load the contract (src/cli/command-manifest.ts).
import { writeFileSync } from 'node:fs';
import { operations } from '../dist/contract/operations/index.js';
import { manifestOf } from '../dist/cli/command-manifest.js';

writeFileSync(
  new URL('../dist/cli/command-manifest.json', import.meta.url),
  JSON.stringify(manifestOf(operations)),
);
