import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../src/emulator/options.js';
import { cli, isolatedEnv } from './helpers/cli.js';
import { openSock, wsUrl, type Sock } from './helpers/edge.js';
import { useEmulator, type EmulatorHandle } from './helpers/emulator.js';
import { sseChat, startOpenAIStub, type OpenAIStub } from './helpers/openai-stub.js';

/**
 * Issue 29 item 1, end to end: a conversation script loaded into a real emulator answers
 * typed turns (POST /chat) in live sessions, over v1 (rendered), v2 (rendered) and
 * brain-only: a `say` rule's line is the turn's reply (the `turn` message and the
 * transcript), a `tool` step fires `calling` and delivers the tool's result, strict mode
 * answers an unmatched turn "[no script rule for: ...]", a turn no rule matches in a
 * script that is not strict falls through to the brain. And the `--to-script` round trip:
 * a session recorded against a stub upstream model (--llm-url), converted, replays against
 * an emulator with no model to the same transcript.
 */
const h = useEmulator({ boxes: 1, seats: 6, mintRatePerMinute: 0 });

/** Each test picks its script by the mint's metadata (`script`), so they never meet. */
const SCRIPTS = {
  scripts: [
    {
      name: 'hours',
      match: { metadata: { script: 'hours' } },
      rules: [
        { when: { text: 'opening hours' }, then: [{ say: 'We open at nine and close at five.' }] },
      ],
    },
    {
      name: 'kite',
      match: { metadata: { script: 'kite' } },
      rules: [
        {
          when: { text: '\\bkite\\b' },
          then: [
            { say: 'Drawing it now.' },
            { tool: 'generate_image', args: { prompt: 'a red kite' } },
          ],
        },
      ],
    },
    {
      name: 'strict',
      match: { metadata: { script: 'strict' } },
      strict: true,
      rules: [{ when: { text: '^hello' }, then: [{ say: 'Hello from the script.' }] }],
    },
    {
      name: 'by-turn',
      match: { metadata: { script: 'by-turn' } },
      rules: [{ when: { turn: 1 }, then: [{ say: 'This is your second turn.' }] }],
    },
  ],
};

beforeAll(async () => {
  const r = await h.op('/_emulator/scripts', { method: 'POST', body: JSON.stringify(SCRIPTS) });
  expect(r.status, await r.clone().text()).toBe(200);
  await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/builtin-servers/svc.image`, {
    method: 'PUT',
    body: { enabled: true },
  });
});

interface Mode {
  name: string;
  protocol: 1 | 2;
  render: boolean;
}
const MODES: Mode[] = [
  { name: 'v1', protocol: 1, render: true },
  { name: 'v2', protocol: 2, render: true },
  { name: 'brain-only', protocol: 1, render: false },
];

/** A live session of the mode, its script chosen by `script`: typed turns in, messages out. */
async function live(
  h2: EmulatorHandle,
  mode: Mode,
  script: string,
  extra: Record<string, unknown> = {},
) {
  const m = await h2.api('/api/v1/sessions', {
    body: {
      persona: 'ava',
      metadata: { script },
      config: { greeting_enabled: false, render: mode.render },
      ...(mode.protocol === 2 ? { protocol_versions: [2] } : {}),
      ...extra,
    },
  });
  expect(m.status, JSON.stringify(m.body)).toBe(201);
  const s = m.body as { session_id: string; session_token: string; connect_url: string };
  const socks: Sock[] = [];
  let events: Sock;
  if (mode.protocol === 2) {
    events = await openSock(wsUrl(s.connect_url, '/v2/session', s.session_token), {
      protocols: ['svc.avatar.v2'],
    });
    socks.push(events);
  } else {
    // Rendered: the media socket too, so the replies are spoken and paced as a player hears them.
    if (mode.render) socks.push(await openSock(wsUrl(s.connect_url, '/mse', s.session_token)));
    events = await openSock(wsUrl(s.connect_url, '/events', s.session_token));
    socks.push(events);
  }
  return {
    id: s.session_id,
    events,
    async say(text: string): Promise<string> {
      const r = await fetch(`${s.connect_url}/chat?token=${s.session_token}`, {
        method: 'POST',
        body: JSON.stringify({ text }),
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { speech_id: string }).speech_id;
    },
    turn: (speechId: string) =>
      events.next((x) => x.type === 'turn' && x.speech_id === speechId, 60_000),
    close: () => socks.forEach((x) => x.close()),
  };
}

const transcript = async (id: string) =>
  (await h.api(`/api/v1/sessions/${id}/transcript`)).body as {
    turns: { user_text: string; reply_text: string }[];
  };

describe.each(MODES)('a conversation script in a live session ($name)', (mode) => {
  it('a say rule answers with its line: the turn message and the transcript', async () => {
    const s = await live(h, mode, 'hours');
    const id = await s.say('What are your opening hours?');
    expect(await s.turn(id)).toMatchObject({
      text: 'What are your opening hours?',
      reply: 'We open at nine and close at five.',
    });
    const t = await transcript(s.id);
    expect(t.turns).toContainEqual(
      expect.objectContaining({
        user_text: 'What are your opening hours?',
        reply_text: 'We open at nine and close at five.',
      }),
    );
    s.close();
  }, 90_000);

  it('a tool step fires calling, the tool runs, and its result comes (the picture, then a line)', async () => {
    const s = await live(h, mode, 'kite', { tools: { servers: ['svc.image'] } });
    const id = await s.say('Can you show me a kite?');
    expect(await s.turn(id)).toMatchObject({
      text: 'Can you show me a kite?',
      reply: 'Drawing it now.',
    });
    const calling = await s.events.next(
      (x) => x.type === 'agent_event' && x.kind === 'calling',
      60_000,
    );
    expect(calling).toMatchObject({ kind: 'calling', tool: 'generate_image' });
    const image = await s.events.next(
      (x) => x.type === 'agent_event' && x.kind === 'image',
      60_000,
    );
    expect(image).toMatchObject({
      tool: 'generate_image',
      call_id: calling.call_id,
      caption: 'a red kite',
    });
    // The follow-up: an avatar line (no user text) about the result.
    const follow = await s.events.next(
      (x) => x.type === 'turn' && x.speech_id !== id && x.text === '' && !x.greeting,
      60_000,
    );
    expect(follow.reply).toMatch(/red kite/);
    s.close();
  }, 90_000);

  it('strict: a turn no rule matches is answered "[no script rule for: ...]"; a matched one by its rule', async () => {
    const s = await live(h, mode, 'strict');
    const a = await s.say('Tell me a joke about ships.');
    expect((await s.turn(a)).reply).toBe('[no script rule for: Tell me a joke about ships.]');
    const b = await s.say('Hello, is anyone there?');
    expect((await s.turn(b)).reply).toBe('Hello from the script.');
    s.close();
  }, 90_000);

  it('not strict: an unmatched turn falls through to the brain; when.turn picks the second turn', async () => {
    const s = await live(h, mode, 'by-turn');
    const a = await s.say('Where do you live?');
    const first = await s.turn(a);
    expect(first.reply).not.toMatch(/no script rule|second turn/);
    expect(first.reply.length).toBeGreaterThan(0);
    const b = await s.say('Where do you live?');
    expect((await s.turn(b)).reply).toBe('This is your second turn.');
    s.close();
  }, 90_000);
});

describe('sessions replay --to-script: record against a model, replay with none', () => {
  let stub: OpenAIStub;
  /** The stub model's line for each user line (what a real model would have said). */
  const LINES: Record<string, string> = {
    'Hello there.': 'Hi! I am the stub model, pleased to meet you.',
    'What is two plus two?': 'Two plus two is four, says the stub.',
  };
  beforeAll(async () => {
    stub = await startOpenAIStub();
    stub.handler = async (r, res) => {
      const body = JSON.parse(r.body.toString()) as {
        messages: { role: string; content: string }[];
      };
      const last = [...body.messages].reverse().find((x) => x.role === 'user')?.content ?? '';
      await sseChat(res, [LINES[last] ?? `The stub heard: ${last}`]);
    };
  });
  afterAll(async () => {
    await stub.close();
  });
  const withModel = useEmulator({
    boxes: 1,
    seats: 2,
    mintRatePerMinute: 0,
    get llmUrl() {
      return stub.url;
    },
  } as Partial<EmulatorOptions>);
  const noModel = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
  const envOf = (e: EmulatorHandle) =>
    isolatedEnv({
      AVATAR_BASE_URL: e.baseUrl,
      AVATAR_API_KEY: e.emu.keys.secretKey,
      AVATAR_WORKSPACE_ID: e.emu.keys.workspaceId,
    });

  it('the converted script makes the emulator answer exactly as the recording did', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-to-script-'));
    const rec = join(dir, 'model-talk.json');
    const out = join(dir, 'model-talk.yaml');
    const recorded = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--config',
        '{"greeting_enabled":false,"render":false}',
        '--say',
        'Hello there.',
        'What is two plus two?',
        '--turns',
        '2',
        '--save-session',
        rec,
      ],
      envOf(withModel),
    );
    expect(recorded.code, recorded.stderr).toBe(0);
    const file = JSON.parse(readFileSync(rec, 'utf8')) as { transcript: { reply?: string }[] };
    // The model answered (not the local brain).
    expect(file.transcript.map((e) => e.reply).filter(Boolean)).toEqual(Object.values(LINES));

    const conv = await cli(
      ['--json', 'sessions', 'replay', rec, '--to-script', out],
      envOf(noModel),
    );
    expect(conv.code, conv.stderr).toBe(0);
    const load = await cli(['--json', 'emulator', 'scripts', 'load', out], envOf(noModel));
    expect(load.code, load.stderr).toBe(0);

    const replay = await cli(['--json', 'sessions', 'replay', rec], envOf(noModel));
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.json()).toMatchObject({ same: true, differences: [] });
    expect(JSON.stringify(replay.json().transcript)).toBe(JSON.stringify(file.transcript));
  }, 180_000);
});
