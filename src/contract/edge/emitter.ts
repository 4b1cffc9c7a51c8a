/**
 * The event plumbing both protocols share: listeners, and a `closed` promise that settles
 * exactly once with the first reason the connection ended for.
 */
import type { ClosedEvent, EdgeEvent } from './events.js';

export class EdgeEmitter {
  private readonly listeners = new Set<(e: EdgeEvent) => void>();
  private ended: ClosedEvent | undefined;
  private settle!: (e: ClosedEvent) => void;
  readonly closed: Promise<ClosedEvent> = new Promise((resolve) => (this.settle = resolve));

  on(listener: (e: EdgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get isClosed(): boolean {
    return this.ended !== undefined;
  }

  emit(e: EdgeEvent): void {
    if (this.ended) return;
    if (e.type === 'closed') {
      this.ended = e;
      this.settle(e);
    }
    // A listener that throws must not stop the stream for the others (or the socket).
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        /* the listener's own problem */
      }
    }
  }
}

/** A socket close code as a reason: 1000/1001 and app codes are the edge ending it, 1006 a drop. */
export function reasonForClose(code: number): ClosedEvent['reason'] {
  return code === 1006 || code === 1005 || code === 1011 ? 'lost' : 'server';
}

/** Parse one JSON text frame; undefined when it is not a JSON object. */
export function parseFrame(data: unknown): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(String(data));
    return v && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
