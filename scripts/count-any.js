// Counts the `any` keywords (TypeScript AST, SyntaxKind.AnyKeyword) in src/**/*.ts, generated
// files excluded: src/cli/generated.ts and any file whose first lines say `@generated`.
// Prints the total, then the count per file (most first). `--json` prints { total, files }.
//   node scripts/count-any.js [--json]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const GENERATED = new Set(['src/cli/generated.ts']);

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name)) yield path;
  }
}

function isGenerated(file, text) {
  return GENERATED.has(file) || /@generated\b/.test(text.slice(0, 500));
}

function countAny(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  let n = 0;
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) n++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return n;
}

const files = {};
let total = 0;
for (const path of tsFiles(join(root, 'src'))) {
  const file = relative(root, path).split('\\').join('/');
  const text = readFileSync(path, 'utf8');
  if (isGenerated(file, text)) continue;
  const n = countAny(file, text);
  if (n === 0) continue;
  files[file] = n;
  total += n;
}
const sorted = Object.entries(files).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ total, files: Object.fromEntries(sorted) }, null, 2));
} else {
  console.log(`any in src (generated files excluded): ${total}`);
  for (const [file, n] of sorted) console.log(`${String(n).padStart(5)}  ${file}`);
}
