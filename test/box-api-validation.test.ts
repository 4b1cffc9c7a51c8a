import { describe, expect, it } from 'vitest';
import { boxOps } from '../src/contract/index.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 19 item 1: the internal box API's bodies are the contract's (the documents show
 * them, the emulator validates with them): a box's bad input is 400 invalid_request naming
 * the field; a caller without the box's secret is 401 whatever it sends.
 */
const h = useEmulator({ boxes: 0 });

const sessionPath = (box: string) => `/_internal/boxes/${box}/sessions/sess_x`;
const cases = (box: string) =>
  [
    [`/_internal/boxes/${box}/register`, { base_url: 'ftp://x', seats: -1 }, 'base_url'],
    [`/_internal/boxes/${box}/seats/events`, { session_id: 's', event: 'explode' }, 'event'],
    [`${sessionPath(box)}/turns`, { seq: 'one', user_text: 'a', reply_text: 'b' }, 'seq'],
    [`${sessionPath(box)}/tool-calls`, { nope: 1 }, ''],
    [`${sessionPath(box)}/tool-calls/report`, [], ''],
  ] as const;

describe('the box API validates with the contract', () => {
  it('the contract describes each body (not any JSON object)', () => {
    expect(boxOps.boxRegister.body?.safeParse({}).success).toBe(false);
    expect(boxOps.boxSeatEvents.body?.safeParse({}).success).toBe(false);
    expect(boxOps.boxTurns.body?.safeParse({}).success).toBe(false);
  });

  it('bad input from a box is 400 invalid_request naming the field; no secret is 401', async () => {
    const cred = (await (await h.op('/_emulator/boxes', { method: 'POST' })).json()) as {
      box_id: string;
      secret: string;
    };
    for (const [path, body, field] of cases(cred.box_id)) {
      const post = (secret: string) =>
        fetch(h.baseUrl + path, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const stranger = await post('0'.repeat(48));
      expect(stranger.status, path).toBe(401);
      const r = await post(cred.secret);
      const b = (await r.json()) as { error: string; message: string; detail?: string };
      if (path.includes('/sessions/') && r.status === 404) continue; // no such session: checked after the body
      expect(r.status, path).toBe(400);
      expect(b.error, path).toBe('invalid_request');
      expect(typeof b.message, path).toBe('string');
      if (field) expect(b.detail, path).toMatch(new RegExp(`^${field}:`));
    }
  });
});
