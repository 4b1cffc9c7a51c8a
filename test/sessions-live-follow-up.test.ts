import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coverLinesOf,
  FOLLOW_UP_WAIT_MS,
  FollowUps,
  type Settled,
} from '../src/cli/live/follow-ups.js';
import { LiveRunner } from '../src/cli/live/live-runner.js';
import { textLine, type Stamped } from '../src/cli/live/live-log.js';
import { run } from '../src/cli/main.js';
import { defaultVoice, writeWav } from '../src/models/voice/index.js';
import { isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { checkStockTool, startHookServer } from './helpers/hook-server.js';

/**
 * Issue 29 item 4: `sessions live --say` keeps a tool's follow-up line. The next typed line
 * goes only once the line a tool call owes has been spoken (or the call failed, or the wait
 * ran out); `--json` labels that line an avatar line, not the greeting.
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0, allowInsecureUrls: true });
let hook: Awaited<ReturnType<typeof startHookServer>>;
afterAll(() => hook.close());
beforeAll(async () => {
  hook = await startHookServer();
  await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/builtin-servers/svc.image`, {
    method: 'PUT',
    body: { enabled: true },
  });
});

type Ev = Record<string, any>;

/** `sessions live --json ...args`: the NDJSON records and the exit code. */
async function live(args: string[]): Promise<{ code: number; events: Ev[]; err: string }> {
  let out = '';
  let err = '';
  const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
  const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
  const code = await run(
    ['--json', 'sessions', 'live', '--persona', 'ava', '--no-mic', '--no-play', ...args],
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr,
      env: isolatedEnv({
        AVATAR_BASE_URL: h.baseUrl,
        AVATAR_API_KEY: h.emu.keys.secretKey,
        AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId,
      }),
    },
  );
  const events = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Ev);
  return { code, events, err };
}

const turns = (events: Ev[]) => events.filter((e) => e.event === 'turn');
const said = (events: Ev[], text: string) =>
  events.findIndex((e) => e.event === 'said' && e.text === text);

/**
 * `--say FIRST Thanks --turns 2` with these mint flags and no greeting (what is checked is the
 * follow-up, not a greeting's race with the first line); it must end well.
 */
async function sayThenThanks(first: string, mint: string[]): Promise<Ev[]> {
  const r = await live([
    ...mint,
    '--config',
    '{"greeting_enabled":false}',
    '--say',
    first,
    'Thanks',
    '--turns',
    '2',
  ]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return r.events;
}

describe('sessions live --say with a tool call (the README example)', () => {
  it('the picture follow-up line is heard before "Thanks" is sent, labelled an avatar line', async () => {
    const ev = await sayThenThanks('Please draw a picture of a red kite', [
      '--tools',
      '{"servers":["svc.image"]}',
    ]);
    const followUp = ev.findIndex(
      (e) => e.event === 'turn' && e.reply === 'Here is the picture: a red kite.',
    );
    expect(followUp, JSON.stringify(turns(ev))).toBeGreaterThan(0);
    // spoken whole (its media closed) before the next line went
    const spoken = ev.findIndex(
      (e, i) => i > followUp && e.event === 'reply_media' && e.seq === ev[followUp]!.seq,
    );
    expect(ev[spoken]).toMatchObject({ spoken: true, avatar_line: true });
    expect(spoken).toBeLessThan(said(ev, 'Thanks'));
    expect(ev.some((e) => e.event === 'notice' && /cut short/.test(e.message))).toBe(false);
    // the follow-up is the avatar's own line for that call, not a greeting
    const calling = ev.find((e) => e.event === 'agent_event' && e.kind === 'calling');
    expect(calling).toMatchObject({ tool: 'generate_image' });
    expect(turns(ev).map((e) => [e.text, !!e.greeting, !!e.avatar_line])).toEqual([
      ['Please draw a picture of a red kite', false, false],
      ['', false, true],
      ['Thanks', false, false],
    ]);
    expect(ev[followUp]!.tool_line).toEqual({
      kind: 'follow_up',
      tool: 'generate_image',
      call_id: calling!.call_id,
    });
    // two turns asked: the avatar line is not counted as one of them
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done', turns: 2 });
  }, 60_000);
});

describe('sessions live --say with a tool call, brain-only', () => {
  it('the next line waits for the follow-up there too (a reply is over when its text is here, the call is announced just after)', async () => {
    const r = await live([
      '--tools',
      '{"servers":["svc.image"]}',
      '--config',
      '{"greeting_enabled":false,"render":false}',
      '--say',
      'Please draw a picture of a red kite',
      'Thanks',
      '--turns',
      '2',
    ]);
    expect(r.code, r.err).toBe(0);
    const ev = r.events;
    const followUp = ev.findIndex(
      (e) => e.event === 'turn' && e.reply === 'Here is the picture: a red kite.',
    );
    expect(followUp, JSON.stringify(turns(ev))).toBeGreaterThan(0);
    expect(followUp).toBeLessThan(said(ev, 'Thanks'));
    expect(ev[followUp]).toMatchObject({ avatar_line: true, tool_line: { kind: 'follow_up' } });
    expect(ev.some((e) => e.event === 'notice' && /within 35 s/.test(e.message))).toBe(false);
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done', turns: 2 });
  }, 60_000);
});

describe('sessions live --mic-file with a tool call', () => {
  it("a file's next question waits for the picture's follow-up line: one utterance at a time", async () => {
    const voice = defaultVoice();
    const ask = await voice.synthesize('Please generate an image of a boat.');
    const thanks = await voice.synthesize('Thank you very much.');
    // With the voice's own quiet at each end, about 0.75 s between the questions: longer than
    // the edge's 700 ms hangover, shorter than it takes to answer the first, so a file streamed
    // straight on would have its second question heard before the follow-up line.
    const gap = new Int16Array(ask.sampleRate * 0.35);
    const samples = new Int16Array(ask.samples.length + gap.length + thanks.samples.length);
    samples.set(ask.samples);
    samples.set(thanks.samples, ask.samples.length + gap.length);
    const file = join(mkdtempSync(join(tmpdir(), 'avatar-follow-up-')), 'two.wav');
    writeFileSync(file, writeWav(samples, ask.sampleRate));
    const r = await live([
      '--tools',
      '{"servers":["svc.image"]}',
      '--config',
      '{"greeting_enabled":false}',
      '--mic-file',
      file,
      '--turns',
      '2',
    ]);
    expect(r.code, r.err).toBe(0);
    const ev = r.events;
    const t = turns(ev);
    const user = t.filter((e) => e.text !== '');
    expect(user, JSON.stringify(t)).toHaveLength(2);
    expect(ev.find((e) => e.event === 'agent_event' && e.kind === 'calling')).toMatchObject({
      tool: 'generate_image',
    });
    // The follow-up line is spoken whole before the file's second question is even heard.
    const followUp = ev.findIndex(
      (e) => e.event === 'turn' && e.avatar_line && e.tool_line?.kind === 'follow_up',
    );
    expect(followUp, JSON.stringify(t)).toBeGreaterThan(ev.indexOf(user[0]!));
    const spoken = ev.findIndex(
      (e, i) => i > followUp && e.event === 'reply_media' && e.seq === ev[followUp]!.seq,
    );
    expect(ev[spoken]).toMatchObject({ spoken: true, avatar_line: true });
    const heardSecond = ev.findIndex(
      (e) =>
        (e.event === 'partial' || e.event === 'turn') &&
        e.text &&
        e !== user[0] &&
        ev.indexOf(e) > ev.indexOf(user[0]!),
    );
    expect(spoken).toBeLessThan(heardSecond);
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done' });
  }, 90_000);
});

/** A mint body with the hook's `check_stock` tool (plus `extra` on the tool). */
const stockBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    agent: { hook: hook.url, tok: 't' },
    tools: { inline: [checkStockTool({ timeout_ms: 8000, ...extra })] },
  });
const STOCK = 'Is the blue kettle in stock?';
const SORRY = 'Sorry, I could not get that for you just now.';

describe('sessions live --say when the tool fails or never answers', () => {
  it('a failed call: its apology line is heard, then the next line goes; no hang', async () => {
    hook.next({ status: 500, json: { error: 'boom' } });
    const ev = await sayThenThanks(STOCK, ['--data', stockBody()]);
    const sorry = ev.findIndex((e) => e.event === 'turn' && e.reply === SORRY);
    expect(sorry, JSON.stringify(turns(ev))).toBeGreaterThan(0);
    expect(ev[sorry]).toMatchObject({
      text: '',
      avatar_line: true,
      tool_line: { kind: 'follow_up', tool: 'check_stock' },
    });
    expect(ev[sorry]!.greeting).toBeUndefined();
    const spoken = ev.findIndex(
      (e, i) => i > sorry && e.event === 'reply_media' && e.seq === ev[sorry]!.seq,
    );
    expect(spoken).toBeGreaterThan(0);
    expect(spoken).toBeLessThan(said(ev, 'Thanks'));
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done', turns: 2 });
  }, 60_000);

  it('a follow-up that never comes: the wait is bounded, says so, and the next line goes', async () => {
    hook.next('hang');
    const m = await h.api('/api/v1/sessions', {
      body: {
        ...JSON.parse(stockBody({ timeout_ms: 25_000 })),
        persona: 'ava',
        config: { greeting_enabled: false },
      },
    });
    expect(m.status).toBe(201);
    const events: Stamped[] = [];
    const runner = new LiveRunner({
      minted: m.body,
      label: 'ava',
      say: [STOCK, 'Thanks'],
      turns: 2,
      // far below the box's 2.5 s filler and 30 s hold: the bound is what ends this wait
      followUpWaitMs: 200,
      release: async () => {
        await h.api(`/api/v1/sessions/${m.body.session_id}/release`, {
          body: { seat_token: m.body.seat_token },
        });
      },
      onLog: (e) => events.push(e),
    });
    const s = await runner.run();
    expect(s).toMatchObject({ reason: 'turns_done', turns: 2, released: true });
    const gaveUp = events.findIndex(
      (e) =>
        e.event === 'notice' &&
        e.message === 'no follow-up line from check_stock within 0.2 s: going on',
    );
    expect(gaveUp, JSON.stringify(events.filter((e) => e.event !== 'media'))).toBeGreaterThan(0);
    expect(gaveUp).toBeLessThan(said(events, 'Thanks'));
  }, 60_000);
});

describe('FollowUps: which avatar line ends the wait (frames in, verdicts out)', () => {
  const make = () => {
    const settled: Settled[] = [];
    const timers: (() => void)[] = [];
    const f = new FollowUps({
      coverLines: coverLinesOf([{ cover_line: 'Let me check the shelves.' }]),
      setTimer: (fn) => {
        timers.push(fn);
        return () => timers.splice(timers.indexOf(fn), 1);
      },
      onSettled: (s) => settled.push(s),
    });
    return { f, settled, timers };
  };

  it('a slow call: its filler keeps the wait, the line after it ends it', () => {
    const { f, settled } = make();
    f.calling('c1', 'check_stock', false);
    expect(f.avatarLine('Let me check the shelves.')).toMatchObject({ kind: 'filler' });
    expect(f.due?.callId).toBe('c1');
    expect(f.avatarLine(SORRY)).toMatchObject({ kind: 'follow_up', call: { tool: 'check_stock' } });
    expect(f.due).toBeUndefined();
    expect(settled.map((s) => s.how)).toEqual(['line']);
  });

  it("after the call's result event, even a line equal to a cover line is the follow-up", () => {
    const { f } = make();
    f.calling('c1', 'generate_image', false);
    f.answered('c1');
    expect(f.avatarLine('Let me draw that for you.')).toMatchObject({ kind: 'follow_up' });
  });

  it("the call's own turn keeps the wait; a later user turn ends it (the result colours that reply)", () => {
    const { f, settled } = make();
    f.calling('c1', 'check_stock', true);
    f.userSpoke();
    expect(f.due?.callId).toBe('c1');
    f.userSpoke();
    expect(f.due).toBeUndefined();
    expect(settled.map((s) => s.how)).toEqual(['user_spoke']);
  });

  it('the bound: its timer settles the call as a timeout; no line is claimed after it', () => {
    const { f, settled, timers } = make();
    f.calling('c1', 'check_stock', false);
    expect(f.waitMs).toBe(FOLLOW_UP_WAIT_MS);
    timers[0]!();
    expect(settled.map((s) => s.how)).toEqual(['timeout']);
    expect(f.avatarLine('Some other line.')).toBeUndefined();
    expect(timers).toHaveLength(0);
  });
});

describe('the line view of avatar lines', () => {
  it('an avatar line is the avatar speaking, with the call it follows up; no empty "you:" line', () => {
    const line = textLine({
      event: 'turn',
      t: 14,
      seq: 3,
      text: '',
      reply: 'Here is the picture: a red kite.',
      avatar_line: true,
      tool_line: { kind: 'follow_up', tool: 'generate_image', call_id: 'call_1' },
    });
    expect(line).toBe(
      '[ 14.0s] avatar (generate_image follow-up): Here is the picture: a red kite.',
    );
    expect(
      textLine({
        event: 'reply_media',
        t: 17,
        seq: 3,
        bytes: 2048,
        segments: 2,
        spoken: true,
        avatar_line: true,
      }),
    ).toBe('[ 17.0s] avatar line media: 2.0 KB in 2 fragments');
  });
});
