/**
 * Conversation scripts at run time (issue 29 item 1; docs/turns.md "Conversation scripts at
 * run time"): a session opened as the box opens one (EdgeSession.open) with a script the
 * control plane hands it. Rules match on the turn's text and index; `say` steps before any
 * other step are the reply, later ones avatar lines; `tool` steps go through the session's
 * tool stage (calling, the gateway, the note, the follow-up); `wait_ms` runs on the session
 * clock and a barge-in cuts it; `fail` fails the reply as a `brain_fail` fault; `end` ends
 * the session. Fake parts, a driven clock, a fake gateway link.
 */
import { describe, expect, it } from 'vitest';
import type {
  ScriptInput,
  ScriptRule,
  ScriptStep,
  ScriptWhen,
} from '../src/contract/resources/script.js';
import { Script } from '../src/contract/resources/script.js';
import type { Channel, Stream } from '../src/edge/session/channel.js';
import { EdgeSession } from '../src/edge/session/edge-session.js';
import type { LoggedTurn } from '../src/edge/session/live-session.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import { ImageShelf } from '../src/edge/tools/builtin-tools.js';
import type { ToolLink } from '../src/edge/tools/session-tools.js';
import { FAILURE_LINE, type StageCall, type StageTool } from '../src/edge/tools/tool-stage.js';
import { ManualClock } from '../src/emulator/clock.js';
import { LocalBrain } from '../src/models/brain/local.js';
import type { Brain, BrainRequest } from '../src/models/index.js';
import { fakeStream, testSnapshot, wordTimedVoice } from './helpers/turn-loop.js';
import { settle, waitUntil } from './helpers/wait.js';

const lookupOrder: StageTool = {
  name: 'lookup_order',
  description: 'Look up the delivery status of an order',
  input_schema: { type: 'object', properties: { order_id: { type: 'string' } } },
  source: 'hook',
};

/** A channel that keeps every JSON message and how it was closed. */
function channel(): Channel & { sent: any[]; closed: { code: number; reason: string } | null } {
  const ch = {
    sent: [] as any[],
    closed: null as { code: number; reason: string } | null,
    streams: new Set<Stream>(['control', 'events']),
    sendJson: (m: object) => ch.sent.push(m),
    sendMime: () => undefined,
    sendMedia: () => undefined,
    close: (code: number, reason: string) => (ch.closed = { code, reason }),
  };
  return ch;
}

interface Opts {
  /** Render on a fake stream (each sentence plays until `play()` or a cut), else brain-only. */
  render?: boolean;
  /** The session's resolved tools (their gateway is `calls`). */
  tools?: StageTool[];
  /** What the box reads for the session's script (a rejection: the control plane failed). */
  script?: () => Promise<unknown>;
}

async function scripted(script: ScriptInput | null, o: Opts = {}) {
  const clock = new ManualClock();
  const asked: BrainRequest[] = [];
  const local = new LocalBrain();
  const brain: Brain = { name: 'local', reply: (req) => (asked.push(req), local.reply(req)) };
  const calls: StageCall[] = [];
  /** Answer the next call: its result text, or null for a failed call (the hook answered 500). */
  const answers: ((text: string | null) => void)[] = [];
  const link: ToolLink = {
    shelf: new ImageShelf(clock),
    tools: async () => ({ tools: o.tools ?? [], left: 20, disabled: null }),
    call: (_id, c) =>
      new Promise((r) => {
        calls.push(c);
        answers.push((text) =>
          r(
            text === null
              ? { ok: false, error: 'tool_error', message: 'the hook answered 500' }
              : { ok: true, status: 'done', result: { kind: 'tool', text } },
          ),
        );
      }),
    report: async () => ({ ok: false, error: 'unused' }),
  };
  const playing: (() => void)[] = [];
  const stream = fakeStream(() => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    playing.push(finish);
    return { done, started: Promise.resolve(), interrupt: () => (finish(), 300) };
  });
  const parts = {
    brain,
    recognizer: { name: 'none', available: false, transcribe: async () => ({ text: '' }) },
    ...(o.render ? { voice: wordTimedVoice(), media: async () => stream } : {}),
  } as unknown as EdgeParts;
  const stored: LoggedTurn[] = [];
  const logs: string[] = [];
  const snapshot = {
    ...testSnapshot('sess-script-0000001', { render: o.render === true }),
    toolNames: (o.tools ?? []).map((t) => t.name),
    sessionLogs: true,
  };
  const es = await EdgeSession.open(snapshot, {
    parts,
    clock,
    hooks: { ended: () => undefined },
    captureRoot: null,
    fetchMedia: async () => null,
    store: (_id, t) => stored.push({ ...t }),
    log: (l) => logs.push(l),
    toolLink: link,
    script: (o.script ?? (async () => (script ? Script.parse(script) : null))) as never,
  });
  const ch = channel();
  es.attach(ch);
  const turns = () => ch.sent.filter((m) => m.type === 'turn');
  /** Let every queued sentence play out. */
  const play = () => {
    for (const f of playing.splice(0)) f();
  };
  return { es, ch, clock, asked, calls, answers, stored, logs, turns, play };
}

/** A rule (`when`, `then`) as a script file has it (built from JSON: lint keeps `then` keys out of object literals). */
const rule = (when: ScriptWhen, ...steps: ScriptStep[]): ScriptRule => ({
  when,
  ...(JSON.parse(`{"then":${JSON.stringify(steps)}}`) as Pick<ScriptRule, 'then'>),
});

const replies = (r: Awaited<ReturnType<typeof scripted>>) =>
  r.turns().map((m) => [m.text, m.reply]);

describe('script rules', () => {
  const script: ScriptInput = {
    name: 'rules',
    rules: [
      rule({ text: '^order', turn: 2 }, { say: 'Both hold.' }),
      rule({ text: 'ORDER\\s+\\d+' }, { say: 'Text holds.' }),
      rule({ turn: 1 }, { say: 'The second turn.' }),
      rule({}, { say: 'Anything else.' }),
    ],
  };

  it('are tried in order: a case-insensitive expression on the text, the user turn index, both, none', async () => {
    const r = await scripted(script);
    for (const text of ['Where is order 5?', 'hello', 'order 7 please', 'order 8', 'hi'])
      r.es.loop.typedTurn(text);
    await waitUntil(() => r.turns().length === 5);
    expect(replies(r)).toEqual([
      ['Where is order 5?', 'Text holds.'],
      ['hello', 'The second turn.'],
      ['order 7 please', 'Both hold.'],
      ['order 8', 'Text holds.'],
      ['hi', 'Anything else.'],
    ]);
    expect(r.asked).toEqual([]); // the brain was never asked
    expect(r.stored.map((t) => [t.user_text, t.reply_text, t.outcome])).toContainEqual([
      'order 7 please',
      'Both hold.',
      'text',
    ]);
    // brain-only: the turn says who made the reply
    expect(r.turns()[0].brain).toMatchObject({ name: 'script', reply: 'Text holds.' });
    r.es.live.end('closed');
  });

  it('a turn no rule matches falls through to the brain; a strict script answers it with the text and logs it', async () => {
    const only = rule({ text: 'order' }, { say: 'Scripted.' });
    const loose = await scripted({ name: 'loose', rules: [only] });
    loose.es.loop.typedTurn('Where do you live?');
    await waitUntil(() => loose.turns().length === 1);
    expect(loose.asked).toHaveLength(1);
    expect(loose.turns()[0].reply).not.toBe('');
    expect(loose.turns()[0].brain.name).toBe('local');
    loose.es.live.end('closed');

    const strict = await scripted({ name: 'strict', strict: true, rules: [only] });
    strict.es.loop.typedTurn('Where do you live?');
    await waitUntil(() => strict.turns().length === 1);
    expect(strict.turns()[0].reply).toBe('[no script rule for: Where do you live?]');
    expect(strict.asked).toEqual([]);
    expect(strict.logs.join('\n')).toMatch(/no rule for user turn 0: Where do you live\?/);
    strict.es.live.end('closed');
  });

  it('no script (the control plane answered null, or failed): the brain answers', async () => {
    for (const o of [{}, { script: async () => Promise.reject(new Error('down')) }]) {
      const r = await scripted(null, o);
      r.es.loop.typedTurn('Where do you live?');
      await waitUntil(() => r.turns().length === 1);
      expect(r.asked).toHaveLength(1);
      r.es.live.end('closed');
    }
  });
});

describe('script steps', () => {
  it('say steps before any other step are the reply; a say after a wait_ms is an avatar line when the wait ends on the session clock', async () => {
    const r = await scripted({
      name: 'lines',
      rules: [rule({}, { say: 'One.' }, { say: 'Two.' }, { wait_ms: 2000 }, { say: 'Three.' })],
    });
    r.es.loop.typedTurn('hello');
    await waitUntil(() => r.turns().length === 1);
    expect(replies(r)).toEqual([['hello', 'One. Two.']]);
    r.clock.advance(1999);
    await settle();
    expect(r.turns()).toHaveLength(1);
    r.clock.advance(1);
    await waitUntil(() => r.turns().length === 2);
    expect(replies(r)[1]).toEqual(['', 'Three.']);
    expect(r.stored.map((t) => [t.user_text, t.reply_text])).toEqual([
      ['hello', 'One. Two.'],
      ['', 'Three.'],
    ]);
    r.es.live.end('closed');
  });

  it('a spoken session speaks the scripted reply and stores it spoken', async () => {
    const r = await scripted(
      { name: 'spoken', rules: [rule({}, { say: 'Hello from the script.' })] },
      { render: true },
    );
    r.es.loop.typedTurn('hello');
    await waitUntil(() => r.es.loop.state === 'speaking');
    expect(r.turns()[0]).toMatchObject({ reply: 'Hello from the script.' });
    expect(r.turns()[0].brain).toBeUndefined();
    r.play();
    await waitUntil(() => r.es.loop.state === 'listening');
    expect(r.stored).toEqual([
      expect.objectContaining({ reply_text: 'Hello from the script.', outcome: 'spoken' }),
    ]);
    r.es.live.end('closed');
  });

  it('a barge-in cuts a wait_ms: the lines after it are never said', async () => {
    const r = await scripted(
      {
        name: 'cut',
        rules: [
          rule({ turn: 0 }, { say: 'A long first line.' }, { wait_ms: 500 }, { say: 'Later.' }),
          rule({}, { say: 'Yes?' }),
        ],
      },
      { render: true },
    );
    r.es.loop.typedTurn('hello');
    await waitUntil(() => r.es.loop.state === 'speaking');
    r.es.loop.bargeIn();
    r.clock.advance(500);
    await waitUntil(() => r.es.loop.state === 'listening');
    await settle();
    expect(replies(r)).toEqual([['hello', 'A long first line.']]);
    // The next user turn starts afresh: the wait of the turn before says nothing more either.
    r.es.loop.typedTurn('and now?');
    await waitUntil(() => r.turns().length === 2);
    r.play();
    r.clock.advance(5000);
    await settle();
    expect(replies(r)).toEqual([
      ['hello', 'A long first line.'],
      ['and now?', 'Yes?'],
    ]);
    r.es.live.end('closed');
  });

  it('the next user turn drops what the rule before still had to do', async () => {
    const r = await scripted({
      name: 'next',
      rules: [
        rule({ turn: 0 }, { say: 'First.' }, { wait_ms: 1000 }, { say: 'Late.' }),
        rule({}, { say: 'Second.' }),
      ],
    });
    r.es.loop.typedTurn('one');
    await waitUntil(() => r.turns().length === 1);
    r.es.loop.typedTurn('two');
    await waitUntil(() => r.turns().length === 2);
    r.clock.advance(1000);
    await settle();
    expect(replies(r)).toEqual([
      ['one', 'First.'],
      ['two', 'Second.'],
    ]);
    r.es.live.end('closed');
  });

  it('a tool step dispatches the script tool and args as a brain-chosen call is: calling, the gateway, the note, the follow-up (the say right after it); the verdict never runs for that turn', async () => {
    const r = await scripted(
      {
        name: 'tool',
        rules: [
          rule(
            { text: 'order' },
            { say: 'Let me check.' },
            { tool: 'lookup_order', args: { order_id: 'A-9' } },
            { say: 'Your order is on its way.' },
            { say: 'Anything else?' },
          ),
        ],
      },
      { tools: [lookupOrder] },
    );
    // The words would make the deterministic verdict pick lookup_order with order 5.
    r.es.loop.typedTurn('Can you look up order 5?');
    await waitUntil(() => r.calls.length === 1);
    expect(r.calls[0]).toMatchObject({
      tool: 'lookup_order',
      args: { order_id: 'A-9' },
      idem: 'sess-script-0000001:0:lookup_order',
    });
    expect(r.ch.sent).toContainEqual(
      expect.objectContaining({ type: 'agent_event', kind: 'calling', tool: 'lookup_order' }),
    );
    expect(replies(r)).toEqual([['Can you look up order 5?', 'Let me check.']]);
    r.answers.shift()!('Order A-9 ships today.');
    await waitUntil(() => r.turns().length === 3);
    // The say right after the tool step is its follow-up line (said with the result, not the
    // worded result), then the script's next line.
    expect(replies(r).slice(1)).toEqual([
      ['', 'Your order is on its way.'],
      ['', 'Anything else?'],
    ]);
    // The note is in the conversation the brain reads next.
    expect(r.es.live.notes.map((n) => n.text)).toEqual([
      '[tool lookup_order result: Order A-9 ships today.]',
    ]);
    r.clock.advance(25_000);
    await settle();
    expect(r.calls).toHaveLength(1); // no verdict-made call of its own
    r.es.live.end('closed');
  });

  it('a tool step with no say right after it is followed by the worded result, as a brain-chosen call is', async () => {
    const r = await scripted(
      {
        name: 'tool-worded',
        rules: [
          rule({ text: 'order' }, { say: 'Let me check.' }, { tool: 'lookup_order', args: {} }),
        ],
      },
      { tools: [lookupOrder] },
    );
    r.es.loop.typedTurn('Where is my order?');
    await waitUntil(() => r.calls.length === 1);
    r.answers.shift()!('Order A-9 ships today.');
    await waitUntil(() => r.turns().length === 2);
    expect(replies(r)).toEqual([
      ['Where is my order?', 'Let me check.'],
      ['', 'Order A-9 ships today.'],
    ]);
    r.es.live.end('closed');
  });

  it('two tool steps of one tool in a rule are two calls (each its own idem); a follow-up written for a call that fails gives way to the apology', async () => {
    const r = await scripted(
      {
        name: 'two-calls',
        rules: [
          rule(
            { text: 'orders' },
            { say: 'Checking both.' },
            { tool: 'lookup_order', args: { order_id: 'A-1' } },
            { say: 'A-1 is on its way.' },
            { tool: 'lookup_order', args: { order_id: 'A-2' } },
            { say: 'A-2 is on its way.' },
          ),
        ],
      },
      { tools: [lookupOrder] },
    );
    r.es.loop.typedTurn('Where are my orders?');
    await waitUntil(() => r.calls.length === 1);
    r.answers.shift()!('A-1 ships today.');
    await waitUntil(() => r.calls.length === 2);
    expect(r.calls.map((c) => c.args)).toEqual([{ order_id: 'A-1' }, { order_id: 'A-2' }]);
    expect(new Set(r.calls.map((c) => c.idem)).size).toBe(2);
    r.answers.shift()!(null);
    await waitUntil(() => r.turns().length === 3);
    expect(replies(r)).toEqual([
      ['Where are my orders?', 'Checking both.'],
      ['', 'A-1 is on its way.'],
      ['', FAILURE_LINE],
    ]);
    r.es.live.end('closed');
  });

  it('a tool the session did not resolve fails as unknown_tool: calling, no gateway call, a logged failure and the apology', async () => {
    const r = await scripted({
      name: 'unknown',
      rules: [rule({}, { say: 'Checking.' }, { tool: 'lookup_order', args: {} })],
    });
    r.es.loop.typedTurn('hello');
    await waitUntil(() => r.turns().length === 2);
    expect(r.ch.sent).toContainEqual(
      expect.objectContaining({ type: 'agent_event', kind: 'calling', tool: 'lookup_order' }),
    );
    expect(r.calls).toEqual([]);
    expect(replies(r)[1]).toEqual(['', FAILURE_LINE]);
    expect(r.es.live.notes.map((n) => n.text)).toEqual([
      '[tool lookup_order failed: unknown_tool]',
    ]);
    expect(r.logs.join('\n')).toMatch(/script tool lookup_order: not a tool of this session/);
    r.es.live.end('closed');
  });

  it('fail: brain fails the reply as a brain_fail fault does: turn_failed, the user turn stored unanswered', async () => {
    const r = await scripted({
      name: 'fail',
      rules: [rule({ turn: 0 }, { fail: 'brain' }), rule({}, { say: 'Back.' })],
    });
    r.es.loop.typedTurn('hello');
    await waitUntil(() => r.ch.sent.some((m) => m.type === 'error'));
    expect(r.ch.sent.find((m) => m.type === 'error')).toMatchObject({
      error: 'turn_failed',
      detail: expect.stringMatching(/the brain failed/),
    });
    expect(r.turns()).toEqual([]);
    expect(r.stored).toEqual([
      expect.objectContaining({ user_text: 'hello', reply_text: '', outcome: 'unanswered' }),
    ]);
    // The loop goes on.
    r.es.loop.typedTurn('again');
    await waitUntil(() => r.turns().length === 1);
    expect(replies(r)).toEqual([['again', 'Back.']]);
    r.es.live.end('closed');
  });

  it('a fail after a wait fails the avatar line that would come then', async () => {
    const r = await scripted({
      name: 'fail-late',
      rules: [rule({}, { say: 'Hm.' }, { wait_ms: 100 }, { fail: 'brain' })],
    });
    r.es.loop.typedTurn('hello');
    await waitUntil(() => r.turns().length === 1);
    expect(r.ch.sent.some((m) => m.type === 'error')).toBe(false);
    r.clock.advance(100);
    await waitUntil(() => r.ch.sent.some((m) => m.type === 'error'));
    expect(r.ch.sent.find((m) => m.type === 'error')).toMatchObject({ error: 'turn_failed' });
    expect(r.turns()).toHaveLength(1);
    r.es.live.end('closed');
  });

  it('end ends the session once the reply before it has played: every socket closes with 4002 and the reason, which is logged', async () => {
    const r = await scripted(
      { name: 'bye', rules: [rule({}, { say: 'Goodbye.' }, { end: 'the test is over' })] },
      { render: true },
    );
    r.es.loop.typedTurn('bye');
    await waitUntil(() => r.es.loop.state === 'speaking');
    await settle();
    expect(r.es.live.ended).toBeNull();
    r.play();
    await waitUntil(() => r.es.live.ended !== null);
    expect(r.es.live.ended).toBe('script');
    expect(r.ch.closed).toEqual({ code: 4002, reason: 'session_ended: script: the test is over' });
    expect(r.stored).toEqual([
      expect.objectContaining({ reply_text: 'Goodbye.', outcome: 'spoken' }),
    ]);
    expect(r.logs.join('\n')).toMatch(
      /the conversation script ended the session: the test is over/,
    );
  });
});
