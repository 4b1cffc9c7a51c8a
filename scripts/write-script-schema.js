// After npm run build: schemas/script.schema.json, the JSON Schema editors read for
// conversation scripts, from the contract (src/contract/resources/script.ts;
// test/scripts.test.ts keeps them equal). Run it when the script format changes:
// npm run build && npm run schema:script
import { writeFileSync } from 'node:fs';
import { scriptJsonSchema } from '../dist/contract/resources/script.js';

writeFileSync(
  new URL('../schemas/script.schema.json', import.meta.url),
  `${JSON.stringify(scriptJsonSchema(), null, 2)}\n`,
);
