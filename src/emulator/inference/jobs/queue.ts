import { unixSeconds, type TimerHandle } from '../../clock.js';
import type { EmulatorContext } from '../../context.js';
import { TERMINAL, type JobError, type JobRow, type JobSource, type JobStatus } from './store.js';
import { jobSql } from './sql.js';

export interface JobSpec {
  orgId: string;
  keyId: string;
  source: JobSource;
  modelId: string;
  task: string;
  payload: unknown;
}

/** A task failed in a way the caller should see (job `error`). */
export class TaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type Runner = (job: JobRow, signal: AbortSignal) => Promise<unknown>;

/**
 * The worker pool (spec 4.12 Jobs): a FIFO of pending jobs and at most `concurrency`
 * processing at once. Dispatch happens on the injected clock (a zero-delay timer), so a
 * test with a manual clock decides when work starts. Jobs left pending or processing by a
 * stop are queued again at the next start.
 */
export class JobQueue {
  private readonly st: ReturnType<typeof jobSql>;
  private readonly waiting: string[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly listeners = new Set<(row: JobRow) => void>();
  private tick: TimerHandle | null = null;
  private stopped = false;
  runner: Runner = async () => {
    throw new TaskError('not_ready', 'no task runner');
  };

  constructor(
    private readonly ctx: EmulatorContext,
    readonly concurrency: number,
  ) {
    this.st = jobSql(ctx.db);
    for (const r of this.st.unfinished.all() as { id: string; status: JobStatus }[]) {
      if (r.status === 'processing') this.st.requeue.run(r.id);
      this.waiting.push(r.id);
    }
    ctx.onStop(() => this.stop());
  }

  start(): void {
    if (this.waiting.length) this.schedule();
  }

  submit(spec: JobSpec): JobRow {
    const row = {
      id: this.ctx.ids.uuid(),
      queue_id: this.ctx.ids.uuid(),
      org_id: spec.orgId,
      key_id: spec.keyId,
      source: spec.source,
      model_id: spec.modelId,
      task: spec.task,
      payload: JSON.stringify(spec.payload ?? {}),
      created_at: unixSeconds(this.ctx.clock),
    };
    this.st.insert.run(row);
    this.waiting.push(row.id);
    this.schedule();
    return this.get(row.id)!;
  }

  get(id: string): JobRow | undefined {
    return this.st.get.get(id) as JobRow | undefined;
  }

  /** 1-based place among pending jobs, or undefined once it left the queue. */
  position(id: string): number | undefined {
    const i = this.waiting.indexOf(id);
    return i < 0 ? undefined : i + 1;
  }

  /** Cancel a pending or processing job (a processing one is aborted). Returns the row after. */
  cancel(id: string): JobRow | undefined {
    const row = this.get(id);
    if (!row || TERMINAL.includes(row.status)) return row;
    const i = this.waiting.indexOf(id);
    if (i >= 0) this.waiting.splice(i, 1);
    this.finish(id, 'cancelled', null, { code: 'cancelled', message: 'cancelled by request' });
    this.running.get(id)?.abort();
    return this.get(id);
  }

  /** Called with each job's row whenever it changes state. */
  onChange(fn: (row: JobRow) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves with the row once the job is terminal, or undefined after `timeoutMs` (clock time). */
  wait(id: string, timeoutMs: number): Promise<JobRow | undefined> {
    const now = this.get(id);
    if (!now || TERMINAL.includes(now.status)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const off = this.onChange((row) => {
        if (row.id !== id || !TERMINAL.includes(row.status)) return;
        off();
        timer.cancel();
        resolve(row);
      });
      const timer = this.ctx.clock.setTimeout(() => {
        off();
        resolve(undefined);
      }, timeoutMs);
    });
  }

  private schedule(): void {
    if (this.tick || this.stopped) return;
    this.tick = this.ctx.clock.setTimeout(() => {
      this.tick = null;
      this.dispatch();
    }, 0);
  }

  private dispatch(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      if (this.st.start.run(unixSeconds(this.ctx.clock), id).changes === 0) continue; // cancelled meanwhile
      const row = this.get(id)!;
      this.emit(row);
      const ac = new AbortController();
      this.running.set(id, ac);
      void this.run(row, ac);
    }
  }

  private async run(row: JobRow, ac: AbortController): Promise<void> {
    try {
      const result = await this.runner(row, ac.signal);
      if (!this.stopped) this.finish(row.id, 'completed', result, null);
    } catch (e) {
      const err: JobError =
        e instanceof TaskError
          ? { code: e.code, message: e.message }
          : { code: 'internal_error', message: (e as Error).message };
      if (!e || !(e instanceof TaskError))
        this.ctx.log(`job ${row.id} (${row.task}) failed: ${(e as Error)?.stack ?? String(e)}`);
      if (!this.stopped) this.finish(row.id, 'failed', null, err);
    } finally {
      this.running.delete(row.id);
      this.schedule();
    }
  }

  private finish(id: string, status: JobStatus, result: unknown, error: JobError | null): void {
    const changed = this.st.finish.run(
      status,
      result === null || result === undefined ? null : JSON.stringify(result),
      error ? JSON.stringify(error) : null,
      unixSeconds(this.ctx.clock),
      id,
    ).changes;
    if (changed) this.emit(this.get(id)!);
  }

  private emit(row: JobRow): void {
    for (const fn of [...this.listeners]) fn(row);
  }

  private stop(): void {
    this.stopped = true;
    this.tick?.cancel();
    for (const ac of this.running.values()) ac.abort();
  }
}
