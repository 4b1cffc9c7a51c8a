import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { isolatedEnv } from './cli.js';

/** A box in a second process (`avatar edge start ... --json`), and its ready line once it registered. */
export interface EdgeProcess {
  child: ChildProcess;
  /** The first line it prints (its ready JSON); rejects, with its stderr, if it exits first. */
  ready: Promise<string>;
}

/**
 * Start `avatar edge start --control-plane URL <args> --json` with the built bin. The child is
 * returned at once (so afterAll can stop it whatever happens), its ready line as a promise.
 */
export function spawnEdge(controlPlane: string, apiKey: string, args: string[] = []): EdgeProcess {
  const child = spawn(
    process.execPath,
    ['bin/avatar.js', 'edge', 'start', '--control-plane', controlPlane, ...args, '--json'],
    { env: isolatedEnv({ AVATAR_API_KEY: apiKey }), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const ready = new Promise<string>((res, rej) => {
    createInterface({ input: child.stdout! }).once('line', res);
    child.once('exit', (code) => rej(new Error(`edge start exited ${code}: ${stderr}`)));
  });
  return { child, ready };
}

/** SIGTERM a process still running and wait for it to exit. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
