/**
 * The brain (issue 8 item 4): one case table run against both implementations, the local
 * brain and the OpenAI-compatible one talking to a stub server on a loopback port (the stub
 * answers with the local brain's reply, streamed token by token as real servers do). Then
 * what only one of them does: the local brain's languages and determinism, the OpenAI
 * brain's early first sentence, persona folding and error mapping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brain, BrainRequest, BrainUsage } from '../src/models/brain.js';
import { LocalBrain, OpenAIBrain, countTokens, createBrain } from '../src/models/brain/index.js';
import { UpstreamError } from '../src/models/upstream-error.js';
import {
  json,
  sseChat,
  startOpenAIStub,
  tokenize,
  type OpenAIStub,
} from './helpers/openai-stub.js';

const persona = {
  name: 'Ava',
  backstory:
    'I grew up in Lisbon, Portugal. I have worked as a tour guide for ten years. My favourite food is grilled sardines. ' +
    'On weekends I go sailing on the Tagus river. I speak Portuguese, English and a little French.',
  memory: 'The user is called Sam. Sam likes hiking in the mountains.',
};
const system = { role: 'system' as const, content: 'You are a friendly tour guide. Be concise.' };
const ask = (content: string, extra: Partial<BrainRequest> = {}): BrainRequest => ({
  messages: [system, { role: 'user', content }],
  persona,
  ...extra,
});

async function run(
  brain: Brain,
  req: BrainRequest,
): Promise<{ text: string; deltas: string[]; usage: BrainUsage }> {
  const r = brain.reply(req);
  const deltas: string[] = [];
  for await (const d of r.deltas) deltas.push(d);
  return { text: deltas.join(''), deltas, usage: await r.usage };
}

interface Case {
  name: string;
  only?: 'local';
  req: BrainRequest;
  check(out: { text: string; deltas: string[]; usage: BrainUsage }): void;
}

const cases: Case[] = [
  {
    name: 'greets by the persona name',
    req: ask('Hello!'),
    check: ({ text }) => expect(text).toMatch(/Ava/),
  },
  {
    name: 'says its name',
    req: ask("What's your name?"),
    check: ({ text }) => expect(text).toMatch(/\bAva\b/),
  },
  {
    name: 'introduces itself with its name and what it is',
    req: ask('Who are you?'),
    check: ({ text }) => expect(text).toMatch(/\bAva\b.*(Lisbon|tour guide)/),
  },
  {
    name: 'answers from the backstory',
    req: ask('Where did you grow up?'),
    check: ({ text }) => expect(text).toMatch(/Lisbon/),
  },
  {
    name: 'finds the fact behind other words',
    req: ask('What do you like to eat?'),
    check: ({ text }) => expect(text).toMatch(/sardines/),
  },
  // The memory block reaches an upstream model as prompt text; recalling it is the model's job.
  {
    name: 'answers from the memory block',
    only: 'local',
    req: ask('What do you remember about me?'),
    check: ({ text }) => expect(text).toMatch(/hiking/),
  },
  {
    name: 'admits what it does not know instead of inventing',
    req: ask('What is the capital of Mongolia?'),
    check: ({ text }) => {
      expect(text).toMatch(/don't know/i);
      expect(text).not.toMatch(/Ulaanbaatar/);
    },
  },
  {
    name: 'thanks and goodbye',
    req: ask('Thanks, bye!'),
    check: ({ text }) => expect(text).toMatch(/goodbye/i),
  },
  {
    name: 'streams sentence by sentence',
    req: ask('What can you do? Where did you grow up?'),
    check: ({ deltas }) => {
      for (const d of deltas) expect(d.trim()).toMatch(/[.!?]$/);
    },
  },
  {
    name: 'remembers a name given earlier in the conversation',
    req: {
      messages: [
        { role: 'user', content: 'Hi, my name is Priya.' },
        { role: 'assistant', content: 'Nice to meet you, Priya.' },
        { role: 'user', content: 'What is my name?' },
      ],
    },
    check: ({ text }) => expect(text).toMatch(/Priya/),
  },
  {
    name: 'counts usage',
    req: ask('Where did you grow up?'),
    check: ({ text, usage }) => {
      expect(usage.completionTokens).toBe(countTokens(text));
      expect(usage.promptTokens).toBeGreaterThanOrEqual(
        countTokens(system.content) + countTokens('Where did you grow up?'),
      );
      expect(usage.finishReason).toBe('stop');
    },
  },
  {
    name: 'stops at maxTokens',
    req: ask('Tell me about your work, sailing and food.', { maxTokens: 4 }),
    check: ({ text, usage }) => {
      expect(countTokens(text)).toBeLessThanOrEqual(4);
      expect(text.length).toBeGreaterThan(0);
      expect(usage.finishReason).toBe('length');
    },
  },
];

let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
});
afterAll(() => stub.close());

/** The stub "model": the local brain's reply to whatever the OpenAI brain sent. */
async function localModel(body: Buffer, res: import('node:http').ServerResponse) {
  const b = JSON.parse(body.toString()) as {
    messages: BrainRequest['messages'];
    max_tokens?: number;
  };
  const r = new LocalBrain().reply({ messages: b.messages, maxTokens: b.max_tokens });
  let text = '';
  for await (const d of r.deltas) text += d;
  const u = await r.usage;
  await sseChat(res, tokenize(text), {
    finish: u.finishReason,
    usage: { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens },
  });
}

const impls: [string, () => Brain][] = [
  ['local', () => new LocalBrain()],
  [
    'openai',
    () => {
      stub.handler = (req, res) => localModel(req.body, res);
      return new OpenAIBrain({ url: stub.url, model: 'stub-model' });
    },
  ],
];

describe.each(impls)('brain %s', (_name, make) => {
  it.each(cases.filter((c) => !c.only || c.only === _name))('$name', async (c) => {
    c.check(await run(make(), c.req));
  });

  it('gives the same reply to the same conversation', async () => {
    const a = await run(make(), ask('Do you like sailing?'));
    const b = await run(make(), ask('Do you like sailing?'));
    expect(a.text).toBe(b.text);
    expect(a.text).toMatch(/Tagus/);
  });

  it('stops when the caller aborts', async () => {
    const ctrl = new AbortController();
    const r = make().reply(ask('What can you do? Where did you grow up?', { signal: ctrl.signal }));
    const it = r.deltas[Symbol.asyncIterator]();
    await it.next();
    ctrl.abort(new Error('barge-in'));
    await expect(it.next()).rejects.toThrow('barge-in');
  });
});

describe('local brain', () => {
  const brain = new LocalBrain();

  it.each([
    ['fr', /Bonjour, je suis Ava/],
    ['Spanish', /Hola, soy Ava/],
    ['de-DE', /Hallo, ich bin Ava/],
    ['italiano', /Ciao, sono Ava/],
    ['pt-BR', /Olá, eu sou Ava/],
    ['zh-CN', /你好，我是Ava/],
  ])('greets in %s', async (language, re) => {
    // The opener (no user turn yet); a user's "hello" gets a shorter greeting back.
    expect((await run(brain, { messages: [system], persona, language })).text).toMatch(re);
  });

  it('answers in English when the language is not in its phrase table', async () => {
    expect((await run(brain, { messages: [system], persona, language: 'ja' })).text).toMatch(
      /Hello, I'm Ava/,
    );
  });

  it('opens the conversation when there is no user turn yet (the greeting)', async () => {
    const { text } = await run(brain, { messages: [system], persona });
    expect(text).toMatch(/I'm Ava/);
  });

  it('takes facts and the name from the system prompt, in the first person', async () => {
    const messages = [
      {
        role: 'system' as const,
        content:
          'You are Jack, a pirate. You sail the Caribbean on a ship called the Black Pearl. Never break character.',
      },
      { role: 'user' as const, content: 'What is your ship called?' },
    ];
    const { text } = await run(brain, { messages });
    expect(text).toBe('I sail the Caribbean on a ship called the Black Pearl.');
    expect(
      (await run(brain, { messages: [messages[0], { role: 'user', content: 'Who are you?' }] }))
        .text,
    ).toMatch(/Jack/);
  });

  it('moves on to another fact when asked again', async () => {
    const first = (await run(brain, ask('Tell me about your languages'))).text;
    const again = await run(brain, {
      messages: [
        system,
        { role: 'user', content: 'Tell me about your languages' },
        { role: 'assistant', content: first },
        { role: 'user', content: 'Tell me about your languages' },
      ],
      persona: {
        ...persona,
        backstory: `${persona.backstory} I learned languages at the university of Coimbra.`,
      },
    });
    expect(again.text).not.toBe(first);
  });

  it('reads a prompt with labelled sections and ignores a later instruction (the edge greeting cue)', async () => {
    const prompt = {
      role: 'system' as const,
      content: `You are a friendly tour guide.\n\nBackstory: ${persona.backstory}\n\nMemory: ${persona.memory}`,
    };
    const cue = {
      role: 'system' as const,
      content:
        'The user just joined the conversation. Greet them as ava in one short sentence, in en.',
    };
    const edgePersona = { name: 'ava', backstory: persona.backstory, memory: persona.memory };
    expect((await run(brain, { messages: [prompt, cue], persona: edgePersona })).text).toBe(
      "Hello, I'm Ava. What would you like to talk about?",
    );
    const where = await run(brain, {
      messages: [prompt, { role: 'user', content: 'Where did you grow up?' }],
      persona: edgePersona,
    });
    expect(where.text).toBe('I grew up in Lisbon, Portugal.');
    const cueLater = await run(brain, {
      messages: [
        prompt,
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello!' },
        cue,
      ],
    });
    expect(cueLater.text).toMatch(/^Hello/);
    const asked = await run(brain, {
      messages: [
        prompt,
        { role: 'user', content: 'hi' },
        cue,
        { role: 'user', content: 'Who joined the conversation?' },
      ],
    });
    expect(asked.text).not.toMatch(/joined/);
  });

  it('lists what it can talk about', async () => {
    expect((await run(brain, ask('What can you do?'))).text).toMatch(/Lisbon|Portugal|Tagus/);
  });
});

describe('openai brain', () => {
  it('hands over the first sentence before the upstream has finished', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    stub.handler = (_req, res) =>
      sseChat(res, tokenize('I grew up in Lisbon. Then I moved to Porto for work.'), {
        hold: { after: 6, until: held },
      });
    const r = new OpenAIBrain({ url: stub.url }).reply(ask('where'));
    const it = r.deltas[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).toBe('I grew up in Lisbon. ');
    release();
    const rest: string[] = [];
    for (let n = await it.next(); !n.done; n = await it.next()) rest.push(n.value);
    expect(rest.join('')).toBe('Then I moved to Porto for work.');
    expect((await r.usage).completionTokens).toBe(
      countTokens('I grew up in Lisbon. Then I moved to Porto for work.'),
    );
  });

  it('sends the persona, the reply language, the model and the key', async () => {
    stub.handler = (_req, res) => sseChat(res, ['Olá!']);
    const brain = createBrain({
      llmUrl: stub.url,
      llmModel: 'my-model',
      env: { AVATAR_LLM_API_KEY: 'sk-test' },
    });
    await run(brain, ask('hello', { language: 'pt-BR' }));
    const req = stub.requests.at(-1)!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    const body = JSON.parse(req.body.toString());
    expect(body).toMatchObject({ model: 'my-model', stream: true });
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toContain('You are a friendly tour guide.');
    expect(body.messages[0].content).toContain('Lisbon');
    expect(body.messages[0].content).toContain('Sam likes hiking');
    expect(body.messages[0].content).toContain('Reply in Portuguese');
  });

  it('takes a plain JSON completion from a server that does not stream', async () => {
    stub.handler = (_req, res) =>
      json(res, 200, {
        choices: [
          { index: 0, message: { role: 'assistant', content: 'One. Two.' }, finish_reason: 'stop' },
        ],
      });
    const out = await run(new OpenAIBrain({ url: stub.url }), ask('count'));
    expect(out.deltas).toEqual(['One. ', 'Two.']);
  });

  const failures: [string, (res: import('node:http').ServerResponse) => void, string, RegExp][] = [
    [
      'a bad key',
      (res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }),
      'upstream_unauthorized',
      /401: Incorrect API key/,
    ],
    [
      'an unknown model',
      (res) => json(res, 404, { error: { message: 'model "x" not found' } }),
      'upstream_not_found',
      /not found/,
    ],
    [
      'a rate limit',
      (res) => json(res, 429, { error: 'slow down' }),
      'upstream_rate_limited',
      /429/,
    ],
    [
      'a server error',
      (res) => json(res, 500, { error: { message: 'boom' } }),
      'upstream_failed',
      /500: boom/,
    ],
    [
      'an HTML page',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<h1>hi</h1>');
      },
      'upstream_bad_response',
      /text\/html/,
    ],
    [
      'an error event mid-stream',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"error":{"message":"overloaded"}}\n\n');
      },
      'upstream_failed',
      /overloaded/,
    ],
    [
      'an empty stream',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: [DONE]\n\n');
      },
      'upstream_bad_response',
      /without a reply/,
    ],
  ];

  it.each(failures)('maps %s to a clear error', async (_n, answer, code, detail) => {
    stub.handler = (_req, res) => answer(res);
    const err = await run(new OpenAIBrain({ url: stub.url }), ask('hi')).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.code).toBe(code);
    expect(err.detail).toMatch(detail);
  });

  it('gives up a stream that goes quiet instead of thinking forever', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Well' } }] })}\n\n`); // ...and nothing more
    };
    const err = await run(new OpenAIBrain({ url: stub.url, idleTimeoutMs: 100 }), ask('hi')).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.code).toBe('upstream_timeout');
  });

  it('says when nothing answers at the URL', async () => {
    const gone = await startOpenAIStub();
    await gone.close();
    const err = await run(new OpenAIBrain({ url: gone.url }), ask('hi')).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.code).toBe('upstream_unreachable');
    expect(err.detail).toContain(gone.url);
  });

  it('refuses a malformed --llm-url at start-up', () => {
    expect(() => createBrain({ llmUrl: 'localhost:8000' })).toThrow(
      /--llm-url must be an http\(s\) URL/,
    );
    expect(createBrain({}).name).toBe('local');
  });
});

describe('the local brain with a role but no backstory (the stock personas)', () => {
  const prompt = {
    role: 'system' as const,
    content: 'You are Ava, a friendly product guide. Keep answers to two sentences.',
  };
  it('does not offer words of its instructions as topics ("ask me about friendly")', async () => {
    for (const q of ['What can you do?', 'Where do you live?']) {
      const { text } = await run(new LocalBrain(), {
        messages: [prompt, { role: 'user', content: q }],
        persona: { name: 'Ava' },
      });
      expect(text).not.toMatch(/about (friendly|product|guide|answers|sentences)\b/i);
    }
  });
});
