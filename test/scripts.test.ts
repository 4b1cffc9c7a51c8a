import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { scriptJsonSchema } from '../src/contract/resources/script.js';
import { stockAvatarId } from '../src/emulator/avatars/stock.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';
import { cli, isolatedEnv } from './helpers/cli.js';
import { operatorInit, useEmulator, type EmulatorHandle } from './helpers/emulator.js';
import { startMcpServer } from './helpers/mcp-server.js';

/**
 * Issue 29 item 1, the control plane's side of conversation scripts: loading (operator
 * API, --script at start, the seed's `scripts:`), the errors of bad scripts (file:line:
 * field), a failed load changing nothing, the choice at mint (persona, avatar_id, metadata,
 * the tie rule) as the box reads it over the box API, frozen with the session.
 */
const dir = mkdtempSync(join(tmpdir(), 'avatar-scripts-test-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

/** A fake box registered with the emulator: mints land on it, and it reads the box API. */
async function fakeBox(h: EmulatorHandle) {
  const cred = (await (await h.op('/_emulator/boxes', { method: 'POST' })).json()) as {
    box_id: string;
    secret: string;
  };
  const reg = await fetch(`${h.baseUrl}/_internal/boxes/${cred.box_id}/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cred.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      base_url: 'http://127.0.0.1:9',
      seats: 50,
      protocols: [1, 2],
      custom_avatars: true,
      verified: true,
    }),
  });
  expect(reg.status).toBe(200);
  return cred;
}

const post = (h: EmulatorHandle, body: unknown) =>
  h.op('/_emulator/scripts', { method: 'POST', body: JSON.stringify(body, null, 2) });
const names = async (h: EmulatorHandle) =>
  ((await (await h.op('/_emulator/scripts')).json()) as { data: { name: string }[] }).data.map(
    (s) => s.name,
  );

describe('operator API: load, list, clear', () => {
  const h = useEmulator({ boxes: 0 });

  it('loads one script or { scripts: [...] }, lists them in load order, replaces a name, clears', async () => {
    await h.op('/_emulator/scripts', { method: 'DELETE' });
    const one = await post(h, { name: 'a', rules: [{ then: [{ say: 'hi' }] }] });
    expect(one.status).toBe(200);
    expect(((await one.json()) as { loaded: string[] }).loaded).toEqual(['a']);
    const two = await post(h, {
      scripts: [
        { name: 'b', strict: true, match: { persona: 'leo' } },
        { name: 'a', rules: [] },
      ],
    });
    expect(two.status).toBe(200);
    const listed = (await (await h.op('/_emulator/scripts')).json()) as {
      data: { name: string; strict: boolean; rules: number; match: object; source: string }[];
    };
    // `a` was loaded again: replaced, and now the latest.
    expect(listed.data.map((s) => [s.name, s.rules, s.strict])).toEqual([
      ['b', 0, true],
      ['a', 0, false],
    ]);
    expect(listed.data[0]!.match).toEqual({ persona: 'leo' });
    expect(listed.data[0]!.source).toBe('request');
    const cleared = await h.op('/_emulator/scripts', { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 2 });
    expect(await names(h)).toEqual([]);
  });

  it('needs the operator credential', async () => {
    const r = await fetch(`${h.baseUrl}/_emulator/scripts`);
    expect(r.status).toBe(401);
    const w = await fetch(`${h.baseUrl}/_emulator/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(w.status).toBe(401);
  });

  it('a bad script is 400 naming request:line: field, and nothing changes (all or nothing)', async () => {
    await h.op('/_emulator/scripts', { method: 'DELETE' });
    await post(h, { name: 'kept', rules: [{ then: [{ say: 'kept' }] }] });
    const bad = await post(h, {
      scripts: [
        { name: 'fine', rules: [{ then: [{ say: 'fine' }] }] },
        { name: 'broken', rules: [{ when: { text: 'order (\\d+' }, then: [{ say: 'x' }] }] },
      ],
    });
    expect(bad.status).toBe(400);
    const b = (await bad.json()) as { error: string; detail: string; field: string };
    expect(b.error).toBe('invalid_request');
    expect(b.field).toBe('scripts.1.rules.0.when.text');
    // The line of `text` in the body as sent (JSON.stringify with 2 spaces).
    const line =
      JSON.stringify(
        {
          scripts: [
            { name: 'fine', rules: [{ then: [{ say: 'fine' }] }] },
            { name: 'broken', rules: [{ when: { text: 'order (\\d+' }, then: [{ say: 'x' }] }] },
          ],
        },
        null,
        2,
      )
        .split('\n')
        .findIndex((l) => l.includes('"text"')) + 1;
    expect(b.detail).toMatch(
      new RegExp(
        `^request:${line}: scripts\\.1\\.rules\\.0\\.when\\.text: not a valid regular expression`,
      ),
    );
    expect(await names(h)).toEqual(['kept']);
    // An alias bomb (each level ten of the one before): 400, never a 500.
    let bomb = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i <= 8; i++)
      bomb += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    const boom = await h.op('/_emulator/scripts', { method: 'POST', body: bomb });
    expect(boom.status).toBe(400);
    expect(((await boom.json()) as { detail: string }).detail).toMatch(
      /^request:1: not valid YAML or JSON/,
    );
    expect(await names(h)).toEqual(['kept']);
    // Not JSON at all: 400 too, nothing changes.
    const junk = await h.op('/_emulator/scripts', { method: 'POST', body: '{"name": ' });
    expect(junk.status).toBe(400);
    expect(await names(h)).toEqual(['kept']);
  });
});

describe('bad scripts: file:line: field: message at load, never a crash', () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.stop();
    emu = undefined;
  });
  const startWith = (file: string) =>
    startEmulator({ port: 0, inMemory: true, boxes: 0, scripts: [file] });

  const cases: [string, string, RegExp][] = [
    [
      'bad regular expression',
      'name: re\nrules:\n  - when:\n      text: "order (\\\\d+"\n    then:\n      - say: x\n',
      /re\.yaml:4: rules\.0\.when\.text: not a valid regular expression: .*/,
    ],
    [
      'unknown tool',
      'name: tl\nrules:\n  - then:\n      - say: one moment\n      - tool: lookup_order\n        args: { id: 7 }\n',
      /tl\.yaml:5: rules\.0\.then\.1\.tool: unknown tool "lookup_order": not a built-in tool, a tool of a registered MCP server, or one of the script's tools/,
    ],
    [
      'unknown step',
      'name: st\nrules:\n  - then:\n      - say: hello\n      - shout: HELLO\n',
      /st\.yaml:5: rules\.0\.then\.1\.shout: unknown step: a step is one of say, tool, wait_ms, fail, end/,
    ],
    [
      'unknown field of a step',
      'name: sf\nrules:\n  - then:\n      - say: hello\n        loud: true\n',
      /sf\.yaml:5: rules\.0\.then\.0\.loud: is not a script field/,
    ],
    [
      'unknown field of the script',
      'name: uf\nstrcit: true\n',
      /uf\.yaml:2: strcit: is not a script field/,
    ],
    [
      'an unknown key whose value starts on the next line: the line of the key',
      'name: uk\nstrict: true\nrule:\n  - then: [{ say: hi }]\n',
      /uk\.yaml:3: rule: is not a script field/,
    ],
    [
      'a misspelt then: the misspelling, not the missing then',
      'name: ms\nrules:\n  - when: { text: hi }\n    than:\n      - say: hi\n',
      /ms\.yaml:4: rules\.0\.than: is not a script field/,
    ],
    [
      'a wrong value of a known step',
      'name: wv\nrules:\n  - then:\n      - fail: box\n',
      /wv\.yaml:4: rules\.0\.then\.0\.fail: /,
    ],
    ['not YAML', 'name: [unclosed\n', /ny\.yaml:\d+: not valid YAML or JSON/],
    [
      'a name twice in one file',
      'scripts:\n  - name: same\n  - name: same\n',
      /tw\.yaml:3: scripts\.1\.name: "same" is loaded twice here/,
    ],
  ];
  const files: Record<string, string> = {
    'bad regular expression': 're.yaml',
    'unknown tool': 'tl.yaml',
    'unknown step': 'st.yaml',
    'unknown field of a step': 'sf.yaml',
    'unknown field of the script': 'uf.yaml',
    'a wrong value of a known step': 'wv.yaml',
    'not YAML': 'ny.yaml',
    'a name twice in one file': 'tw.yaml',
    'an unknown key whose value starts on the next line: the line of the key': 'uk.yaml',
    'a misspelt then: the misspelling, not the missing then': 'ms.yaml',
  };
  for (const [what, text, message] of cases)
    it(`${what}: the start fails with ESCRIPT naming the file and line`, async () => {
      const f = write(files[what]!, text);
      const e = await startWith(f).then(
        (x) => {
          emu = x;
          return null;
        },
        (err: unknown) => err as { code?: string; message: string },
      );
      expect(e?.code).toBe('ESCRIPT');
      expect(e?.message).toMatch(message);
      expect(e?.message.startsWith(f)).toBe(true);
    });

  it('a tool of the script, a built-in tool and a tool of a registered MCP server are known', async () => {
    const mcp = await startMcpServer();
    try {
      const seed = write(
        'mcp-seed.yaml',
        `default_workspace:\n  mcp_servers:\n    - name: orders\n      url: ${mcp.url}\n`,
      );
      const f = write(
        'known.yaml',
        'name: known\ntools: [lookup_order]\nrules:\n  - then:\n      - tool: lookup_order\n      - tool: generate_image\n        args: { prompt: a kite }\n',
      );
      const g = write(
        'mcp-tool.yaml',
        `name: viamcp\nrules:\n  - then:\n      - tool: get_weather\n`,
      );
      emu = await startEmulator({
        port: 0,
        inMemory: true,
        boxes: 0,
        seed,
        scripts: [f, g],
        allowInsecureUrls: true,
      });
      const r = await fetch(`${emu.baseUrl}/_emulator/scripts`, operatorInit(emu));
      expect(((await r.json()) as { data: { name: string }[] }).data.map((s) => s.name)).toEqual([
        'known',
        'viamcp',
      ]);
    } finally {
      await mcp.close();
    }
  });
});

describe('choice at mint, as the box reads it (GET /_internal/boxes/{box}/sessions/{id}/script)', () => {
  const h = useEmulator({ boxes: 0 });
  let box: { box_id: string; secret: string };
  beforeAll(async () => {
    box = await fakeBox(h);
  });
  const scriptOf = async (body: Record<string, unknown>) => {
    const m = await h.api('/api/v1/sessions', { body });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
    const r = await fetch(
      `${h.baseUrl}/_internal/boxes/${box.box_id}/sessions/${m.body.session_id}/script`,
      { headers: { authorization: `Bearer ${box.secret}` } },
    );
    expect(r.status).toBe(200);
    const s = (await r.json()) as { script: { name: string; rules: unknown[] } | null };
    // Free the seat: the plan allows a few live sessions, and these never connect.
    const rel = await h.api(`/api/v1/sessions/${m.body.session_id}/release`, {
      body: { seat_token: m.body.seat_token },
    });
    expect(rel.status).toBe(200);
    return { id: m.body.session_id as string, name: s.script?.name ?? null, script: s.script };
  };
  const load = async (body: unknown) => expect((await post(h, body)).status).toBe(200);
  const reset = () => h.op('/_emulator/scripts', { method: 'DELETE' });

  it('no script loaded: null; an empty match applies to every session', async () => {
    await reset();
    expect((await scriptOf({ persona: 'ava' })).name).toBeNull();
    await load({ name: 'everyone', rules: [{ when: { turn: 0 }, then: [{ say: 'first' }] }] });
    const s = await scriptOf({ persona: 'leo' });
    expect(s.name).toBe('everyone');
    // The whole script, defaults applied, as the box runs it.
    expect(s.script).toEqual({
      name: 'everyone',
      match: {},
      strict: false,
      tools: [],
      rules: [{ when: { turn: 0 }, then: [{ say: 'first' }] }],
    });
  });

  it('by persona, by avatar_id, by metadata: only the sessions the match holds for', async () => {
    await reset();
    await load({
      scripts: [
        { name: 'leo-only', match: { persona: 'leo' } },
        { name: 'mei-avatar', match: { avatar_id: stockAvatarId('mei') } },
        { name: 'checkout', match: { metadata: { script: 'checkout', tier: 2 } } },
      ],
    });
    expect((await scriptOf({ persona: 'leo' })).name).toBe('leo-only');
    expect((await scriptOf({ persona: 'mei' })).name).toBe('mei-avatar');
    expect((await scriptOf({ persona: 'ava' })).name).toBeNull();
    expect(
      (await scriptOf({ persona: 'ava', metadata: { script: 'checkout', tier: 2, x: 1 } })).name,
    ).toBe('checkout');
    // Every metadata key must be equal (2 is not "2"; a missing key does not hold).
    expect(
      (await scriptOf({ persona: 'ava', metadata: { script: 'checkout', tier: '2' } })).name,
    ).toBeNull();
    expect((await scriptOf({ persona: 'ava', metadata: { script: 'checkout' } })).name).toBeNull();
  });

  it('the most specific match wins; ties go to the one loaded last', async () => {
    await reset();
    await load({
      scripts: [
        { name: 'any' },
        { name: 'ava-and-demo', match: { persona: 'ava', metadata: { script: 'demo' } } },
        { name: 'ava', match: { persona: 'ava' } },
      ],
    });
    expect((await scriptOf({ persona: 'ava', metadata: { script: 'demo' } })).name).toBe(
      'ava-and-demo',
    );
    expect((await scriptOf({ persona: 'ava' })).name).toBe('ava');
    expect((await scriptOf({ persona: 'sam' })).name).toBe('any');
    // A tie (one condition each): the later load wins, whichever condition it names.
    await load({ name: 'ava-avatar', match: { avatar_id: stockAvatarId('ava') } });
    expect((await scriptOf({ persona: 'ava' })).name).toBe('ava-avatar');
    // Loading `ava` again makes it the latest: it wins the tie now.
    await load({ name: 'ava', match: { persona: 'ava' } });
    expect((await scriptOf({ persona: 'ava' })).name).toBe('ava');
  });

  it('frozen at mint: a later load or clear does not change a session; a failed load changes nothing', async () => {
    await reset();
    await load({ name: 'v1', rules: [{ then: [{ say: 'one' }] }] });
    const s = await scriptOf({ persona: 'ava' });
    await load({ name: 'v1', rules: [{ then: [{ say: 'two' }] }] });
    const read = async (id: string) =>
      (
        (await (
          await fetch(`${h.baseUrl}/_internal/boxes/${box.box_id}/sessions/${id}/script`, {
            headers: { authorization: `Bearer ${box.secret}` },
          })
        ).json()) as { script: { rules: { then: { say: string }[] }[] } | null }
      ).script;
    expect((await read(s.id))!.rules[0]!.then[0]!.say).toBe('one');
    expect((await scriptOf({ persona: 'ava' })).script!.rules).toEqual([
      { when: {}, then: [{ say: 'two' }] },
    ]);
    // A load with a bad script: v1 is still the one new sessions get.
    const bad = await post(h, {
      scripts: [
        { name: 'v1', rules: [{ then: [{ say: 'three' }] }] },
        { name: 'x', rules: [{ then: [{ tool: 'nope' }] }] },
      ],
    });
    expect(bad.status).toBe(400);
    expect((await scriptOf({ persona: 'ava' })).script!.rules[0]).toEqual({
      when: {},
      then: [{ say: 'two' }],
    });
    await reset();
    expect((await read(s.id))!.rules[0]!.then[0]!.say).toBe('one');
    expect((await scriptOf({ persona: 'ava' })).name).toBeNull();
  });

  it('another box, or no secret, cannot read a session script', async () => {
    const s = await scriptOf({ persona: 'ava' });
    const r = await fetch(`${h.baseUrl}/_internal/boxes/${box.box_id}/sessions/${s.id}/script`);
    expect(r.status).toBe(401);
    const other = await fakeBox(h);
    const o = await fetch(`${h.baseUrl}/_internal/boxes/${other.box_id}/sessions/${s.id}/script`, {
      headers: { authorization: `Bearer ${other.secret}` },
    });
    expect(o.status).toBe(404);
  });
});

describe('scripts at start: the seed and --script', () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.stop();
    emu = undefined;
  });
  const listed = async (e: RunningEmulator) =>
    (
      (await (await fetch(`${e.baseUrl}/_emulator/scripts`, operatorInit(e))).json()) as {
        data: { name: string; source: string; rules: number }[];
      }
    ).data;

  it("the seed's scripts (inline and files relative to the seed), then --script files; a later name replaces", async () => {
    const sub = mkdtempSync(join(dir, 'seed-'));
    writeFileSync(join(sub, 'greet.yaml'), 'name: greet\nrules:\n  - then: [{ say: hello }]\n');
    const seed = join(sub, 'seed.yaml');
    writeFileSync(
      seed,
      'scripts:\n  - greet.yaml\n  - name: inline\n    strict: true\n    rules:\n      - when: { text: "^bye" }\n        then: [{ end: "said bye" }]\n',
    );
    const cli = write(
      'cli.json',
      JSON.stringify({ scripts: [{ name: 'greet', rules: [] }, { name: 'cli' }] }),
    );
    emu = await startEmulator({ port: 0, inMemory: true, boxes: 0, seed, scripts: [cli] });
    expect((await listed(emu)).map((s) => [s.name, s.source, s.rules])).toEqual([
      ['inline', `seed ${seed}`, 1],
      ['greet', cli, 0],
      ['cli', cli, 0],
    ]);
  });

  it('a bad inline script in the seed names the seed file and line', async () => {
    const seed = write(
      'bad-seed.yaml',
      'scripts:\n  - name: ok\n  - name: broken\n    rules:\n      - then:\n          - wait: 10\n',
    );
    await expect(startEmulator({ port: 0, inMemory: true, boxes: 0, seed })).rejects.toThrow(
      /bad-seed\.yaml:6: scripts\.1\.rules\.0\.then\.0\.wait: unknown step/,
    );
  });

  it('an unknown field of an inline seed script is named as a script field', async () => {
    const seed = write('field-seed.yaml', 'scripts:\n  - name: ok\n    strcit: true\n');
    await expect(startEmulator({ port: 0, inMemory: true, boxes: 0, seed })).rejects.toThrow(
      /field-seed\.yaml:3: scripts\.0\.strcit: is not a script field/,
    );
  });

  it('a bad script file named by the seed names that file; a missing one says so', async () => {
    write('bad-child.yaml', 'name: c\nrules:\n  - when: { turn: -1 }\n    then: [{ say: x }]\n');
    const seed = write('child-seed.yaml', 'scripts:\n  - bad-child.yaml\n');
    await expect(startEmulator({ port: 0, inMemory: true, boxes: 0, seed })).rejects.toThrow(
      /bad-child\.yaml:3: rules\.0\.when\.turn: /,
    );
    await expect(
      startEmulator({ port: 0, inMemory: true, boxes: 0, scripts: [join(dir, 'absent.yaml')] }),
    ).rejects.toThrow(/absent\.yaml: cannot read the script file/);
  });

  it('seed scripts load at every start, also on a data dir that already has state', async () => {
    const data = mkdtempSync(join(dir, 'data-'));
    const seed = write('again.yaml', 'scripts:\n  - name: again\n');
    emu = await startEmulator({ port: 0, dataDir: data, boxes: 0, seed });
    await fetch(`${emu.baseUrl}/_emulator/scripts`, operatorInit(emu, { method: 'DELETE' }));
    await emu.stop();
    emu = await startEmulator({ port: 0, dataDir: data, boxes: 0, seed });
    expect((await listed(emu)).map((s) => s.name)).toEqual(['again']);
  });
});

describe('the published JSON Schema', () => {
  it('schemas/script.schema.json is the contract (one script, or { scripts: [...] })', () => {
    const published = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'schemas', 'script.schema.json'), 'utf8'),
    ) as unknown;
    expect(published, 'regenerate it: npm run build && npm run schema:script').toEqual(
      scriptJsonSchema(),
    );
  });
});

describe('sessions replay FILE --to-script OUT (the conversion)', () => {
  const h = useEmulator({ boxes: 0 });
  /** A typed session as `sessions live --save-session` writes it, with a picture drawn on turn 1. */
  const recording = {
    format: 'avatar-session/1',
    mint: {
      persona: 'ava',
      metadata: { script: 'demo', nested: { no: 1 } },
      config: { render: false },
      tools: { servers: ['svc.image'], inline: [{ name: 'check_stock', fast: true }] },
    },
    protocol: 1,
    lang: 'en',
    mic: null,
    typed: [
      { t: 0.5, text: 'Hi there.' },
      { t: 3, text: 'Draw me a lighthouse.' },
      { t: 6, text: 'Is the kettle in stock?' },
    ],
    events: [
      { t: 0.6, event: 'turn', seq: 1, text: 'Hi there.', reply: 'Hello! Nice to see you.' },
      { t: 3.2, event: 'turn', seq: 2, text: 'Draw me a lighthouse.', reply: 'Let me draw that.' },
      { t: 3.3, event: 'agent_event', kind: 'calling', tool: 'generate_image', call_id: 'call_1' },
      {
        t: 4,
        event: 'agent_event',
        kind: 'image',
        tool: 'generate_image',
        call_id: 'call_1',
        url: 'http://x/_box/images/a.png',
        caption: 'a lighthouse at dusk',
      },
      { t: 4.1, event: 'turn', seq: 3, text: '', reply: 'Here it is: a lighthouse at dusk.' },
      { t: 6.1, event: 'agent_event', kind: 'calling', tool: 'check_stock', call_id: 'call_2' },
      {
        t: 6.5,
        event: 'turn',
        seq: 4,
        text: 'Is the kettle in stock?',
        reply: 'Yes, two are left.',
      },
    ],
    transcript: [
      { event: 'said', text: 'Hi there.' },
      { event: 'turn', text: 'Hi there.', reply: 'Hello! Nice to see you.' },
      { event: 'said', text: 'Draw me a lighthouse.' },
      { event: 'turn', text: 'Draw me a lighthouse.', reply: 'Let me draw that.' },
      { event: 'said', text: 'Is the kettle in stock?' },
      // A slow tool's call recorded after the next typed line: still the drawing turn's.
      { event: 'agent_event', kind: 'calling', tool: 'generate_image' },
      // A fast tool is called before its own turn's reply.
      { event: 'agent_event', kind: 'calling', tool: 'check_stock' },
      { event: 'agent_event', kind: 'image', tool: 'generate_image' },
      { event: 'turn', text: '', reply: 'Here it is: a lighthouse at dusk.' },
      { event: 'turn', text: 'Is the kettle in stock?', reply: 'Yes, two are left.' },
    ],
  };
  const expected = {
    name: 'demo-talk',
    match: { persona: 'ava', metadata: { script: 'demo' } },
    strict: true,
    tools: ['check_stock'],
    rules: [
      { when: { turn: 0 }, then: [{ say: 'Hello! Nice to see you.' }] },
      {
        when: { turn: 1 },
        then: [
          { say: 'Let me draw that.' },
          { tool: 'generate_image', args: { prompt: 'a lighthouse at dusk' } },
          { say: 'Here it is: a lighthouse at dusk.' },
        ],
      },
      {
        when: { turn: 2 },
        then: [{ say: 'Yes, two are left.' }, { tool: 'check_stock', args: {} }],
      },
    ],
  };
  const env = () =>
    isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });

  it('a rule per user turn: its reply, its tool calls (a picture’s prompt from its caption), later lines; strict; matched as recorded', async () => {
    const rec = write('demo talk.json', JSON.stringify(recording));
    for (const out of ['demo-talk.yaml', 'demo-talk.json']) {
      const r = await cli(
        ['--json', 'sessions', 'replay', rec, '--to-script', join(dir, out)],
        env(),
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ name: 'demo-talk', rules: 3, tool_steps: 2 });
      const text = readFileSync(join(dir, out), 'utf8');
      const parsed = out.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
      expect(parsed).toEqual(expected);
    }
    // What it wrote loads as it is (check_stock is in its tools: a hook tool of the mint).
    const load = await cli(
      ['--json', 'emulator', 'scripts', 'load', join(dir, 'demo-talk.yaml')],
      env(),
    );
    expect(load.code, load.stderr).toBe(0);
    expect(load.json().loaded).toEqual(['demo-talk']);
  });

  it('a file that is not a saved session is a usage error, and nothing is written', async () => {
    const bad = write('not-a-session.json', '{"format":"other"}');
    const r = await cli(['sessions', 'replay', bad, '--to-script', join(dir, 'never.yaml')], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a saved session/);
    expect(() => readFileSync(join(dir, 'never.yaml'))).toThrow();
  });
});
