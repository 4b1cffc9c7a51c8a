/**
 * Whether a process is running: signal 0 tests without sending anything. EPERM means it
 * runs under another user (alive, only not ours to signal). One copy for the data-dir lock
 * (start.ts) and the CLI's discovery records (cli/config.ts).
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
