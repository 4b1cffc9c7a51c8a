import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';

// No base URL or key here: the client reads OPENAI_BASE_URL and OPENAI_API_KEY, which
// `avatar emulator exec` exports.
const client = new OpenAI();

describe('an app written with the openai client', () => {
  it('answers 20 chat completions in a row without a 429', async () => {
    for (let i = 0; i < 20; i++) {
      const r = await client.chat.completions.create({
        model: 'avatar-chat',
        messages: [{ role: 'user', content: `hello ${i}` }],
      });
      expect(r.choices[0].message.content.length).toBeGreaterThan(0);
    }
  });

  it('embeds text', async () => {
    const r = await client.embeddings.create({ model: 'avatar-embed', input: 'the cat' });
    expect(r.data[0].embedding.length).toBeGreaterThan(0);
  });

  it('knows the keys and plan of the seed file (seed.yaml)', async () => {
    const seeded = new OpenAI({
      apiKey: 'avatar_5eed0001.00000000000000000000000000000000000000000000000000000001',
    });
    const r = await seeded.embeddings.create({ model: 'avatar-embed', input: 'seeded' });
    expect(r.data.length).toBe(1);
    const org = await fetch(`${process.env.AVATAR_BASE_URL}/api/organizations`, {
      headers: { authorization: `Bearer ${process.env.AVATAR_DASHBOARD_KEY}` },
    });
    expect((await org.json()).data[0].plan).toBe('pro');
  });

  it('sees the workspace the environment names', async () => {
    const r = await fetch(
      `${process.env.AVATAR_BASE_URL}/api/v1/workspaces/${process.env.AVATAR_WORKSPACE_ID}`,
      {
        headers: { authorization: `Bearer ${process.env.AVATAR_API_KEY}` },
      },
    );
    expect(r.status).toBe(200);
  });

  it('mints a session with the avatar of the seed file, by its fixed id', async () => {
    const key = 'avatar_5eed0001.00000000000000000000000000000000000000000000000000000001';
    const r = await fetch(`${process.env.AVATAR_BASE_URL}/api/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ avatar_id: '5eed0000-0000-4000-8000-00000000a001' }),
    });
    const s = await r.json();
    expect(r.status, JSON.stringify(s)).toBe(201);
    await fetch(`${process.env.AVATAR_BASE_URL}/api/v1/sessions/${s.session_id}/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seat_token: s.seat_token }),
    });
  });
});
