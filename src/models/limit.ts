/** At most `max` calls at once; the rest wait their turn in order (system programs run per call). */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing call hands its slot straight to the next waiter, so `running` never overshoots.
    if (this.running >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    else this.running++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
