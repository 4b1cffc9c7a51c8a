// `npm run bench`: runs every bench/*.bench.js in turn (one per part of the product: control
// plane, edge, media, generations, inference). Each prints its figures next to a reference
// measured in the same run; nothing here asserts. `npm run bench -- edge` runs only the
// files whose name contains "edge".
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => filter.length === 0 || filter.some((w) => f.includes(w)))
  .sort();
for (const f of files) {
  console.log(`\n== ${f.replace(/\.bench\.js$/, '')}`);
  await import(pathToFileURL(join(here, f)).href);
}
