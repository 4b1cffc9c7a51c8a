import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WaitLine } from '../src/cli/live/wait-line.js';

/** Deliver 5 of issue 9: a progress display for every wait over a second (here: `avatar demo` on a terminal). */
function tty() {
  const chunks: string[] = [];
  return {
    chunks,
    stream: { isTTY: true, columns: 80, write: (s: string) => (chunks.push(s), true) },
  };
}

describe('WaitLine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows nothing for a wait under a second, then what it waits for with the seconds, cleared before the next line', () => {
    const t = tty();
    const w = new WaitLine(t.stream);
    w.waiting('the transcript of your question');
    vi.advanceTimersByTime(900);
    expect(t.chunks).toEqual([]);
    vi.advanceTimersByTime(2200);
    expect(t.chunks.at(-1)).toBe('\r\x1b[2K… the transcript of your question (3 s)');
    w.clear();
    expect(t.chunks.at(-1)).toBe('\r\x1b[2K');
    vi.advanceTimersByTime(5000);
    expect(t.chunks.at(-1)).toBe('\r\x1b[2K');
    w.stop();
  });

  it('is silent when the stream is not a terminal', () => {
    const chunks: string[] = [];
    const w = new WaitLine({ isTTY: false, write: (s: string) => (chunks.push(s), true) });
    w.waiting('the reply');
    vi.advanceTimersByTime(5000);
    w.clear();
    w.stop();
    expect(chunks).toEqual([]);
  });
});
