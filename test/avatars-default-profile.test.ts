/**
 * spec 2: `default_profile_id` is reported on the avatar; spec 4.9: a published avatar
 * without profiles gets profile 1 "on first read". Reading the avatar is a read: it must
 * not show `default_profile_id: null` and then another value without any write.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ idleMedia: false });

const call = (path: string) => h.api(path);
const post = (path: string, body: unknown) => h.api(path, { body });

describe('default_profile_id of a published avatar', () => {
  it('is set on the first avatar read and matches the profile list', async () => {
    const a = (await post('/api/v1/avatars', { name: 'Consistent' })).body;
    expect(a.default_profile_id).toBeNull(); // nothing published yet: no profile to synthesize
    await post(`/api/v1/avatars/${a.id}/versions`, {
      source_persona: 'mei',
      system_prompt: 'Version text.',
    });
    const got = (await call(`/api/v1/avatars/${a.id}`)).body;
    expect(got.default_profile_id).toEqual(expect.any(String));
    const list = (await call(`/api/v1/avatars/${a.id}/profiles`)).body;
    expect(list.default_profile_id).toBe(got.default_profile_id);
    expect(list.data).toHaveLength(1);
  });

  it('stock avatars list with their profile 1 as the default', async () => {
    const stock = (await call('/api/v1/workspaces/ws_stock/avatars')).body.data as any[];
    expect(stock.every((x) => typeof x.default_profile_id === 'string')).toBe(true);
    const ava = stock.find((x) => x.name === 'Ava');
    expect((await call(`/api/v1/avatars/${ava.id}/profiles`)).body.default_profile_id).toBe(
      ava.default_profile_id,
    );
  });
});
