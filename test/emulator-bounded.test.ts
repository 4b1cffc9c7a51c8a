import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { SlidingWindow } from '../src/emulator/http/sliding-window.js';
import { LOG_LIMIT, LOG_PATH_CHARS, OperatorLog } from '../src/emulator/operator/log.js';

/**
 * Issue 19 item 5: what a run of hostile requests leaves behind is bounded (bench/hostile
 * measures it; these check the structures by count, not by time or RSS).
 */
describe('structures a hostile run fills stay bounded', () => {
  it('the rate limiter forgets keys whose window has passed', () => {
    const clock = new ManualClock();
    const w = new SlidingWindow(clock, 60_000);
    for (let i = 0; i < 10_000; i++) w.take(`key_${i}`, 5);
    expect(w.keys).toBe(10_000);
    clock.advance(60_001);
    for (let i = 0; i < 10; i++) w.take(`fresh_${i}`, 5);
    expect(w.keys).toBeLessThanOrEqual(10);
    // A key still inside its window is kept, and still limited.
    for (let i = 0; i < 5; i++) expect(w.take('busy', 5).ok).toBe(true);
    for (let i = 0; i < 20_000; i++) w.take(`other_${i}`, 5);
    expect(w.take('busy', 5).ok).toBe(false);
  });

  it('the operator log keeps LOG_LIMIT entries and a bounded piece of each path', () => {
    const log = new OperatorLog(() => 0);
    const long = `/api/v1/avatars/${'x'.repeat(50_000)}`;
    const req = new Request(`http://127.0.0.1${long}`);
    for (let i = 0; i < LOG_LIMIT + 500; i++)
      log.request(req, long, 0, new Response(null, { status: 404 }));
    const entries = log.since(0);
    expect(entries).toHaveLength(LOG_LIMIT);
    expect(entries.every((e) => String(e.path).length <= LOG_PATH_CHARS)).toBe(true);
    expect(String(entries[0]!.path)).toMatch(/^\/api\/v1\/avatars\/x+…$/);
  });
});
