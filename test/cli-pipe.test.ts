import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/avatar.js', import.meta.url));

/** Run the built CLI with stdout going to a reader that stops after the first chunk (`| head -1`). */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.stdout.once('data', () => p.stdout.destroy());
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('output into a pipe that closes early (avatar ... | head)', () => {
  it.each([[['sessions', 'live', '--help']], [['completion', 'bash']]])(
    '%j exits 0 without an EPIPE crash',
    async (args) => {
      const r = await runIntoClosedPipe(args);
      expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
      expect(r.code).toBe(0);
    },
  );
});
