/**
 * A progress line for the waits of `avatar demo` (issue 9, Deliver 5: a progress display for
 * every wait over a second): after a second with nothing printed, one line on stderr saying
 * what it waits for and for how long, rewritten each second and erased before the next line.
 * Only on a terminal; pipes and --json get nothing.
 */
type Out = { isTTY?: boolean; columns?: number; write(s: string): unknown };

export class WaitLine {
  private timer: NodeJS.Timeout | undefined;
  private shown = false;

  constructor(private readonly err: Out) {}

  /** Start (or restart) waiting for `what`; shown once a second has passed. */
  waiting(what: string): void {
    this.clear();
    if (!this.err.isTTY) return;
    let s = 0;
    this.timer = setInterval(() => {
      s++;
      const line = `… ${what} (${s} s)`.slice(0, Math.max(10, (this.err.columns ?? 80) - 1));
      this.err.write(`\r\x1b[2K${line}`);
      this.shown = true;
    }, 1000);
    this.timer.unref?.();
  }

  /** Erase the line (before anything else is printed) and stop counting. */
  clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.err.write('\r\x1b[2K');
    this.shown = false;
  }

  stop(): void {
    this.clear();
  }
}
