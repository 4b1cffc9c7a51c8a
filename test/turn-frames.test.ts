/**
 * The turn loop's stages one at a time, as frames in and frames out (issue 29 item 3;
 * docs/turns.md "Stages"): the Pipeline and its priority lane, the turn recorder, the `turn`
 * announcer, the mic stage pushing frames, and the stream faults as wrappers around the
 * parts they fail (a faulty brain, a delayed turn channel). A driven clock, no turn queue.
 */
import { describe, expect, it } from 'vitest';
import type { DealtStreamFault, SessionFaults } from '../src/edge/session/faults.js';
import { delayedTurns, faultyBrain } from '../src/edge/session/faults.js';
import { LiveSession } from '../src/edge/session/live-session.js';
import { MicInput } from '../src/edge/session/mic-input.js';
import {
  Pipeline,
  type ControlEvent,
  type DataFrame,
  type FrameStage,
  type ReplyCommitted,
} from '../src/edge/session/pipeline.js';
import { TurnAnnouncer } from '../src/edge/session/turn-announcer.js';
import { TurnRecorder } from '../src/edge/session/turn-recorder.js';
import { ManualClock } from '../src/emulator/clock.js';
import type { Brain, Vad } from '../src/models/index.js';
import { recordingChannel, testSnapshot } from './helpers/turn-loop.js';
import { settle } from './helpers/wait.js';

function session() {
  const clock = new ManualClock();
  const live = new LiveSession(testSnapshot('sess-frames-0000001'), clock, {
    ended: () => undefined,
  });
  const ch = recordingChannel();
  live.attach(ch);
  return { clock, live, ch };
}

/** A stage that keeps what it sees. */
function probe(name: string, seen: string[]): FrameStage {
  return {
    name,
    control: (e) => seen.push(`${name} ${e.type}`),
    process: (f) => seen.push(`${name} ${f.type}`),
  };
}

const committed = (o: Partial<ReplyCommitted>): ReplyCommitted => ({
  type: 'reply-committed',
  speechId: 'sp_1',
  user: { text: 'Where do you live?', source: 'typed' },
  greeting: false,
  text: 'In Lisbon. By the sea.',
  language: 'en',
  usage: { promptTokens: 3, completionTokens: 5 },
  spoken: true,
  by: 'local',
  sourced: null,
  ...o,
});

describe('the Pipeline', () => {
  it('passes data frames through its stages in order; control events take the priority lane to every stage, frame stages or not', () => {
    const seen: string[] = [];
    const p = new Pipeline();
    p.add(probe('a', seen));
    p.add({ name: 'control-only', control: (e: ControlEvent) => seen.push(`c ${e.type}`) });
    p.add(probe('b', seen));
    p.push({ type: 'greeting', speechId: 'sp_1' });
    p.push({ type: 'barge-in', by: 'speech' });
    expect(seen).toEqual(['a greeting', 'b greeting', 'a barge-in', 'c barge-in', 'b barge-in']);
  });
});

describe('the turn recorder', () => {
  it('stores a user turn when its reply commits (stamping its seq) and rewrites it to what was heard only on a barge-in', () => {
    const { live } = session();
    const stored: any[] = [];
    const rec = new TurnRecorder(live, (t) => stored.push({ ...t }));
    const f = committed({});
    rec.process(f);
    expect(f.seq).toBe(0);
    expect(stored).toEqual([
      {
        seq: 0,
        user_text: 'Where do you live?',
        reply_text: 'In Lisbon. By the sea.',
        language: 'en',
        speech_id: 'sp_1',
        outcome: 'spoken',
      },
    ]);
    rec.process({
      type: 'reply-ended',
      speechId: 'sp_1',
      user: 'Where do you live?',
      language: 'en',
      said: 'In Lisbon.',
      cutBy: 'barge-in',
      announced: true,
    });
    expect(stored.at(-1)).toMatchObject({
      seq: 0,
      reply_text: 'In Lisbon.',
      outcome: 'interrupted',
    });
    // A cut by the end keeps the stored reply whole.
    rec.process(committed({ speechId: 'sp_2' }));
    rec.process({
      type: 'reply-ended',
      speechId: 'sp_2',
      user: 'Where do you live?',
      language: 'en',
      said: 'In',
      cutBy: 'end',
      announced: true,
    });
    expect(stored).toHaveLength(3);
    expect(live.log.map((t) => t.reply_text)).toEqual(['In Lisbon.', 'In Lisbon. By the sea.']);
  });

  it('stores a spoken avatar line once heard (not when cut before its first word), and a reply never announced with the words said', () => {
    const { live } = session();
    const stored: any[] = [];
    const rec = new TurnRecorder(live, (t) => stored.push({ ...t }));
    const line = { user: null, text: 'Order 5 ships today.' };
    const ended = (speechId: string, said: string, o: object = {}) =>
      rec.process({
        type: 'reply-ended',
        speechId,
        user: null,
        language: 'en',
        said,
        cutBy: null,
        announced: true,
        ...o,
      });
    rec.process(committed({ ...line, speechId: 'sp_3' }));
    expect(stored).toEqual([]);
    ended('sp_3', 'Order 5 ships today.');
    rec.process(committed({ ...line, speechId: 'sp_4' }));
    ended('sp_4', '', { cutBy: 'barge-in' });
    ended('sp_5', '', { user: 'hello', announced: false });
    expect(stored.map((t) => [t.user_text, t.reply_text, t.outcome])).toEqual([
      ['', 'Order 5 ships today.', 'spoken'],
      ['hello', '', 'unanswered'],
    ]);
  });
});

describe('the turn announcer', () => {
  it('sends the turn message when a reply commits (brain-only with the brain payload, the greeting marked) and the interrupted event on a barge-in', () => {
    const { live, ch } = session();
    const sent: any[] = [];
    const a = new TurnAnnouncer(live, (m) => sent.push(m));
    a.process(committed({ spoken: false, by: 'script' }));
    a.process(committed({ user: null, greeting: true, speechId: 'sp_2' }));
    expect(sent).toEqual([
      {
        type: 'turn',
        text: 'Where do you live?',
        reply: 'In Lisbon. By the sea.',
        language: 'en',
        speech_id: 'sp_1',
        brain: {
          name: 'script',
          reply: 'In Lisbon. By the sea.',
          usage: { prompt_tokens: 3, completion_tokens: 5 },
        },
      },
      {
        type: 'turn',
        text: '',
        reply: 'In Lisbon. By the sea.',
        language: 'en',
        speech_id: 'sp_2',
        greeting: true,
      },
    ]);
    a.process({
      type: 'reply-ended',
      speechId: 'sp_2',
      user: null,
      language: 'en',
      said: 'In Lisbon.',
      cutBy: 'barge-in',
      announced: true,
    });
    expect(ch.sent).toEqual([
      { type: 'speech', speech_id: 'sp_2', status: 'interrupted', said: 'In Lisbon.' },
    ]);
  });
});

describe('the mic stage', () => {
  it('pushes a recognised user turn as a frame, and a barge-in when the user talks over the avatar', async () => {
    const { live } = session();
    const pipeline = new Pipeline();
    const seen: string[] = [];
    const frames: DataFrame[] = [];
    pipeline.add({
      name: 'sink',
      control: (e) => seen.push(e.type),
      process: (f) => frames.push(f),
    });
    const outlet = { pipeline, state: 'listening' as 'listening' | 'speaking' };
    const vad: Vad = { isSpeech: (f) => f.some((v) => Math.abs(v) > 500), reset: () => undefined };
    const mic = new MicInput(live, outlet, vad, {
      name: 'fake',
      available: true,
      transcribe: async () => ({ text: 'where do you live', recognised: true }),
    });
    for (let i = 0; i < 6; i++) mic.push(new Int16Array(1600).fill(3000));
    for (let i = 0; i < 8; i++) mic.push(new Int16Array(1600));
    await settle();
    expect(frames).toEqual([
      { type: 'user-turn', turn: { text: 'where do you live', source: 'speech' } },
    ]);
    expect(seen).toEqual([]);
    outlet.state = 'speaking';
    for (let i = 0; i < 3; i++) mic.push(new Int16Array(1600).fill(3000));
    expect(seen).toEqual(['barge-in']);
  });
});

describe('stream faults wrap the parts they fail', () => {
  /** Faults armed at `event`, dealing `dealt` once. */
  function faults(event: string, dealt: DealtStreamFault[]): SessionFaults & { asked: number } {
    const f = {
      asked: 0,
      armed: (e: string) => e === event,
      deal: async () => (f.asked++, dealt.splice(0)),
      crash: () => undefined,
    };
    return f as never;
  }
  const brain: Brain & { asked: number } = {
    name: 'inner',
    asked: 0,
    reply() {
      brain.asked++;
      return {
        deltas: (async function* () {
          yield 'Hello.';
        })(),
        usage: Promise.resolve({ promptTokens: 1, completionTokens: 1 }),
      };
    },
  };
  const collect = async (r: ReturnType<Brain['reply']>) => {
    let text = '';
    for await (const d of r.deltas) text += d;
    return text;
  };

  it('a faulty brain fails a reply without asking the brain when brain_fail is dealt, and is the brain itself otherwise', async () => {
    const f = faults('reply', [{ id: 'fault_1', stream: 'brain_fail' } as DealtStreamFault]);
    const wrapped = faultyBrain(brain, f);
    await expect(collect(wrapped.reply({ messages: [], language: 'en' } as never))).rejects.toThrow(
      /the brain failed \(fault fault_1/,
    );
    expect(brain.asked).toBe(0);
    expect(await collect(wrapped.reply({ messages: [], language: 'en' } as never))).toBe('Hello.');
    expect(brain.asked).toBe(1);
    expect(faultyBrain(brain, null)).toBe(brain);
  });

  it('a delayed turn channel sends a turn late by the dealt ms on the clock, at once when nothing is dealt', async () => {
    const clock = new ManualClock();
    const sent: string[] = [];
    const f = faults('turn', [
      { id: 'fault_2', stream: 'delay_turn', ms: 1500 } as DealtStreamFault,
    ]);
    const send = delayedTurns((m: string) => sent.push(m), f, clock);
    send('first');
    await settle();
    clock.advance(1499);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent).toEqual(['first']);
    send('second');
    await settle();
    expect(sent).toEqual(['first', 'second']);
  });
});
