// After npm run build: schemas/seed.schema.json, the JSON Schema editors read for seed files,
// from the seed's zod schema (src/emulator/seed/schema.ts; test/harness-seed.test.ts keeps
// them equal). Run it when the seed format changes: npm run build && npm run schema:seed
import { writeFileSync } from 'node:fs';
import { seedJsonSchema } from '../dist/emulator/seed/schema.js';

writeFileSync(
  new URL('../schemas/seed.schema.json', import.meta.url),
  `${JSON.stringify(seedJsonSchema(), null, 2)}\n`,
);
