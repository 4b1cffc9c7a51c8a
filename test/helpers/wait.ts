/**
 * Wait for work that runs outside the injected clock (zlib, ffmpeg, flite, pocketsphinx
 * run in threads or processes): re-check `done` after each turn of the event loop and a
 * short real pause, at most `timeoutMs`; `what` names the wait in the error. Clock-driven
 * steps still come from the test.
 */
export async function waitUntil(
  done: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  what = 'the condition',
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`waited too long (${timeoutMs} ms) for ${what}`);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Whether a process of ours is still running (signal 0 asks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Let work already queued on the event loop run (promise chains, setImmediate callbacks,
 * timers a driven clock just fired): `turns` turns of the loop, no real time.
 */
export async function settle(turns = 40): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}
