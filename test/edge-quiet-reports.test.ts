import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { startBox, type RunningBox } from '../src/edge/box/box.js';
import { defaultParts } from '../src/edge/default-parts.js';
import { until } from './helpers/edge.js';

/**
 * Issue 8 review: `observability: false` (spec 4.5) silences session-tagged logs. A control
 * plane that refuses a session's turn report must not make the box log that session's id.
 * A fake control plane (JWKS + box API) that accepts everything but turns.
 */

const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA' };
let turnReports = 0;
const cp: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/jwks.json') return res.end(JSON.stringify({ keys: [jwk] }));
    if (req.url?.includes('/turns')) {
      turnReports++;
      res.statusCode = 503;
      return res.end(JSON.stringify({ error: 'unavailable' }));
    }
    res.end(JSON.stringify({ ok: true }));
  });
});
const cpUrl = await new Promise<string>((r) =>
  cp.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(cp.address() as AddressInfo).port}`)),
);
const lines: string[] = [];
const box: RunningBox = await startBox({
  controlPlaneUrl: cpUrl,
  boxId: 'box_q',
  secret: 's',
  seats: 2,
  protocols: [1],
  customAvatars: false,
  verified: false,
  parts: await defaultParts(),
  log: (l) => lines.push(l),
});
afterAll(async () => {
  await box.stop();
  await new Promise<void>((r) => cp.close(() => r()));
});

const token = (id: string, sessionLogs: boolean, recording = false) =>
  new SignJWT({
    session: {
      persona: 'ava',
      config: { render: false, greeting_enabled: false },
      session_logs: sessionLogs,
      recording,
    },
  })
    .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
    .setIssuer(cpUrl)
    .setAudience('box_q')
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(privateKey);

const chat = async (t: string) => {
  const r = await fetch(`${box.baseUrl}/chat?token=${t}`, {
    method: 'POST',
    body: JSON.stringify({ text: 'hello' }),
  });
  expect(r.status).toBe(200);
};

describe('observability: false and failed control-plane reports', () => {
  it('a failed turn report is logged for a normal session and not for a silenced one', async () => {
    const quiet = '11111111-1111-4111-8111-111111111111';
    const loud = '22222222-2222-4222-8222-222222222222';
    await chat(await token(quiet, false));
    await until(
      () => turnReports,
      (n) => n >= 1,
    );
    await chat(await token(loud, true));
    await until(() => lines.some((l) => l.includes(loud) && /failed/.test(l)), Boolean);
    expect(lines.filter((l) => l.includes(quiet))).toEqual([]);
  });

  it('recording: true on a box without a capture directory says so in its log instead of silently capturing nothing', async () => {
    const id = '33333333-3333-4333-8333-333333333333';
    await chat(await token(id, true, true));
    expect(lines.find((l) => l.includes(id) && /recording/.test(l))).toMatch(/--data/);
  });
});
