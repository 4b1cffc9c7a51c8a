// After tsc (npm run build): dist/cli/command-manifest.json, the generated commands as
// data, so help and usage errors need not load the contract (src/cli/command-manifest.ts);
// and dist/cli/command-groups.json, the registry of top-level words derived from every
// command folder's definitions (src/cli/groups.ts), so `avatar --help` loads no command.
import { writeFileSync } from 'node:fs';
import { operations } from '../dist/contract/operations/index.js';
import { manifestOf } from '../dist/cli/command-manifest.js';
import { folderGroups, groupFolders, registryOf } from '../dist/cli/groups.js';

writeFileSync(
  new URL('../dist/cli/command-manifest.json', import.meta.url),
  JSON.stringify(manifestOf(operations)),
);
const folders = await Promise.all(
  groupFolders().map(async ({ folder }) => ({ folder, groups: await folderGroups(folder) })),
);
writeFileSync(
  new URL('../dist/cli/command-groups.json', import.meta.url),
  JSON.stringify(registryOf(folders)),
);
