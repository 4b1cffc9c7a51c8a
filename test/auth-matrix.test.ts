import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src/contract/operations/index.js';
import { hasScope, Scopes, type ScopeRequirement } from '../src/contract/scopes.js';
import { useEmulator } from './helpers/emulator.js';
import { samplePath } from './helpers/operations.js';

/**
 * The auth matrix of spec 5, run against every authenticated operation of the contract
 * (so routes added later are covered by construction): no key, malformed keys, a revoked
 * key, a key without the route's scope, a publishable key from its own and from a foreign
 * Origin, and a device key.
 */
const h = useEmulator();
const ORIGIN = 'https://app.example.com';
const keys: Record<string, string> = {};

beforeAll(async () => {
  const key = h.emu.keys.secretKey;
  const make = async (body: object) => {
    const r = await h.fetch('/api/v1/tokens', { key, method: 'POST', body: JSON.stringify(body) });
    return (await r.json()) as { id: string; token: string };
  };
  const revoked = await make({ name: 'revoked' });
  await h.fetch(`/api/v1/tokens/${revoked.id}/revoke`, { key, method: 'POST' });
  keys.revoked = revoked.token;
  keys.publishable = (
    await make({ name: 'web', kind: 'publishable', allowedOrigins: [ORIGIN] })
  ).token;
  const dev = await h.fetch(`/api/v1/workspaces/${h.emu.keys.workspaceId}/devices`, {
    key,
    method: 'POST',
    body: JSON.stringify({ name: 'phone', platform: 'ios' }),
  });
  keys.device = ((await dev.json()) as { token: string }).token;
  for (const scope of Scopes)
    keys[`only:${scope}`] = (await make({ name: scope, scopes: [scope] })).token;
});

const authed = operations.filter((o) => o.auth !== 'public');
const pathOf = (op: (typeof authed)[number]) => samplePath(op, h.emu.keys.workspaceId);
const send = (op: (typeof authed)[number], headers: Record<string, string>) =>
  h.fetch(pathOf(op), {
    method: op.method.toUpperCase(),
    headers,
    body: op.method === 'get' ? undefined : '{}',
  });

const wrongScope = (need: ScopeRequirement) =>
  Scopes.find((s) => !need.anyOf.includes(s) && s !== 'session:connect')!;

describe.each(authed.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
  '%s',
  (_name, op) => {
    const need = op.auth as ScopeRequirement;

    it('401 without a key, with a malformed key, and with a revoked key', async () => {
      for (const headers of <Record<string, string>[]>[
        {},
        { authorization: 'Bearer not-a-key' },
        { authorization: 'Bearer avatar_zzzzzzzz.' + '0'.repeat(56) },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: `Bearer avatar_00000000.${'0'.repeat(56)}` },
        { authorization: `Bearer ${keys.revoked}` },
      ]) {
        const res = await send(op, headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(((await res.json()) as { error: string }).error).toBe('unauthorized');
      }
    });

    it('403 forbidden for a key without the scope', async () => {
      const res = await send(op, { authorization: `Bearer ${keys[`only:${wrongScope(need)}`]}` });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe('forbidden');
    });

    it('passes auth for a key holding one of its scopes', async () => {
      const res = await send(op, { authorization: `Bearer ${keys[`only:${need.anyOf[0]}`]}` });
      expect(res.status).not.toBe(401);
      if (res.status === 403)
        expect(((await res.json()) as { error: string }).error).not.toBe('forbidden');
    });

    it('publishable key: origin_not_allowed from a foreign or missing Origin; scope-checked from its own', async () => {
      for (const origin of ['https://evil.example.net', undefined]) {
        const res = await send(op, {
          authorization: `Bearer ${keys.publishable}`,
          ...(origin ? { origin } : {}),
        });
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: string }).error).toBe('origin_not_allowed');
      }
      const own = await send(op, { authorization: `Bearer ${keys.publishable}`, origin: ORIGIN });
      if (hasScope(['session:connect'], need)) expect([401]).not.toContain(own.status);
      else {
        expect(own.status).toBe(403);
        expect(((await own.json()) as { error: string }).error).toBe('forbidden');
      }
    });

    it('device key: locked to session:connect', async () => {
      const res = await send(op, { authorization: `Bearer ${keys.device}` });
      if (hasScope(['session:connect'], need)) expect(res.status).not.toBe(401);
      else {
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: string }).error).toBe('forbidden');
      }
    });
  },
);
