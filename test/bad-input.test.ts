import { describe, expect, it } from 'vitest';
import { Limits } from '../src/contract/limits.js';
import { allOperations } from '../src/contract/operations/index.js';
import { useEmulator } from './helpers/emulator.js';
import { samplePath } from './helpers/operations.js';

/**
 * Bad input on every route gets a 4xx in the spec's envelope: never a 500, never a hang,
 * never a crash, and nothing already stored is lost.
 */
const h = useEmulator();
// Every route with a JSON body in the control-plane envelope: the control plane's (keyed) and
// the emulator's operator routes (issue 19 item 5: the whole document, not /api/v1 only).
const withBody = allOperations.filter(
  (o) =>
    o.body &&
    (o.family === 'operator' || ((o.family ?? 'control') === 'control' && o.auth !== 'public')),
);

async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body = (await res.json()) as { error: unknown };
  expect(body.error).toBe(code);
}

describe.each(withBody.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
  '%s',
  (_n, op) => {
    const call = (body: string | Buffer) =>
      // Sent as JSON, as a client does (the operator guard answers 415 to anything else: docs/security.md).
      h.fetch(samplePath(op, h.emu.keys.workspaceId), {
        key: h.emu.keys.secretKey,
        method: op.method.toUpperCase(),
        headers: { 'content-type': 'application/json' },
        body: body as BodyInit,
      });

    it('malformed JSON -> 400 invalid_json', async () => {
      for (const body of ['{"name":', '{name: 1}', 'nul', '\u0000\u0001'])
        await expectEnvelope(await call(body), 400, 'invalid_json');
    });

    it('wrong types -> 400 with a detail, never 500', async () => {
      for (const body of ['42', '"text"', '[1,2]', 'true']) {
        const res = await call(body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        const b = (await res.json()) as { error: string; detail?: string };
        expect(typeof b.error).toBe('string');
      }
    });

    // speak reads its own JSON with a larger limit (media as data: URIs, docs/generations.md).
    const limit = op.rawBody?.maxBytes ?? Limits.jsonBodyBytes;
    it(`a body over ${limit} bytes -> 413 payload_too_large`, async () => {
      const big = JSON.stringify({ name: 'x'.repeat(limit + 10) });
      await expectEnvelope(await call(big), 413, 'payload_too_large');
    });
  },
);

describe('routing', () => {
  it('unknown routes answer 404 not_found, wrong methods 405 with Allow', async () => {
    await expectEnvelope(await h.fetch('/api/v1/nope'), 404, 'not_found');
    await expectEnvelope(await h.fetch('/nope', { method: 'POST' }), 404, 'not_found');
    const res = await h.fetch('/api/v1/workspaces', { method: 'PUT', key: h.emu.keys.secretKey });
    expect(res.headers.get('allow')).toContain('GET');
    await expectEnvelope(res, 405, 'method_not_allowed');
    await expectEnvelope(
      await h.fetch('/api/v1/workspaces/not-a-uuid', { key: h.emu.keys.secretKey }),
      404,
      'not_found',
    );
  });

  it('keeps serving and keeps its data after all of the above', async () => {
    const before = await (await h.fetch('/api/v1/tokens', { key: h.emu.keys.secretKey })).json();
    for (const op of withBody) {
      await h.fetch(samplePath(op, h.emu.keys.workspaceId), {
        key: h.emu.keys.secretKey,
        method: op.method.toUpperCase(),
        body: '{',
      });
    }
    expect((await h.fetch('/_emulator/health')).status).toBe(200);
    expect(await (await h.fetch('/api/v1/tokens', { key: h.emu.keys.secretKey })).json()).toEqual(
      before,
    );
  });
});
