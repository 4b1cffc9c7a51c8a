/**
 * One run of a system program (espeak-ng; pocketsphinx's batch runs do the same by hand):
 * its stdout on exit 0, else an Error naming the program, how it ended and the end of its
 * stderr. The caller's abort kills it and rejects with the abort's reason; `timeoutMs` kills
 * a run that hangs.
 */
import { spawn } from 'node:child_process';

export function runProgram(
  binary: string,
  args: readonly string[],
  opts: { stdin?: string; signal?: AbortSignal; timeoutMs: number },
): Promise<string> {
  const { signal } = opts;
  return new Promise<string>((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(signal ? { signal } : {}),
      timeout: Math.ceil(opts.timeoutMs), // Node refuses a fractional timeout
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-500)));
    if (opts.stdin !== undefined) {
      child.stdin!.on('error', () => {}); // a child that died early: its close says why
      child.stdin!.end(opts.stdin);
    }
    child.on('error', (e) =>
      reject(signal?.aborted ? signal.reason : new Error(`cannot run ${binary}: ${e.message}`)),
    );
    child.on('close', (code, sig) => {
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${binary} failed (${sig ?? `exit ${code}`})${stderr.trim() ? `: ${stderr.trim()}` : ''}`,
          ),
        );
    });
  });
}
