import { describe, expect, it } from 'vitest';
import { operatorOps } from '../src/contract/index.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 19 items 1 and 5: the operator routes are validated by their contract operation
 * (src/contract/operations/operator.ts), as the control plane's are: bad input on each is
 * the caller's error in the one envelope `{ error, message, detail }`, never a 500 or a
 * hand-written shape.
 */
const h = useEmulator({ boxes: 1, mintRatePerMinute: 0 });

const all = Object.values(operatorOps).filter(
  (o): o is (typeof operatorOps.operatorOperations)[number] =>
    typeof o === 'object' && o !== null && 'id' in o && 'path' in o,
);
const fill = (path: string) => path.replace(/\{[^}]+\}/g, 'x');
const send = (path: string, method: string, body?: string) =>
  h.op(path, { method: method.toUpperCase(), ...(body === undefined ? {} : { body }) });

const expectEnvelope = async (r: Response, status: number, error: string, what: string) => {
  expect(r.status, what).toBe(status);
  const b = (await r.json()) as { error?: unknown; message?: unknown; detail?: unknown };
  expect(b.error, what).toBe(error);
  expect(typeof b.message, `${what}: message`).toBe('string');
  return b;
};

describe('operator routes validate with their contract operation', () => {
  const withBody = all.filter(
    (o) => o.body && !o.rawBody && !o.params && !o.body.safeParse([1]).success,
  );
  const withQuery = all.filter((o) => o.query);

  it('lists what it checks (the hand-registered routes are among them)', () => {
    const ids = [...withBody, ...withQuery].map((o) => o.id);
    for (const id of [
      'emulator.clockAdvance',
      'emulator.stateReset',
      'emulator.faultsAdd',
      'emulator.uiChat',
      'emulator.logs',
      'emulator.sessions',
    ])
      expect(ids).toContain(id);
  });

  it('a body of the wrong shape is 400 invalid_request naming the field', async () => {
    for (const op of withBody) {
      const r = await send(fill(op.path), op.method, '[1]');
      const b = await expectEnvelope(r, 400, 'invalid_request', op.id);
      expect(typeof b.detail, op.id).toBe('string');
    }
  });

  it('a body that is not JSON is 400 invalid_json', async () => {
    for (const op of [...withBody, operatorOps.stateImport]) {
      const r = await send(fill(op.path), op.method, '{"ms": ');
      await expectEnvelope(r, 400, 'invalid_json', op.id);
    }
  });

  it('a query out of range is 400 invalid_request naming the parameter', async () => {
    for (const [path, field] of [
      ['/_emulator/logs?after=-1', 'after'],
      ['/_emulator/sessions?limit=0', 'limit'],
      ['/_emulator/sessions?all=maybe', 'all'],
    ] as const) {
      const b = await expectEnvelope(await send(path, 'get'), 400, 'invalid_request', path);
      expect(String(b.detail), path).toMatch(new RegExp(`^${field}:`));
    }
  });

  it('a clock advance out of range and an unknown trigger are the caller error', async () => {
    const b = await expectEnvelope(
      await send('/_emulator/clock/advance', 'post', '{"ms": -5}'),
      400,
      'invalid_request',
      'advance',
    );
    expect(String(b.detail)).toMatch(/^ms:/);
    await expectEnvelope(
      await send('/_emulator/triggers/no-such-trigger', 'post', '{}'),
      404,
      'not_found',
      'trigger',
    );
  });

  it("the playground's chat relay refuses an overlong connect_url (a long run of slashes too) naming it", async () => {
    for (const url of [
      `http://127.0.0.1:1/${'/'.repeat(200_000)}x`,
      `http://${'a'.repeat(2100)}`,
    ]) {
      const b = await expectEnvelope(
        await send(
          '/_emulator/ui/chat',
          'post',
          JSON.stringify({ connect_url: url, session_token: 't', text: 'hi' }),
        ),
        400,
        'invalid_request',
        'ui chat',
      );
      expect(String(b.detail)).toMatch(/^connect_url: .*2048/);
    }
    // Trailing slashes are still trimmed: a box's own URL with a slash run is not a box.
    const b = await expectEnvelope(
      await send(
        '/_emulator/ui/chat',
        'post',
        JSON.stringify({
          connect_url: `http://127.0.0.1:1${'/'.repeat(2000)}x`,
          session_token: 't',
          text: 'hi',
        }),
      ),
      400,
      'invalid_request',
      'ui chat',
    );
    expect(String(b.detail)).toBe('connect_url: not a box of this emulator');
  });
});
