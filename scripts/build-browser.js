// After tsc (npm run build): the playground page's script as one ES module,
// dist/ui/playground.js (src/playground + src/browser + the contract's edge shapes), which
// the emulator serves at /_emulator/ui/app.js. Built here, shipped in the package: nothing is
// downloaded or bundled at run time. `avatar/browser` itself is tsc's dist/browser (plain ESM).
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/playground/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/ui/playground.js', import.meta.url).pathname,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  legalComments: 'none',
  logLevel: 'warning',
});
