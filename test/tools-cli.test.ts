import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../src/cli/main.js';
import { readSessionTools } from '../src/emulator/tools/gateway.js';
import { toolGateway } from '../src/emulator/tools/gateway-routes.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { startMcpServer } from './helpers/mcp-server.js';

/** avatar mcp ..., avatar builtins ..., avatar hooks serve (a real hook the gateway calls). */
const h = useEmulator({ seats: 4, allowInsecureUrls: true, mintRatePerMinute: 0 });
let mcp: Awaited<ReturnType<typeof startMcpServer>>;
beforeAll(async () => {
  mcp = await startMcpServer();
});
afterAll(() => mcp.close());
const env = () => emulatorEnv(h);

describe('avatar mcp and avatar builtins', () => {
  it('add (live probe), list, get, refresh, disable, rm', async () => {
    const add = await cli(['mcp', 'add', '--name', 'weather', '--url', mcp.url, '--json'], env());
    expect(add.code).toBe(0);
    const s = add.json();
    expect(s).toMatchObject({ name: 'weather', status: 'active' });
    const list = await cli(['mcp', 'list', '--json'], env());
    expect(list.json().data.map((x: { id: string }) => x.id)).toContain(s.id);
    expect((await cli(['mcp', 'refresh', s.id, '--json'], env())).json().status).toBe('active');
    const off = await cli(['mcp', 'disable', s.id], env());
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(`${s.id}  weather  disabled  get_weather, lookup_order`);
    expect((await cli(['mcp', 'rm', s.id], env())).code).toBe(0);
    const gone = await cli(['mcp', 'get', s.id], env());
    expect(gone.code).not.toBe(0);
  });

  it('builtins enable, list, disable; an unknown key is builtin_server_not_found', async () => {
    const on = await cli(['builtins', 'enable', 'svc.image'], env());
    expect(on.stdout).toContain('svc.image  enabled  generate_image, edit_avatar');
    expect((await cli(['builtins', 'list', '--json'], env())).json().data[0]).toMatchObject({
      key: 'svc.image',
      enabled: true,
    });
    expect((await cli(['builtins', 'disable', 'svc.image'], env())).stdout).toContain(
      'svc.image  disabled',
    );
    const bad = await cli(['builtins', 'enable', 'svc.nope'], env());
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('builtin_server_not_found');
  });
});

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

describe('avatar hooks serve', () => {
  const stdout = new Collect();
  const stderr = new Collect();
  const before = new Set(process.listeners('SIGINT'));
  let done: Promise<number> | undefined;
  afterAll(async () => {
    for (const l of process.listeners('SIGINT'))
      if (!before.has(l)) (l as (s: string) => void)('SIGINT');
    if (done) expect(await done).toBe(0);
  });

  it('checks the bearer, answers tool calls from a JSON handler file, and prints every op', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hooks-serve-'));
    writeFileSync(
      join(dir, 'tools.json'),
      JSON.stringify({ lookup_order: { kind: 'tool', text: 'It ships tomorrow.' } }),
    );
    done = run(
      [
        'hooks',
        'serve',
        '--tok',
        'hook-secret',
        '--handler',
        join(dir, 'tools.json'),
        '--turn-seq-base',
        '7',
        '--json',
      ],
      { stdout, stderr, env: env(), cwd: dir },
    );
    await vi.waitFor(() => expect(stderr.text).toMatch(/hook listening on (http:\S+)/));
    const url = /hook listening on (http:\S+)/.exec(stderr.text)![1]!;
    // a wrong bearer is refused
    const wrong = await fetch(url, {
      method: 'POST',
      headers: { authorization: 'Bearer nope' },
      body: '{"op":"tool_call"}',
    });
    expect(wrong.status).toBe(401);
    const m = await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        agent: { hook: url, tok: 'hook-secret', conv: 'c1' },
        tools: {
          inline: [
            {
              name: 'lookup_order',
              description: 'Look up an order',
              input_schema: { type: 'object' },
            },
            { name: 'other', description: 'Other', input_schema: { type: 'object' } },
          ],
        },
      },
    });
    const s = readSessionTools(h.emu.ctx, m.body.session_id)!;
    const gw = toolGateway(h.emu.ctx);
    const ok = JSON.parse(
      await gw.call(s, {
        call_id: 'c-1',
        idem: 'i-1',
        tool: 'lookup_order',
        args: { id: 'A' },
        history: [],
      }),
    );
    expect(ok).toEqual({
      ok: true,
      status: 'done',
      result: { kind: 'tool', text: 'It ships tomorrow.' },
    });
    const miss = JSON.parse(
      await gw.call(s, { call_id: 'c-2', idem: 'i-2', tool: 'other', args: {}, history: [] }),
    );
    expect(miss).toMatchObject({
      ok: false,
      error: 'tool_error',
      message: 'no handler for tool other',
    });
    expect(await gw.hookOp(s, 'session_start', {})).toEqual({ ok: true, turn_seq_base: 7 });
    const lines = stdout.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ refused: 'bad_bearer' });
    expect(lines[1]).toMatchObject({
      op: 'tool_call',
      conv: 'c1',
      tool: 'lookup_order',
      args: { id: 'A' },
      answer: { ok: true },
    });
    expect(lines[2]).toMatchObject({ op: 'tool_call', tool: 'other', answer: { ok: false } });
    expect(lines[3]).toMatchObject({ op: 'session_start', answer: { ok: true, turn_seq_base: 7 } });
  });
});

describe('tool events in sessions live and sessions transcript', () => {
  it('sessions live --json carries the calling event; the transcript lists the ledger', async () => {
    await cli(['builtins', 'enable', 'svc.image'], env());
    const r = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--tools',
        '{"servers":["svc.image"]}',
        '--config',
        '{"render":false,"greeting_enabled":false}',
        '--say',
        'Please draw a picture of a small boat',
        'Thank you, that is lovely',
        '--turns',
        '2',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.event === 'agent_event')).toMatchObject({
      kind: 'calling',
      tool: 'generate_image',
      call_id: expect.any(String),
    });
    const sid = lines.find((l) => typeof l.session_id === 'string')?.session_id as string;
    // The picture is made after the session ended here (two quick turns): the box still reports it to the ledger.
    await vi.waitFor(
      async () =>
        expect((await cli(['sessions', 'transcript', sid], env())).stdout).toMatch(
          /tool:\s+generate_image \(builtin\) ok/,
        ),
      { timeout: 10_000 },
    );
  });

  it('the line view shows the tool event', async () => {
    const r = await cli(
      [
        'sessions',
        'live',
        '--persona',
        'ava',
        '--tools',
        '{"servers":["svc.image"]}',
        '--config',
        '{"render":false,"greeting_enabled":false}',
        '--say',
        'Please draw a picture of a red kite',
        'Thanks',
        '--turns',
        '2',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/generate_image: calling/);
  });
});
