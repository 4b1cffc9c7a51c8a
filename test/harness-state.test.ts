import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 18 item 3: `avatar emulator export FILE`, `import FILE`, `reset [--new-keys]` over
 * operator routes; an export written under an older schema imports into this one.
 */
const h = useEmulator({ mintRatePerMinute: 0 });
const dir = mkdtempSync(join(tmpdir(), 'avatar-state-test-'));
const env = (key = h.emu.keys.secretKey) =>
  isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: key });
const workspaces = async (key: string) =>
  ((await h.api('/api/v1/workspaces', { key })).body.data as { name: string }[]).map((w) => w.name);

describe('state export, import and reset', () => {
  it('export, reset (the keys keep working, the data goes), import (the data comes back, live sessions end)', async () => {
    const ws = await h.api('/api/v1/workspaces', {
      key: h.emu.keys.dashboardKey,
      body: { name: 'Fixture team' },
    });
    expect(ws.status).toBe(201);
    const tok = await h.api('/api/v1/tokens', {
      body: { name: 'ci key', scopes: ['sessions:write'] },
    });
    expect(tok.status).toBe(201);
    const file = join(dir, 'state.json');
    const ex = await cli(['--json', 'emulator', 'export', file], env());
    expect(ex.code).toBe(0);
    expect(ex.json().rows).toBeGreaterThan(5);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      format: 'avatar-emulator-state',
      format_version: 1,
    });

    const live = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    expect(live.status).toBe(201);
    const reset = await cli(['emulator', 'reset'], env());
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(h.emu.keys.secretKey);
    expect(await workspaces(h.emu.keys.dashboardKey)).not.toContain('Fixture team');
    expect((await h.api('/api/v1/tokens')).status).toBe(200); // the bootstrap key still works
    expect((await h.api('/api/v1/tokens', { key: tok.body.token })).status).toBe(401);
    // The live session ended (its seat is free again) and its record went with the rest.
    expect((await h.api(`/api/v1/sessions/${live.body.session_id}`)).status).toBe(404);
    expect(
      (
        (await (await h.fetch('/_emulator/boxes', { key: h.emu.keys.secretKey })).json()) as {
          data: { held: number }[];
        }
      ).data[0]!.held,
    ).toBe(0);
    expect((await h.api('/api/v1/avatars?workspace_id=ws_stock')).status).not.toBe(500);
    expect((await h.api('/api/gallery')).status).toBe(200);

    const im = await cli(['--json', 'emulator', 'import', file], env());
    expect(im.code).toBe(0);
    expect(im.json().keys.secret_key).toBe(h.emu.keys.secretKey);
    expect(await workspaces(h.emu.keys.dashboardKey)).toContain('Fixture team');
    expect((await h.api('/api/v1/tokens', { key: tok.body.token })).status).toBe(403); // known again, lacks tokens:read
    // A session minted after the import still finds a seat (the mint before it was ended).
    const again = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    expect(again.status).toBe(201);
  });

  it('an export from an older schema (before the inference migration) imports and is migrated', async () => {
    const doc = (await (
      await h.fetch('/_emulator/state/export', { key: h.emu.keys.secretKey })
    ).json()) as { migrations: number[]; tables: Record<string, unknown> };
    const older = {
      ...doc,
      migrations: doc.migrations.filter((v) => v !== 4),
      tables: { ...doc.tables },
    };
    for (const t of [
      'org_tokens',
      'inference_jobs',
      'inference_media',
      'inference_files',
      'inference_batches',
      'workflows',
      'workflow_executions',
      'inference_usage',
    ]) {
      delete older.tables[t];
    }
    const file = join(dir, 'older.json');
    writeFileSync(file, JSON.stringify(older));
    expect((await cli(['emulator', 'import', file], env())).code).toBe(0);
    expect(await workspaces(h.emu.keys.dashboardKey)).toContain('Fixture team');
    // The tables the newer migration made are there and work.
    const inf = await h.api('/compat-a/v1/embeddings', {
      body: { model: 'avatar-embed', input: 'x' },
    });
    expect(inf.status).toBe(200);
  });

  it('refuses an export from a newer emulator (409), a document that is not one (400 naming the field), and a bad keep_keys', async () => {
    const doc = (await (
      await h.fetch('/_emulator/state/export', { key: h.emu.keys.secretKey })
    ).json()) as { migrations: number[] };
    const newer = await h.api('/_emulator/state/import', {
      body: { ...doc, migrations: [...doc.migrations, 999] },
    });
    expect(newer.status).toBe(409);
    expect(newer.body).toMatchObject({
      error: 'state_too_new',
      detail: expect.stringMatching(/^migrations: 999/),
    });
    const notOne = await h.api('/_emulator/state/import', { body: { hello: 1 } });
    expect(notOne.status).toBe(400);
    expect(notOne.body.detail).toMatch(/^format:/);
    const badRows = await h.api('/_emulator/state/import', {
      body: { ...doc, tables: { users: { columns: ['id'], rows: [['a', 'b']] } } },
    });
    expect(badRows.status).toBe(400);
    expect(badRows.body.detail).toMatch(/^tables\.users:/);
    const escape = await h.api('/_emulator/state/import', {
      body: { ...doc, blobs: { '../../etc/x': 'AA==' } },
    });
    expect(escape.status).toBe(400);
    expect((await h.api('/_emulator/state/reset', { body: { keep_keys: 'yes' } })).status).toBe(
      400,
    );
  });

  it('reset --new-keys replaces the bootstrap keys: the old ones are refused, the printed ones work', async () => {
    const old = h.emu.keys.secretKey;
    const r = await cli(['--json', 'emulator', 'reset', '--new-keys'], env());
    expect(r.code).toBe(0);
    const keys = r.json().keys;
    expect(keys.secret_key).not.toBe(old);
    expect((await h.api('/api/v1/tokens', { key: old })).status).toBe(401);
    expect((await h.api('/api/v1/tokens', { key: keys.secret_key })).status).toBe(200);
    expect((await h.api('/api/organizations', { key: keys.dashboard_key })).status).toBe(200);
  });
});
