/**
 * The turn loop's stages (issue 15 item 1; docs/turns.md "Stages"): a barge-in is one
 * control event that reaches every stage and stops the reply at each (generation, voice,
 * media); a typed turn and a spoken turn take the same path through turn commit; a
 * post-commit stage sees committed user turns only, can put an agent_event on /events, speak
 * a line as an avatar turn, and add a note the brain reads. Fake parts, a driven clock, and
 * mic frames pushed as fast as the loop takes them.
 */
import { describe, expect, it } from 'vitest';
import { LiveSession } from '../src/edge/session/live-session.js';
import { MicInput } from '../src/edge/session/mic-input.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import type {
  CommittedTurn,
  ControlEvent,
  GateOutcome,
  PostCommitStage,
  StageContext,
} from '../src/edge/session/pipeline.js';
import { ManualClock } from '../src/emulator/clock.js';
import { LocalBrain } from '../src/models/brain/local.js';
import type {
  Brain,
  BrainRequest,
  Recognition,
  Recognizer,
  Vad,
  Voice,
} from '../src/models/index.js';
import { StreamBehind, type RecognitionStream } from '../src/models/recognizer.js';
import { fakeStream, recordingChannel, testSnapshot, turnLoopOn } from './helpers/turn-loop.js';
import { settle, waitUntil } from './helpers/wait.js';

/** Loud frames are speech. */
const vad: Vad = { isSpeech: (f) => f.some((v) => Math.abs(v) > 500), reset: () => undefined };
const loud = () => new Int16Array(1600).fill(3000);
const quiet = () => new Int16Array(1600);

/** A post-commit stage that records what it sees and does what the test asks with its context. */
class Probe implements PostCommitStage {
  readonly name = 'probe';
  readonly events: ControlEvent[] = [];
  readonly turns: CommittedTurn[] = [];
  ctx!: StageContext;
  control(e: ControlEvent): void {
    this.events.push(e);
  }
  committed(turn: CommittedTurn, ctx: StageContext): void {
    this.turns.push(turn);
    this.ctx = ctx;
  }
}

/** Says its first sentence, then holds the rest until the turn is aborted (then says it anyway, as a careless upstream would). */
class SlowBrain implements Brain {
  readonly name = 'slow';
  readonly requests: BrainRequest[] = [];
  reply(req: BrainRequest) {
    this.requests.push(req);
    async function* deltas() {
      yield 'I live in Lisbon. ';
      await new Promise<void>((r) =>
        req.signal?.addEventListener('abort', () => r(), { once: true }),
      );
      yield 'It is by the sea.';
    }
    return { deltas: deltas(), usage: Promise.resolve({ promptTokens: 1, completionTokens: 1 }) };
  }
}

/** `playsOut`: each reply plays out on its own (else it plays until cut). */
function setup(brain: Brain, heard = 'where do you live', playsOut = false) {
  const clock = new ManualClock();
  const live = new LiveSession(testSnapshot('sess-stages-000001', { render: true }), clock, {
    ended: () => undefined,
  });
  const ch = recordingChannel();
  live.attach(ch);
  const said: string[] = [];
  const voice: Voice = {
    name: 'fake',
    voices: [],
    synthesize: async (text) => (
      said.push(text), { sampleRate: 16000, samples: new Int16Array(16000), durationMs: 1000 }
    ),
  };
  const cuts: string[] = [];
  const stream = fakeStream(() => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    if (playsOut) setTimeout(() => finish(), 10);
    return { done, started: Promise.resolve(), interrupt: () => (cuts.push('cut'), finish(), 400) };
  });
  const recognizer: Recognizer = {
    name: 'fake',
    available: true,
    transcribe: async () => ({ text: heard, recognised: true }),
  };
  const parts = { brain, recognizer, voice } as unknown as EdgeParts;
  const { loop, stored } = turnLoopOn(live, { parts, clock, stream });
  const mic = new MicInput(live, loop, vad, recognizer);
  const probe = new Probe();
  loop.addStage(probe);
  const speakUtterance = () => {
    for (let i = 0; i < 10; i++) mic.push(loud());
    for (let i = 0; i < 8; i++) mic.push(quiet());
  };
  return { live, ch, loop, mic, probe, said, cuts, stored, speakUtterance, clock };
}

describe('a barge-in', () => {
  it('is one control event every stage gets, and it stops generation, voice and media', async () => {
    const brain = new SlowBrain();
    const { live, loop, mic, probe, said, cuts, stored } = setup(brain);
    const id = loop.typedTurn('Where do you live?');
    await waitUntil(() => loop.state === 'speaking');
    expect(said).toEqual(['I live in Lisbon.']);
    // The user speaks over the reply: 300 ms of speech in a row.
    for (let i = 0; i < 3; i++) mic.push(loud());
    expect(probe.events).toContainEqual({ type: 'barge-in', by: 'speech' });
    expect(brain.requests[0]!.signal!.aborted).toBe(true); // generation stopped
    expect(cuts).toEqual(['cut']); // the media cut what was on air
    await waitUntil(() => loop.state === 'listening');
    expect(said).toEqual(['I live in Lisbon.']); // the voice made nothing more
    expect(stored.filter((t) => t.speech_id === id).at(-1)).toMatchObject({
      outcome: 'interrupted',
    });
    live.end('closed');
    expect(probe.events.at(-1)).toEqual({ type: 'end', reason: 'closed' });
  });
});

describe('a typed turn and a spoken turn', () => {
  it('take the same path: turn commit, the post-commit stages, the brain, the turn message and the store', async () => {
    const { live, ch, loop, probe, stored, speakUtterance } = setup(
      new LocalBrain(),
      'Where do you live?',
    );
    const typed = loop.typedTurn('Where do you live?');
    await waitUntil(() => loop.state === 'speaking');
    loop.bargeIn(); // let the next turn start
    await waitUntil(() => loop.state === 'listening');
    speakUtterance();
    await waitUntil(() => probe.turns.length === 2);
    await waitUntil(() => loop.state === 'speaking');
    const spoken = probe.turns[1]!.speechId;
    expect(probe.turns.map((t) => [t.text, t.source])).toEqual([
      ['Where do you live?', 'typed'],
      ['Where do you live?', 'speech'],
    ]);
    const turnMsg = (id: string) => ch.sent.find((m) => m.type === 'turn' && m.speech_id === id);
    expect(Object.keys(turnMsg(spoken)).sort()).toEqual(Object.keys(turnMsg(typed)).sort());
    expect(turnMsg(spoken).reply).toBe(turnMsg(typed).reply);
    expect(stored.find((t) => t.speech_id === spoken)).toMatchObject({
      user_text: 'Where do you live?',
      outcome: 'spoken',
    });
    live.end('closed');
  });
});

describe('a post-commit stage', () => {
  it('sees committed user turns only, emits agent_event on /events, speaks a line as an avatar turn, and adds notes the brain reads', async () => {
    const brain = new LocalBrain();
    const asked: BrainRequest[] = [];
    const spy: Brain = { name: 'spy', reply: (req) => (asked.push(req), brain.reply(req)) };
    const { live, ch, loop, probe, stored } = setup(spy, '', true);
    // The greeting and a stage's own line are avatar turns: no committed user turn for them.
    const first = loop.typedTurn('Where do you live?');
    await waitUntil(() => probe.turns.length === 1);
    expect(probe.turns[0]).toMatchObject({
      speechId: first,
      source: 'typed',
      text: 'Where do you live?',
    });
    probe.ctx.emit({ kind: 'calling', tool: 'weather', call_id: 'c1' });
    expect(ch.sent).toContainEqual({
      type: 'agent_event',
      kind: 'calling',
      tool: 'weather',
      call_id: 'c1',
    });
    probe.ctx.note('[tool weather: sunny, 24 C]');
    const line = probe.ctx.say('One moment, I am checking the weather.');
    await waitUntil(() => stored.some((t) => t.speech_id === line));
    expect(stored.find((t) => t.speech_id === line)).toMatchObject({
      user_text: '',
      reply_text: 'One moment, I am checking the weather.',
    });
    expect(probe.turns).toHaveLength(1);
    loop.typedTurn('And tomorrow?');
    await waitUntil(() => asked.length === 2);
    expect(
      asked[1]!.messages.some(
        (m) => m.role === 'system' && m.content === '[tool weather: sunny, 24 C]',
      ),
    ).toBe(true);
    live.end('closed');
  });
});

describe('a pre-speech gate (the fast lane)', () => {
  const note = '[tool check_stock result: Two left.]';

  it('holds the reply until it answers: the reply leads with its line, the brain reads its note and instruction after the user words, later turns keep the note', async () => {
    const brain = new LocalBrain();
    const asked: BrainRequest[] = [];
    const spy: Brain = { name: 'spy', reply: (req) => (asked.push(req), brain.reply(req)) };
    const { live, ch, loop } = setup(spy, '', true);
    const seen: { seq: number; text: string }[] = [];
    let open!: (o: GateOutcome | null) => void;
    loop.addStage({
      name: 'gate',
      control: () => undefined,
      gate: (t) => (seen.push(t), new Promise<GateOutcome | null>((r) => (open = r))),
    });
    const id = loop.typedTurn('Is the kettle in stock?');
    await waitUntil(() => seen.length === 1);
    await settle();
    expect(loop.state).toBe('thinking');
    expect(asked).toHaveLength(0);
    expect(seen).toEqual([{ seq: 0, text: 'Is the kettle in stock?' }]);
    open({ note, lead: 'Two left.', instruction: 'Use it.' });
    const turn = () => ch.sent.find((m) => m.type === 'turn' && m.speech_id === id);
    await waitUntil(() => turn() !== undefined);
    expect(turn().reply).toMatch(/^Two left\. \S/);
    expect(asked[0]!.messages.slice(-3)).toEqual([
      { role: 'user', content: 'Is the kettle in stock?' },
      { role: 'system', content: note },
      { role: 'system', content: 'Use it.' },
    ]);
    await waitUntil(() => loop.state === 'listening');
    loop.typedTurn('Thanks');
    await waitUntil(() => seen.length === 2);
    open(null);
    await waitUntil(() => asked.length === 2);
    const later = asked[1]!.messages.map((m) => m.content);
    expect(later.indexOf(note)).toBeGreaterThan(later.indexOf('Is the kettle in stock?'));
    expect(later.indexOf(note)).toBeLessThan(later.indexOf('Thanks'));
    expect(later).not.toContain('Use it.');
    live.end('closed');
  });

  it('never holds a reply past the budget and its grace on the clock; a barge-in lets go at once', async () => {
    const brain = new LocalBrain();
    const asked: BrainRequest[] = [];
    const spy: Brain = { name: 'spy', reply: (req) => (asked.push(req), brain.reply(req)) };
    const { live, loop, clock } = setup(spy, '', true);
    const cuts: AbortSignal[] = [];
    loop.addStage({
      name: 'stuck',
      control: () => undefined,
      gate: (_t, cut) => (cuts.push(cut), new Promise<GateOutcome | null>(() => undefined)),
    });
    loop.typedTurn('Is the kettle in stock?');
    await waitUntil(() => cuts.length === 1);
    clock.advance(899);
    await settle();
    expect(asked).toHaveLength(0);
    clock.advance(1);
    await waitUntil(() => asked.length === 1);
    await waitUntil(() => loop.state === 'listening');
    loop.typedTurn('Is the mug in stock?');
    await waitUntil(() => cuts.length === 2);
    loop.typedTurn('Never mind.');
    expect(cuts[1]!.aborted).toBe(true);
    live.end('closed');
  });
});

describe('the recognition stage with a streaming recogniser', () => {
  /** A stream that records what it is fed; `end` answers `text`, or says it is behind. */
  function streamingRecognizer(final: () => Promise<Recognition>) {
    const fed: string[] = [];
    const batch: number[] = [];
    const partials: ((t: string) => void)[] = [];
    const stream: RecognitionStream = {
      onPartial: null,
      begin: (s) => fed.push(`begin ${s.length / 1600}`),
      push: (_s, speech) => {
        fed.push(speech ? 'S' : '.');
        if (stream.onPartial) partials.push(stream.onPartial);
      },
      end: () => (fed.push('end'), final()),
      close: () => fed.push('close'),
    };
    const recognizer: Recognizer = {
      name: 'pocketsphinx',
      available: true,
      stream: () => stream,
      transcribe: async (s) => (batch.push(s.length), { text: 'heard in batch', recognised: true }),
    };
    return { recognizer, fed, batch, stream };
  }

  function micSession(recognizer: Recognizer) {
    const clock = new ManualClock();
    const live = new LiveSession(testSnapshot('sess-stages-000002'), clock, {
      ended: () => undefined,
    });
    const ch = recordingChannel();
    live.attach(ch);
    const parts = { brain: new LocalBrain(), recognizer } as unknown as EdgeParts;
    const { loop } = turnLoopOn(live, { parts, clock });
    const mic = new MicInput(live, loop, vad, recognizer);
    return { live, ch, mic };
  }

  it('hears the utterance while it is spoken: its start, each frame, then the end; partials from the stream; no batch run', async () => {
    const r = streamingRecognizer(async () => ({ text: 'where do you live', recognised: true }));
    const { live, ch, mic } = micSession(r.recognizer);
    for (let i = 0; i < 5; i++) mic.push(loud());
    // A partial while the user still speaks (words after it may follow: the plain hangover ends the turn).
    r.stream.onPartial?.('where do');
    mic.push(loud());
    for (let i = 0; i < 7; i++) mic.push(quiet());
    // begin with the pre-roll and the first speech (the detector's history), then frame by frame.
    expect(r.fed[0]).toMatch(/^begin \d+$/);
    expect(r.fed.slice(1)).toEqual(['S', 'S', 'S', 'S', '.', '.', '.', '.', '.', '.', '.', 'end']);
    await waitUntil(() => ch.sent.some((m) => m.type === 'turn'));
    expect(ch.sent.find((m) => m.type === 'partial')).toEqual({
      type: 'partial',
      text: 'where do',
    });
    expect(ch.sent.find((m) => m.type === 'turn')).toMatchObject({ text: 'where do you live' });
    expect(r.batch).toEqual([]);
    live.end('closed');
    expect(r.fed.at(-1)).toBe('close');
  });

  it('leaves an utterance the stream could not finish to the batch form', async () => {
    const r = streamingRecognizer(async () => {
      throw new StreamBehind('behind');
    });
    const { live, ch, mic } = micSession(r.recognizer);
    for (let i = 0; i < 6; i++) mic.push(loud());
    for (let i = 0; i < 7; i++) mic.push(quiet());
    await waitUntil(() => ch.sent.some((m) => m.type === 'turn'));
    expect(ch.sent.find((m) => m.type === 'turn')).toMatchObject({ text: 'heard in batch' });
    expect(r.batch).toHaveLength(1);
    expect(r.fed).not.toContain('close'); // the stream goes on
    live.end('closed');
  });
});
