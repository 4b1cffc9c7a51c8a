import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvatarClient } from '../src/client/client.js';
import { ManualClock } from '../src/emulator/clock.js';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * spec 4.5 / 5.6: a trusted-issuer id_token reads a queue ticket's status, with query
 * workspace_id. The issuer's keys are served by a real JWKS server on 127.0.0.1; time (exp)
 * follows the emulator's ManualClock, not the wall clock.
 */
const clock = new ManualClock(Date.UTC(2030, 0, 1));
const h = useEmulator({
  seats: 1,
  clock,
  allowInsecureUrls: true,
  waiterIdleS: 3600,
  pendingIdleS: 1_000_000,
});
// Same rules without --allow-insecure-urls: a plain-http jwks_uri is never fetched.
const strict = useEmulator({ seats: 1, clock, waiterIdleS: 3600 });

const ISS = 'https://id.example.test';
const AUD = 'com.example.app';
let jwks: Server;
let jwksUrl: string;
const keys: Record<'rs' | 'es' | 'rs2', { priv: CryptoKey; pub: JWK }> = {} as never;
let dash: AvatarClient;
let ws2: string;
let ticket: string;

async function keyPair(alg: 'RS256' | 'ES256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { priv: privateKey, pub: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

const nowS = () => Math.floor(clock.now() / 1000);
function idToken(
  opts: {
    key?: 'rs' | 'es' | 'rs2';
    alg?: string;
    iss?: string;
    aud?: string;
    exp?: number;
    kid?: string;
  } = {},
) {
  const k = opts.key ?? 'rs';
  const alg = opts.alg ?? (k === 'es' ? 'ES256' : 'RS256');
  return new SignJWT({ email: 'user@example.test' })
    .setProtectedHeader({ alg, kid: opts.kid ?? (keys[k].pub.kid as string) })
    .setIssuer(opts.iss ?? ISS)
    .setAudience(opts.aud ?? AUD)
    .setSubject('user-1')
    .setIssuedAt(nowS())
    .setExpirationTime(opts.exp ?? nowS() + 300)
    .sign(keys[k].priv);
}

const statusWith = (token: string, t: string, wsId?: string) =>
  h.fetch(`/api/v1/sessions/queue/${t}${wsId ? `?workspace_id=${wsId}` : ''}`, { key: token });

beforeAll(async () => {
  keys.rs = await keyPair('RS256', 'rs-1');
  keys.es = await keyPair('ES256', 'es-1');
  keys.rs2 = await keyPair('RS256', 'rs-unpublished');
  jwks = createServer((req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: [keys.rs.pub, keys.es.pub] }));
  });
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', () => r()));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;

  const ws = h.emu.keys.workspaceId;
  await h.client.call('issuers.create', {
    params: { wsId: ws },
    body: { iss: ISS, aud: AUD, jwks_uri: jwksUrl, algs: ['RS256'] },
  });
  await h.client.call('issuers.create', {
    params: { wsId: ws },
    body: { iss: `${ISS}/es`, aud: AUD, jwks_uri: jwksUrl, algs: ['ES256'] },
  });
  dash = h.as(h.emu.keys.dashboardKey);
  ws2 = (await dash.call('workspaces.create', { body: { name: 'other' } })).body.id;
  await dash.call('issuers.create', {
    params: { wsId: ws2 },
    body: { iss: ISS, aud: 'other.app', jwks_uri: jwksUrl, algs: ['RS256'] },
  });

  // One seat, held; the next mint waits in line.
  expect((await h.client.send('sessions.mint', { body: { persona: 'ava' } })).status).toBe(201);
  const q = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
  expect(q.status).toBe(202);
  ticket = q.body.queue_ticket;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      jwks.close(() => r());
      jwks.closeAllConnections();
    }),
);

describe('id_token on GET /api/v1/sessions/queue/{ticket}', () => {
  it('a valid RS256 or ES256 id_token reads the ticket (workspace_id in the query)', async () => {
    const ws = h.emu.keys.workspaceId;
    const r = await statusWith(await idToken(), ticket, ws);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ state: 'waiting', position: 1, retry_after: 3 });
    const e = await statusWith(await idToken({ key: 'es', iss: `${ISS}/es` }), ticket, ws);
    expect(e.status).toBe(200);
    expect(await e.json()).toMatchObject({ state: 'waiting', position: 1 });
    // an unknown ticket is still 200 expired
    const u = await statusWith(await idToken(), 'qt_nope', ws);
    expect(await u.json()).toEqual({ state: 'expired', retry_after: 3 });
  });

  it('without workspace_id: 400 workspace_id_required', async () => {
    const r = await statusWith(await idToken(), ticket);
    expect(r.status).toBe(400);
    expect((await r.json()).error).toBe('workspace_id_required');
  });

  it('wrong aud, wrong iss, wrong alg, unknown kid, bad signature, junk: 401 unauthorized', async () => {
    const ws = h.emu.keys.workspaceId;
    const bad = [
      await idToken({ aud: 'someone.else' }),
      await idToken({ iss: 'https://evil.example.test' }),
      // ES256 key under the RS256-only issuer, and the reverse
      await idToken({ key: 'es' }),
      await idToken({ key: 'rs', iss: `${ISS}/es` }),
      // a key the JWKS does not publish
      await idToken({ key: 'rs2' }),
      (await idToken()).replace(/\.[^.]+$/, '.AAAA'),
      'aaaa.bbbb.cccc',
    ];
    for (const token of bad) {
      const r = await statusWith(token, ticket, ws);
      expect(r.status, token.slice(0, 40)).toBe(401);
      expect((await r.json()).error).toBe('unauthorized');
    }
  });

  it('an HS256 token signed with a guessable secret is refused', async () => {
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISS)
      .setAudience(AUD)
      .setExpirationTime(nowS() + 60)
      .sign(new TextEncoder().encode('x'.repeat(32)));
    expect((await statusWith(hs, ticket, h.emu.keys.workspaceId)).status).toBe(401);
  });

  it('exp follows the emulator clock: valid now, 401 once the ManualClock passes it', async () => {
    const token = await idToken({ exp: nowS() + 60 });
    expect((await statusWith(token, ticket, h.emu.keys.workspaceId)).status).toBe(200);
    clock.advance(61_000);
    const r = await statusWith(token, ticket, h.emu.keys.workspaceId);
    expect(r.status).toBe(401);
    expect((await r.json()).error).toBe('unauthorized');
    // a token without exp is refused too
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'rs-1' })
      .setIssuer(ISS)
      .setAudience(AUD)
      .sign(keys.rs.priv);
    expect((await statusWith(noExp, ticket, h.emu.keys.workspaceId)).status).toBe(401);
  });

  it('foreign workspace: an issuer not trusted there is 401; trusted there, the ticket reads expired', async () => {
    // trusted in ws1 only, asked about ws2
    expect((await statusWith(await idToken(), ticket, ws2)).status).toBe(401);
    // trusted in ws2 (aud other.app): the ws1 ticket is invisible there
    const r = await statusWith(await idToken({ aud: 'other.app' }), ticket, ws2);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ state: 'expired', retry_after: 3 });
    // and the ticket itself is untouched
    expect((await h.client.call('sessions.queue.status', { params: { ticket } })).body.state).toBe(
      'waiting',
    );
  });

  it('the read counts as a liveness touch', async () => {
    const fresh = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(fresh.status).toBe(202);
    // waiterIdleS is 3600 here: touch at 3000 s, then 3000 s more is still alive
    clock.advance(3_000_000);
    await statusWith(await idToken(), fresh.body.queue_ticket, h.emu.keys.workspaceId);
    await h.client.call('sessions.queue.status', { params: { ticket } });
    clock.advance(3_000_000);
    const r = await statusWith(await idToken(), fresh.body.queue_ticket, h.emu.keys.workspaceId);
    expect((await r.json()).state).toBe('waiting');
    await h.client.send('sessions.queue.cancel', { params: { ticket: fresh.body.queue_ticket } });
  });

  it('only the status route takes an id_token: DELETE with one is 401', async () => {
    const r = await h.fetch(
      `/api/v1/sessions/queue/${ticket}?workspace_id=${h.emu.keys.workspaceId}`,
      { method: 'DELETE', key: await idToken() },
    );
    expect(r.status).toBe(401);
    expect(
      (await h.client.call('sessions.queue.status', { params: { ticket } })).body.state,
    ).not.toBe('expired');
  });

  it('API keys keep working on the route', async () => {
    expect((await h.client.call('sessions.queue.status', { params: { ticket } })).body.state).toBe(
      'waiting',
    );
  });

  it('without --allow-insecure-urls a plain-http jwks_uri is not trusted (401)', async () => {
    const ws = strict.emu.keys.workspaceId;
    await strict.client.call('issuers.create', {
      params: { wsId: ws },
      body: { iss: ISS, aud: AUD, jwks_uri: jwksUrl },
    });
    const r = await strict.fetch(`/api/v1/sessions/queue/qt_x?workspace_id=${ws}`, {
      key: await idToken(),
    });
    expect(r.status).toBe(401);
    expect((await r.json()).message).toMatch(/https.*--allow-insecure-urls/);
  });

  it('CLI: avatar sessions queue status --id-token', async () => {
    const env = isolatedEnv({
      AVATAR_BASE_URL: h.baseUrl,
      AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId,
    });
    const r = await cli(
      ['--json', 'sessions', 'queue', 'status', ticket, '--id-token', await idToken()],
      env,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ state: 'waiting', position: 1 });
    const bad = await cli(
      ['sessions', 'queue', 'status', ticket, '--id-token', await idToken({ aud: 'nope' })],
      env,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unauthorized/);
  });
});
