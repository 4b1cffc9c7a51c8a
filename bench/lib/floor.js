// The floor the control plane's mint is measured against (issue 7 item 13): the least a
// mint can cost on this stack. A bare Hono app on @hono/node-server with a better-sqlite3
// in-memory table: POST /mint checks a bearer against a prepared lookup, inserts one row
// with a prepared statement and signs an EdDSA JWT with jose; GET /read/:id answers one
// prepared primary-key read. No validation, no queue, no snapshot: what any mint must pay.
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { generateKeyPair, SignJWT } from 'jose';

export async function startFloor() {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE keys (lookup TEXT PRIMARY KEY, scopes TEXT NOT NULL);
    CREATE TABLE sessions (id TEXT PRIMARY KEY, scope TEXT NOT NULL, snapshot TEXT NOT NULL, created_at INTEGER NOT NULL);`);
  db.prepare('INSERT INTO keys VALUES (?, ?)').run('floorkey', '["sessions:write"]');
  const key = db.prepare('SELECT scopes FROM keys WHERE lookup = ?');
  const insert = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?)');
  const read = db.prepare('SELECT id, scope, created_at FROM sessions WHERE id = ?');
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const app = new Hono();
  app.post('/mint', async (c) => {
    const auth = c.req.header('authorization')?.slice(7);
    if (!auth || !key.get(auth)) return c.json({ error: 'unauthorized' }, 401);
    const body = await c.req.json();
    const id = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const snapshot = { id, persona: body.persona ?? 'ava' };
    insert.run(id, 'ws', JSON.stringify(snapshot), now);
    const token = await new SignJWT({ session: snapshot })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .setSubject(id)
      .sign(privateKey);
    return c.json({ status: 'ready', session_id: id, session_token: token }, 201);
  });
  app.get('/read/:id', (c) => {
    const row = read.get(c.req.param('id'));
    return c.json(row ? { state: 'waiting', position: 1, row } : { state: 'expired' });
  });
  const server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  return {
    baseUrl,
    apiKey: 'floorkey',
    /** Ids of stored rows, for the read figure. */
    ids: () =>
      db
        .prepare('SELECT id FROM sessions')
        .all()
        .map((r) => r.id),
    stop: () => new Promise((resolve) => server.close(() => resolve(db.close()))),
  };
}
