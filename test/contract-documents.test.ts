/**
 * Issue 19 items 1 and 2: the documents a user's tools read. The OpenAPI document covers every
 * route the running emulator serves (listed from its router, not from the operation table
 * that generates the document), the AsyncAPI document every message a live session's edge
 * sends or accepts (listed from real sockets), each checked by its official validator or
 * parser, and openapi-typescript turns the whole OpenAPI document into compiling types.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { runningBoxes } from '../src/emulator/fleet/spawn.js';
import { openSock, until, wsUrl, type Sock } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

type Json = Record<string, any>;
// Fetched once each: openapi-typescript's work blocks the loop long enough for an idle
// keep-alive connection to be reset under the next fetch.
let docs: Promise<[Json, Json]> | undefined;
const fetchDocs = () =>
  (docs ??= Promise.all(
    ['/api/v1/openapi.json', '/api/v1/asyncapi.json'].map(
      async (p) => (await h.fetch(p)).json() as Promise<Json>,
    ),
  ) as Promise<[Json, Json]>);
const openapi = async () => structuredClone((await fetchDocs())[0]);
const asyncapi = async () => structuredClone((await fetchDocs())[1]);

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (standard validator) and describes the inference family with its own error envelope', async () => {
    const doc = await openapi();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const chat = doc.paths['/compat-a/v1/chat/completions'].post;
    expect(chat.responses['400'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/InferenceError',
    );
    expect(chat.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ChatCompletionRequest',
    );
    expect(
      doc.paths['/api/v1/sessions'].post.responses['400'].content['application/json'].schema.$ref,
    ).toBe('#/components/schemas/Error');
    // operationIds are unique across every family (generators name methods after them).
    const ids = Object.values(doc.paths as Record<string, Json>).flatMap((item) =>
      Object.values(item).map((o: Json) => o.operationId),
    );
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has every route the running emulator serves (from its router), with the method it answers', async () => {
    const doc = await openapi();
    // The emulator's router and the router of each edge box it runs (POST /chat, /health, /_box/*).
    const routes = [h.emu.app, ...runningBoxes(h.emu.ctx).map((b) => b.app)].flatMap(
      (app) => app.routes,
    );
    const served = routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/{}]+)/g, '{$1}')}`);
    expect(served.length).toBeGreaterThan(100);
    expect(served).toContain('post /chat');
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Json>).flatMap(([p, item]) =>
        Object.keys(item).map((m) => `${m} ${p}`),
      ),
    );
    expect([...new Set(served)].filter((r) => !documented.has(r))).toEqual([]);
  });

  it('marks every operator route the guard closes with the operator bearer scheme, and only those', async () => {
    const doc = await openapi();
    expect(doc.components.securitySchemes.operator).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      if (!path.startsWith('/_emulator/')) continue;
      for (const [method, op] of Object.entries(item as Record<string, Json>)) {
        const closed = JSON.stringify(op.security) === JSON.stringify([{ operator: [] }]);
        if (!closed && method !== 'get') wrong.push(`${method} ${path}: a write open to anyone`);
        if (!closed && method !== 'get') continue;
        // Without a credential the guard answers 401 before any handler runs (nothing changes).
        const res = await h.fetch(path.replace(/\{[^}]+\}/g, 'x'), {
          method: method.toUpperCase(),
        });
        await res.body?.cancel();
        if ((res.status === 401) !== closed)
          wrong.push(
            `${method} ${path}: documented ${closed ? 'closed' : 'open'}, answered ${res.status}`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('turns into TypeScript types that compile, with openapi-typescript', async () => {
    const ast = await openapiTS((await openapi()) as Parameters<typeof openapiTS>[0]);
    const source = astToString(ast);
    expect(source).toContain('"/compat-a/v1/chat/completions"');
    expect(source).toContain('"/_emulator/clock/advance"');
    const dir = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
    const file = join(dir, 'api.ts');
    writeFileSync(
      file,
      source +
        '\nexport type ChatBody = paths["/compat-a/v1/chat/completions"]["post"]["requestBody"];\n',
    );
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      types: [],
      lib: ['lib.es2022.d.ts'],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});

describe('the AsyncAPI document', () => {
  it('parses with the official AsyncAPI parser, without errors', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(await asyncapi()));
    expect(
      diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`),
    ).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('describes every message a live session sends and accepts, v1 and v2, on its socket', async () => {
    const doc = await asyncapi();
    const ajv = new Ajv({ strict: false });
    const byAddress = new Map<string, string>(
      Object.entries(doc.channels as Record<string, Json>).map(([id, c]) => [c.address, id]),
    );
    // A message fits a channel's operation of the given action when one of its payloads accepts it.
    const fits = (address: string, action: 'send' | 'receive', msg: unknown) => {
      const id = byAddress.get(address);
      const op = Object.values(doc.operations as Record<string, Json>).find(
        (o) => o.action === action && o.channel.$ref === `#/channels/${id}`,
      );
      const names: string[] = (op?.messages ?? []).map((m: Json) =>
        String(m.$ref).split('/').pop(),
      );
      const payloads = names.map((n) => doc.components.messages[n]);
      if (Buffer.isBuffer(msg))
        return payloads.some((p) => p.contentType === 'application/octet-stream');
      return payloads.some(
        (p) => p.contentType === 'application/json' && ajv.validate(p.payload, msg),
      );
    };
    const check = (address: string, s: Sock, sent: unknown[]) => {
      expect(s.json.length, address).toBeGreaterThan(0);
      for (const m of s.json)
        expect(fits(address, 'send', m), `${address} sent ${JSON.stringify(m)}`).toBe(true);
      for (const b of s.bin.slice(0, 3))
        expect(fits(address, 'send', b), `${address} sent binary`).toBe(true);
      for (const m of sent)
        expect(
          fits(address, 'receive', m),
          `${address} accepts ${Buffer.isBuffer(m) ? 'binary' : JSON.stringify(m)}`,
        ).toBe(true);
    };

    // v1: three sockets and POST /chat.
    const v1 = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { greeting_enabled: false } },
      })
    ).body;
    const [mse, mic, events] = await Promise.all(
      ['/mse', '/mic_stream', '/events'].map((p) =>
        openSock(wsUrl(v1.connect_url, p, v1.session_token)),
      ),
    );
    const hello = { op: 'hello', lang: 'en' };
    const frame = Buffer.alloc(3200);
    mic!.ws.send(JSON.stringify(hello));
    mic!.ws.send(frame);
    mic!.ws.send(JSON.stringify({ op: 'nonsense' }));
    await mic!.next((m) => m.type === 'error');
    const chat = await fetch(new URL(`/chat?token=${v1.session_token}`, v1.connect_url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hello there' }),
    });
    expect(chat.status).toBe(200);
    expect((await openapi()).paths['/chat'].post.requestBody).toBeDefined();
    await events!.next((m) => m.type === 'turn', 30_000);
    await events!.next((m) => m.type === 'speech', 30_000);
    await mic!.next((m) => m.type === 'turn');
    await until(
      () => mse!.bin.length,
      (n) => n > 1,
      30_000,
    );
    check('/mse', mse!, []);
    check('/mic_stream', mic!, [hello, frame]);
    check('/events', events!, []);
    for (const s of [mse, mic, events]) s!.close();

    // v2: one socket, control text and tagged binary.
    const v2 = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', protocol_versions: [2], config: { greeting_enabled: false } },
      })
    ).body;
    const s = await openSock(wsUrl(v2.connect_url, '/v2/session', v2.session_token), {
      protocols: ['svc.avatar.v2'],
    });
    const sent = [
      { type: 'hello', lang: 'en' },
      Buffer.concat([Buffer.from([0x02]), frame]),
      { type: 'ping' },
      { type: 'chat', text: 'Tell me about yourself' },
    ];
    for (const m of sent) s.ws.send(Buffer.isBuffer(m) ? m : JSON.stringify(m));
    s.ws.send(Buffer.from([0x07]));
    await s.next((m) => m.error === 'bad_tag');
    await s.next((m) => m.type === 'pong');
    await s.next((m) => m.type === 'chat_ack');
    await s.next((m) => m.type === 'turn', 30_000);
    await s.next((m) => m.type === 'speech', 30_000);
    await s.next((m) => m.type === 'status');
    check('/v2/session', s, sent);
    expect(s.bin[0]![0]).toBe(0x01);
    s.close();
  }, 120_000);
});
