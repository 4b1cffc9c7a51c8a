import { describe, expect, it, vi } from 'vitest';
import { AgentEventMessage } from '../src/contract/edge/messages.js';
import { ManualClock } from '../src/emulator/clock.js';
import {
  ToolStage,
  type StageAnswer,
  type StageCall,
  type StageTool,
} from '../src/edge/tools/tool-stage.js';
import { hintedLine } from '../src/models/brain/speak-hint.js';
import { deterministicVerdict } from '../src/models/brain/tool-verdict.js';

/** The box's post-commit tool stage (spec 6.2), its timers driven in milliseconds. */
const tools: StageTool[] = [
  {
    name: 'lookup_order',
    description: 'Look up the delivery status of an order',
    input_schema: { type: 'object', properties: { order_id: { type: 'string' } } },
    source: 'hook',
    cover_line: 'Let me check that order.',
  },
  {
    name: 'generate_image',
    description: 'Draw a picture',
    input_schema: { type: 'object', properties: { prompt: { type: 'string' } } },
    source: 'builtin',
  },
];

/** A session with a fast tool beside the background ones (spec 2: `fast` routes through the pre-speech gate). */
const withFast: StageTool[] = [
  ...tools,
  {
    name: 'check_stock',
    description: 'Check whether an item is in stock',
    input_schema: { type: 'object', properties: { item: { type: 'string' } } },
    source: 'hook',
    fast: true,
    timeout_ms: 2000,
    speak_hint: 'Stock check: {text}',
  },
];

function rig(
  phrase?: (line: string, note: string, tool: StageTool) => Promise<string>,
  list: StageTool[] = tools,
) {
  const clock = new ManualClock();
  const events: any[] = [];
  const said: { text: string; wanted: () => boolean }[] = [];
  const notes: string[] = [];
  const colours: string[] = [];
  const calls: StageCall[] = [];
  const pending: ((a: StageAnswer) => void)[] = [];
  const state = { silent: true, ended: false, spokeAfter: -1 };
  const stage = new ToolStage({
    clock,
    sessionId: 'sess-1234-abcd',
    tools: list,
    verdict: async (text) => deterministicVerdict(text, list),
    dispatch: (call) => {
      calls.push(call);
      return new Promise((r) => pending.push(r));
    },
    broadcast: (m) => events.push(m),
    say: (text, wanted) => said.push({ text, wanted }),
    silent: () => state.silent,
    userSpokeAfter: (seq) => state.spokeAfter > seq,
    history: () => [{ role: 'user', content: 'h' }],
    note: (t) => notes.push(t),
    colour: (t) => colours.push(t),
    ended: () => state.ended,
    log: () => undefined,
    ...(phrase ? { phrase } : {}),
  });
  const settle = () => new Promise((r) => setImmediate(r));
  const answer = async (a: StageAnswer) => {
    pending.shift()!(a);
    await stage.idle;
  };
  return { clock, events, said, notes, colours, calls, pending, state, stage, settle, answer };
}

const toolResult = (text: string): StageAnswer => ({
  ok: true,
  status: 'done',
  result: { kind: 'tool', text },
});

describe('tool stage', () => {
  it('a committed turn that names a tool: calling, the call, the note and the follow-up line', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 3, text: 'Can you look up order A-1234 for me?' });
    await r.settle();
    expect(r.events).toEqual([
      { type: 'agent_event', kind: 'calling', tool: 'lookup_order', call_id: 'call_sess-123_1' },
    ]);
    expect(r.calls[0]).toMatchObject({
      tool: 'lookup_order',
      args: { order_id: 'A-1234' },
      idem: 'sess-1234-abcd:3:lookup_order',
    });
    await r.answer(toolResult('Order A-1234 ships tomorrow.'));
    expect(r.notes).toEqual(['[tool lookup_order result: Order A-1234 ships tomorrow.]']);
    expect(r.said.map((s) => s.text)).toEqual(['Order A-1234 ships tomorrow.']);
    expect(r.said[0]!.wanted()).toBe(true);
    expect(r.colours).toEqual([]);
  });

  it('a turn that names no tool dispatches nothing', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 0, text: 'hello there, how are you?' });
    await r.stage.idle;
    expect(r.events).toEqual([]);
    expect(r.calls).toEqual([]);
  });

  it('the user spoke meanwhile: the result colours the next reply instead', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await r.settle();
    r.state.spokeAfter = 2;
    await r.answer(toolResult('Order 77 is late.'));
    expect(r.said).toEqual([]);
    expect(r.colours).toEqual(['Order 77 is late.']);
  });

  it('a follow-up waiting behind a long reply is dropped once 60 s old (stale) or the session ended', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await r.settle();
    await r.answer(toolResult('ok'));
    const wanted = r.said[0]!.wanted;
    r.clock.advance(59_999);
    expect(wanted()).toBe(true);
    r.clock.advance(1);
    expect(wanted()).toBe(false);
    const e = rig();
    e.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await e.settle();
    e.state.ended = true;
    await e.answer(toolResult('late'));
    expect(e.said).toEqual([]);
    expect(e.notes).toHaveLength(1);
  });

  it('the filler line plays after 2.5 s of silence while the call is outstanding, not before, not while speaking', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await r.settle();
    r.clock.advance(2499);
    expect(r.said).toEqual([]);
    r.clock.advance(1);
    expect(r.said.map((s) => s.text)).toEqual(['Let me check that order.']);
    const s = rig();
    s.state.silent = false;
    s.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await s.settle();
    s.clock.advance(5000);
    expect(s.said).toEqual([]);
  });

  it('one call in flight, and about 20 s of cooldown between dispatches', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 1, text: 'look up order 1' });
    await r.settle();
    r.stage.afterCommit({ seq: 2, text: 'look up order 2' });
    await r.settle();
    expect(r.calls).toHaveLength(1);
    await r.answer(toolResult('one'));
    r.clock.advance(19_999);
    r.stage.afterCommit({ seq: 3, text: 'look up order 3' });
    await r.settle();
    expect(r.calls).toHaveLength(1);
    r.clock.advance(1);
    r.stage.afterCommit({ seq: 4, text: 'look up order 4' });
    await r.settle();
    expect(r.calls.map((c) => c.args.order_id)).toEqual(['1', '4']);
  });

  it('the 30 s hold: no answer by then and the call is dropped; a late answer is not spoken', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 1, text: 'look up order 9' });
    await r.settle();
    r.state.silent = false;
    r.clock.advance(30_000);
    await r.stage.idle;
    expect(r.notes).toEqual([]);
    r.clock.advance(20_000);
    r.stage.afterCommit({ seq: 2, text: 'look up order 10' });
    await r.settle();
    expect(r.calls).toHaveLength(2);
  });

  it('an image result is broadcast with its url and caption; a failure is apologised for', async () => {
    const r = rig();
    r.stage.afterCommit({ seq: 1, text: 'please draw a picture of a red fox' });
    await r.settle();
    expect(r.calls[0]).toMatchObject({ tool: 'generate_image', args: { prompt: 'a red fox' } });
    await r.answer({
      ok: true,
      status: 'done',
      result: { kind: 'image', url: 'http://box/_box/images/x.png', caption: 'a red fox' },
    });
    expect(r.events[1]).toEqual({
      type: 'agent_event',
      kind: 'image',
      tool: 'generate_image',
      call_id: r.events[0].call_id,
      url: 'http://box/_box/images/x.png',
      caption: 'a red fox',
    });
    // What the stage broadcasts is the contract's agent_event (the AsyncAPI document's message).
    for (const e of r.events) expect(AgentEventMessage.safeParse(e).error).toBeUndefined();
    expect(
      AgentEventMessage.safeParse({ type: 'agent_event', kind: 'image', tool: 't', call_id: 'c' })
        .success,
    ).toBe(false);
    expect(r.said.map((s) => s.text)).toEqual(['Here is the picture: a red fox.']);
    const f = rig();
    f.stage.afterCommit({ seq: 1, text: 'look up order 5' });
    await f.settle();
    await f.answer({ ok: false, error: 'budget_exhausted', message: 'max_calls (20) reached' });
    expect(f.notes).toEqual(['[tool lookup_order failed: budget_exhausted]']);
    expect(f.said.map((s) => s.text)).toEqual(['Sorry, I could not get that for you just now.']);
  });
});

describe('the fast lane (the pre-speech gate)', () => {
  const gateOf = (r: ReturnType<typeof rig>, seq: number, text: string, signal?: AbortSignal) =>
    r.stage.gate({ seq, text }, signal ?? new AbortController().signal);

  it('a fast tool answered within the gate: calling first, the reply leads with the result, no follow-up line', async () => {
    const r = rig(undefined, withFast);
    const gated = gateOf(r, 2, 'Is the blue kettle in stock?');
    await r.settle();
    expect(r.events).toEqual([
      { type: 'agent_event', kind: 'calling', tool: 'check_stock', call_id: 'call_sess-123_1' },
    ]);
    expect(r.calls[0]).toMatchObject({ tool: 'check_stock', idem: 'sess-1234-abcd:2:check_stock' });
    r.clock.advance(300);
    r.pending.shift()!(toolResult('Two left.'));
    // speak_hint is a template for the local brain: {text} is the result's text
    expect(await gated).toEqual({
      note: '[tool check_stock result: Two left.]',
      lead: 'Stock check: Two left.',
    });
    // the turn then commits: nothing is dispatched again and no follow-up is said
    r.stage.afterCommit({ seq: 2, text: 'Is the blue kettle in stock?' });
    await r.stage.idle;
    r.clock.advance(5000);
    await r.stage.idle;
    expect(r.calls).toHaveLength(1);
    expect(r.said).toEqual([]);
    expect(r.notes).toEqual([]);
    expect(r.colours).toEqual([]);
  });

  it('the gate holds the reply at most 800 ms on the clock; then the call goes on in the background lane', async () => {
    const r = rig(undefined, withFast);
    let done = false;
    const gated = gateOf(r, 2, 'check stock of the red mug').then((g) => {
      done = true;
      return g;
    });
    await r.settle();
    r.clock.advance(799);
    await r.settle();
    expect(done).toBe(false);
    r.clock.advance(1);
    expect(await gated).toBeNull();
    r.stage.afterCommit({ seq: 2, text: 'check stock of the red mug' });
    await r.settle();
    expect(r.calls).toHaveLength(1);
    await r.answer(toolResult('Sold out.'));
    expect(r.notes).toEqual(['[tool check_stock result: Sold out.]']);
    expect(r.said.map((s) => s.text)).toEqual(['Stock check: Sold out.']);
  });

  it('a barge-in ends the hold at once; the answer then colours the next reply', async () => {
    const r = rig(undefined, withFast);
    const cut = new AbortController();
    const gated = gateOf(r, 2, 'check stock of the red mug', cut.signal);
    await r.settle();
    cut.abort();
    expect(await gated).toBeNull();
    r.state.spokeAfter = 3;
    await r.answer(toolResult('Sold out.'));
    expect(r.colours).toEqual(['Stock check: Sold out.']);
  });

  it('a background tool in a session with a fast one: the gate lets the reply go at once, the call follows the commit', async () => {
    const r = rig(undefined, withFast);
    expect(await gateOf(r, 1, 'look up order 77')).toBeNull();
    expect(r.events).toEqual([]);
    r.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await r.settle();
    expect(r.calls.map((c) => c.tool)).toEqual(['lookup_order']);
    await r.answer(toolResult('Order 77 ships tomorrow.'));
    expect(r.said.map((s) => s.text)).toEqual(['Order 77 ships tomorrow.']);
  });

  it('a session without fast tools never holds a reply (and never runs the verdict early)', async () => {
    const r = rig();
    expect(await gateOf(r, 1, 'look up order 77')).toBeNull();
    expect(r.events).toEqual([]);
    expect(r.calls).toEqual([]);
  });

  it('with an upstream brain the result is handed to the model for this reply (no lead line)', async () => {
    const r = rig(async () => 'unused', withFast);
    const gated = gateOf(r, 2, 'Is the blue kettle in stock?');
    await r.settle();
    r.pending.shift()!(toolResult('Two left.'));
    expect(await gated).toEqual({
      note: '[tool check_stock result: Two left.]',
      instruction: 'Answer the user with this tool result. Stock check: {text}',
    });
  });
});

describe('speak_hint with the local brain', () => {
  it('a hint with {field} placeholders is the line, filled from the result; without placeholders the plain line', () => {
    const r = { kind: 'tool', text: 'Two left.', structured: { count: 2, shop: { city: 'Oslo' } } };
    expect(hintedLine('{count} in {shop.city}: {text}', r)).toBe('2 in Oslo: Two left.');
    expect(hintedLine('Say it cheerfully', r)).toBe('Two left.');
    expect(hintedLine('{missing} left', r)).toBe('Two left.');
    expect(hintedLine(undefined, { kind: 'image', caption: 'a fox' })).toBe(
      'Here is the picture: a fox.',
    );
    expect(hintedLine('Look: {caption}!', { kind: 'image', caption: 'a fox' })).toBe(
      'Look: a fox!',
    );
  });

  it('a placeholder naming an inherited property ({toString}, {__proto__}, {constructor}) has nothing behind it: the plain line', () => {
    const r = { kind: 'tool', text: 'Two left.', structured: { count: 2 } };
    expect(hintedLine('{toString} left', r)).toBe('Two left.');
    expect(hintedLine('{__proto__} left', r)).toBe('Two left.');
    expect(hintedLine('{constructor} left', r)).toBe('Two left.');
    expect(hintedLine('{count.toFixed} left', r)).toBe('Two left.');
    expect(hintedLine('{count} {hasOwnProperty}', r)).toBe('Two left.');
  });
});

describe('an upstream brain words the follow-up', () => {
  it('gets the plain line, the note and the tool; a failure falls back to the plain line', async () => {
    const seen: string[] = [];
    const r = rig(async (line, note, tool) => {
      seen.push(`${line} | ${note} | ${tool.name}`);
      return 'Good news: it ships tomorrow!';
    });
    r.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await r.settle();
    await r.answer(toolResult('Order 77 ships tomorrow.'));
    expect(seen).toEqual([
      'Order 77 ships tomorrow. | [tool lookup_order result: Order 77 ships tomorrow.] | lookup_order',
    ]);
    expect(r.said.map((x) => x.text)).toEqual(['Good news: it ships tomorrow!']);
    const f = rig(async () => {
      throw new Error('upstream down');
    });
    f.stage.afterCommit({ seq: 1, text: 'look up order 77' });
    await f.settle();
    await f.answer(toolResult('plain'));
    expect(f.said.map((x) => x.text)).toEqual(['plain']);
  });
});

describe('the deterministic verdict rule', () => {
  it('scores name words 2 and description words 1, threshold 2, and fills arguments by type', () => {
    const t = [
      {
        name: 'get_weather',
        description: 'Current forecast for a city',
        input_schema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer' },
            metric: { type: 'boolean' },
          },
        },
      },
    ];
    expect(deterministicVerdict('what is the weather in Oslo for 3 days?', t)).toEqual({
      tool: 'get_weather',
      args: { city: '3 days', days: 3, metric: true },
    });
    expect(deterministicVerdict('what is the weather in Oslo?', t)!.args.city).toBe('Oslo');
    expect(deterministicVerdict('give me a forecast', t)).toBeNull();
    expect(deterministicVerdict('give me the city forecast', t)!.tool).toBe('get_weather');
  });
});

describe('built-in pictures', () => {
  it('are served until one hour has passed on the box clock', async () => {
    const { ImageShelf } = await import('../src/edge/tools/builtin-tools.js');
    const clock = new ManualClock();
    const shelf = new ImageShelf(clock);
    shelf.baseUrl = 'http://box';
    const url = shelf.put(Buffer.from('png'));
    const id = /images\/([0-9a-f]{32})\.png$/.exec(url)![1]!;
    clock.advance(3_599_999);
    expect(shelf.get(id)?.toString()).toBe('png');
    clock.advance(1);
    expect(shelf.get(id)).toBeNull();
  });
});

describe('the tools stage in the turn loop (spec 6.2 steps 1 and 6)', () => {
  it('speech nobody could make out, the greeting and avatar lines never dispatch; a recognised turn does', async () => {
    const { LiveSession } = await import('../src/edge/session/live-session.js');
    const { attachTools } = await import('../src/edge/tools/session-tools.js');
    const { LocalBrain } = await import('../src/models/brain/local.js');
    const { ImageShelf } = await import('../src/edge/tools/builtin-tools.js');
    const { recordingChannel, testSnapshot, turnLoopOn } = await import('./helpers/turn-loop.js');
    const clock = new ManualClock();
    const live = new LiveSession(
      testSnapshot('sess-tools-00000001', { greeting_enabled: true }),
      clock,
      { ended: () => undefined },
    );
    live.attach(recordingChannel());
    const { loop } = turnLoopOn(live, { parts: { brain: new LocalBrain() } as never, clock });
    const calls: StageCall[] = [];
    await attachTools({
      live,
      loop,
      parts: { brain: new LocalBrain() } as never,
      clock,
      log: () => undefined,
      link: {
        shelf: new ImageShelf(clock),
        tools: async () => ({ tools, left: 20, disabled: null }),
        call: async (_id, c) => (calls.push(c), toolResult('Order 5 ships today.')),
        report: async () => toolResult('unused'),
      },
    });
    loop.start(); // the greeting (hold 0) goes first: an avatar turn
    loop.userTurn('[speech not recognised: look up order 5]', { unrecognised: true });
    const said = loop.userTurn('look up order 5');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ tool: 'lookup_order', args: { order_id: '5' } });
    // the idem names the recognised turn's seq (greeting 0, unrecognised 1, this 2)
    expect(calls[0]!.idem).toBe('sess-tools-00000001:2:lookup_order');
    // the follow-up line (an avatar turn) dispatches nothing of its own
    await vi.waitFor(() =>
      expect(live.log.some((t) => t.reply_text === 'Order 5 ships today.')).toBe(true),
    );
    clock.advance(25_000);
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    expect(said).toMatch(/^sp_/);
    live.end('closed');
  });
});
