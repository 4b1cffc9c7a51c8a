import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wholeBoxesLength } from '../src/browser/player.js';
import { useEmulator } from './helpers/emulator.js';

const box = (type: string, payload: number) => {
  const b = new Uint8Array(8 + payload);
  new DataView(b.buffer).setUint32(0, 8 + payload);
  b.set(new TextEncoder().encode(type), 4);
  return b;
};
const cat = (...xs: Uint8Array[]) => {
  const out = new Uint8Array(xs.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of xs) out.set(x, at), (at += x.length);
  return out;
};

describe('avatar/browser', () => {
  it('appends whole boxes only: a box split across messages waits for its end', () => {
    const moof = box('moof', 100);
    const mdat = box('mdat', 4000);
    expect(wholeBoxesLength(cat(moof, mdat))).toBe(4116);
    expect(wholeBoxesLength(cat(moof, mdat.subarray(0, 1000)))).toBe(108);
    expect(wholeBoxesLength(mdat.subarray(0, 5))).toBe(0);
    expect(() => wholeBoxesLength(new Uint8Array([0, 0, 0, 3, 1, 2, 3, 4]))).toThrow(
      /bad ISO-BMFF box size 3/,
    );
  });

  it('imports only the contract and no Node built-in (it runs in a page)', () => {
    // Every file the browser bundle reaches (followed import by import): src/browser, the
    // contract's edge folder and its operation helpers (fillPath, for callOperation) only, with
    // no package and no Node built-in among their imports.
    // `import type` is erased from the emitted JS (event types derive from the zod schemas).
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const src = readFileSync(file, 'utf8');
      for (const [, spec] of src.matchAll(/^(?:import|export)(?! type )[^'"]*from '([^']+)'/gm)) {
        expect(spec, `${file} imports ${spec}`).toMatch(/^\.\.?\//);
        const next = join(dirname(file), spec!).replace(/\.js$/, '.ts');
        expect(next, `${file} imports ${spec}`).toMatch(
          /^src\/(browser\/|contract\/edge\/|contract\/operation\.ts$)/,
        );
        visit(next);
      }
    };
    for (const f of readdirSync('src/browser')) visit(join('src/browser', f));
    expect(seen).toContain('src/contract/edge/protocol.ts');
    expect(seen).toContain('src/contract/edge/decode.ts');
  });
});

describe('the playground routes', () => {
  const h = useEmulator({ boxes: 1, seats: 1 });

  it('serves the page with its credentials in the document, none in a URL', async () => {
    const res = await h.fetch('/_emulator/ui');
    expect(res.status).toBe(200);
    const html = await res.text();
    const key = JSON.parse(
      html.match(/<script type="application\/json" id="config">(.*?)<\/script>/)![1]!,
    ).apiKey as string;
    expect(key).toMatch(/^avatar_/);
    expect(html.match(/(?:src|href)="[^"]*"/g)!.join(' ')).not.toContain(key);
  });

  it('serves the page (and its credentials) only to a loopback Host', async () => {
    const { request } = await import('node:http');
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(h.baseUrl);
        request(
          { host: u.hostname, port: u.port, path: '/_emulator/ui', headers: { host } },
          (res) => (res.resume(), resolve(res.statusCode!)),
        )
          .on('error', reject)
          .end();
      });
    expect(await status('localhost:1234')).toBe(200);
    expect(await status('[::1]:80')).toBe(200);
    expect(await status('attacker.example:80')).toBe(421); // the Host guard answers first (docs/security.md); the page route itself also refuses a non-loopback Host;
    expect(await status('192.168.1.20')).toBe(421);
  });

  it('hands the page credentials only to a loopback peer, whatever Host it claims (an emulator bound to 0.0.0.0)', async () => {
    // A LAN client can send `Host: localhost`; the peer address is what it cannot choose.
    const as = (remoteAddress: string) =>
      h.emu.app.request(
        'http://localhost/_emulator/ui',
        { headers: { host: 'localhost' } },
        { incoming: { socket: { remoteAddress } } },
      );
    const lan = await as('192.0.2.7');
    expect(lan.status).toBe(403);
    const body = await lan.text();
    expect(body).not.toContain(h.emu.operatorToken);
    expect(body).not.toContain(h.emu.keys.dashboardKey);
    for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect((await as(peer)).status, peer).toBe(200);
  });

  it('the v1 chat relay forwards only to its own boxes, and refuses bad bodies with the envelope', async () => {
    const post = (body: string) =>
      h.fetch('/_emulator/ui/chat', {
        method: 'POST',
        key: h.emu.keys.dashboardKey,
        headers: { 'content-type': 'application/json' },
        body,
      });
    const foreign = await post(
      JSON.stringify({ connect_url: 'http://169.254.169.254', session_token: 'x', text: 'hi' }),
    );
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({
      error: 'invalid_request',
      detail: 'connect_url: not a box of this emulator',
    });
    expect((await post('{nope')).status).toBe(400);
    expect(await (await post('[]')).json()).toMatchObject({ error: 'invalid_request' });

    const m = (await h.api('/api/v1/sessions', { body: { persona: 'ava' } })).body;
    const ok = await post(
      JSON.stringify({
        connect_url: m.connect_url,
        session_token: m.session_token,
        text: 'Hello.',
      }),
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, speech_id: expect.any(String) });
    const bad = await post(
      JSON.stringify({ connect_url: m.connect_url, session_token: 'forged', text: 'Hello.' }),
    );
    expect(bad.status).toBe(401);
    await h.api(`/api/v1/sessions/${m.session_id}/release`, { body: { seat_token: m.seat_token } });
  });

  it('lists inference jobs and workflow executions node by node for the state view', async () => {
    const key = h.emu.keys.dashboardKey;
    const wf = await h.api('/api/workflows', {
      key,
      body: {
        name: 'wf',
        dag: {
          nodes: {
            embed: {
              model_id: 'avatar-embed',
              task: 'embedding',
              payload: { input: '${input.topic}' },
            },
          },
          edges: [],
        },
      },
    });
    expect(wf.status).toBe(201);
    const ex = await h.api(`/api/workflows/${wf.body.workflow.id}/execute`, {
      key,
      body: { input_params: { topic: 'lighthouses' } },
    });
    expect(ex.status).toBe(201);
    const list = await h.api('/_emulator/jobs', { key });
    expect(list.status).toBe(200);
    expect(list.body.executions).toEqual([
      expect.objectContaining({
        id: ex.body.execution.id,
        workflow_id: wf.body.workflow.id,
        nodes: { embed: expect.objectContaining({ status: expect.any(String) }) },
      }),
    ]);
    expect(Array.isArray(list.body.jobs)).toBe(true);
  });
});
