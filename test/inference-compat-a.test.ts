import OpenAI, { toFile } from 'openai';
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

// The official openai client against /compat-a/v1 (issue 11 "must show").
const h = useEmulator({ inferenceRateLimits: false });
const client = () =>
  new OpenAI({
    baseURL: `${h.baseUrl}/compat-a/v1`,
    apiKey: h.emu.keys.dashboardKey,
    maxRetries: 0,
  });

const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('compat-a with the openai client', () => {
  it('lists the models the emulator has', async () => {
    const ids = [];
    for await (const m of client().models.list()) ids.push(m.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'avatar-chat',
        'avatar-embed',
        'avatar-tts',
        'avatar-asr',
        'avatar-image',
        'avatar-rerank',
      ]),
    );
    const one = await client().models.retrieve('avatar-embed');
    expect(one).toMatchObject({ id: 'avatar-embed', object: 'model', owned_by: 'avatar-emulator' });
  });

  it('embeds texts so that similar texts score higher, in float and base64 alike', async () => {
    const input = [
      'the cat sat on the mat',
      'a cat was sitting on a mat',
      'quarterly revenue grew by ten percent',
    ];
    const r = await client().embeddings.create({ model: 'avatar-embed', input }); // the client asks for base64 and decodes it
    const f = await client().embeddings.create({
      model: 'avatar-embed',
      input,
      encoding_format: 'float',
    });
    expect(r.data).toHaveLength(3);
    expect(r.usage.prompt_tokens).toBeGreaterThan(10);
    const [a, b, c] = r.data.map((d) => d.embedding as number[]);
    expect(cos(a!, b!)).toBeGreaterThan(cos(a!, c!) + 0.2);
    expect(Math.abs(cos(a!, a!) - 1)).toBeLessThan(1e-5);
    f.data.forEach((d, i) => expect(d.embedding[7]).toBeCloseTo(r.data[i]!.embedding[7]!, 5));
    const again = await client().embeddings.create({
      model: 'avatar-embed',
      input: input[0]!,
      encoding_format: 'float',
      dimensions: 64,
    });
    expect(again.data[0]!.embedding).toHaveLength(64);
  });

  it('generates deterministic PNGs served by the emulator', async () => {
    const r = await client().images.generate({
      model: 'avatar-image',
      prompt: 'a red fox in a snowy forest',
      size: '256x256',
      n: 2,
    });
    expect(r.data).toHaveLength(2);
    const url = r.data![0]!.url!;
    expect(url.startsWith(h.baseUrl + '/inference/media/')).toBe(true);
    const png = Buffer.from(await (await fetch(url)).arrayBuffer());
    const img = decode(png);
    expect([img.width, img.height]).toEqual([256, 256]);
    const again = await client().images.generate({
      model: 'avatar-image',
      prompt: 'a red fox in a snowy forest',
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(Buffer.from(again.data![0]!.b64_json!, 'base64').equals(png)).toBe(true);
    const other = await client().images.generate({
      model: 'avatar-image',
      prompt: 'blue ocean waves',
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(Buffer.from(other.data![0]!.b64_json!, 'base64').equals(png)).toBe(false);
  });

  it('edits a PNG inside the transparent part of the mask only', async () => {
    const gen = await client().images.generate({
      model: 'avatar-image',
      prompt: 'plain gray wall',
      size: '64x64',
      response_format: 'b64_json',
    });
    const image = Buffer.from(gen.data![0]!.b64_json!, 'base64');
    const { encode } = await import('fast-png');
    const maskPx = new Uint8Array(64 * 64 * 4).fill(255);
    for (let i = 0; i < 64 * 32; i++) maskPx[i * 4 + 3] = 0; // top half transparent: edit there
    const mask = Buffer.from(
      encode({ width: 64, height: 64, data: maskPx, channels: 4, depth: 8 }),
    );
    const r = await client().images.edit({
      model: 'avatar-image',
      image: await toFile(image, 'wall.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'bright yellow sun',
      response_format: 'b64_json',
    });
    const before = decode(image).data;
    const after = decode(Buffer.from(r.data![0]!.b64_json!, 'base64')).data;
    const changed = (from: number, to: number) => {
      let n = 0;
      for (let i = from; i < to; i++)
        if (before[i * 4] !== after[i * 4] || before[i * 4 + 1] !== after[i * 4 + 1]) n++;
      return n;
    };
    expect(changed(0, 64 * 32)).toBeGreaterThan(500);
    expect(changed(64 * 32, 64 * 64)).toBe(0);
  });

  it('answers errors in the OpenAI error format', async () => {
    const err = await client()
      .embeddings.create({ model: 'no-such-model', input: 'x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      code: 'not_found',
      type: 'not_found_error',
    });
    const bad = await client()
      .images.generate({ model: 'avatar-image', prompt: 'x', size: '5x5' as never })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    const unauth = await new OpenAI({
      baseURL: `${h.baseUrl}/compat-a/v1`,
      apiKey: 'nope',
      maxRetries: 0,
    }).models
      .list()
      .catch((e: unknown) => e);
    expect(unauth).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('chat completions with the openai client', () => {
  const messages = [
    { role: 'system' as const, content: 'You are Ava, a friendly guide.' },
    { role: 'user' as const, content: 'Hello! What is your name?' },
  ];

  it('answers from the Brain with usage', async () => {
    const r = await client().chat.completions.create({ model: 'avatar-chat', messages });
    expect(r.object).toBe('chat.completion');
    expect(r.choices[0]!.message.role).toBe('assistant');
    expect(r.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
    expect(r.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it('streams the same reply token by token, ending with usage', async () => {
    const whole = await client().chat.completions.create({ model: 'avatar-chat', messages });
    const stream = await client().chat.completions.create({
      model: 'avatar-chat',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let usage;
    let finish;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        text += delta;
        chunks++;
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(whole.choices[0]!.message.content);
    expect(chunks).toBeGreaterThan(0);
    expect(finish).toBe('stop');
    expect(usage).toEqual(whole.usage);
  });

  it('streams a reply of several sentences in word-sized deltas, as OpenAI-compatible servers do', async () => {
    const ask = [{ role: 'user' as const, content: 'Who are you and what can you do?' }];
    const whole = (await client().chat.completions.create({ model: 'avatar-chat', messages: ask }))
      .choices[0]!.message.content!;
    const words = whole.trim().split(/\s+/);
    expect(words.length).toBeGreaterThan(6);
    const stream = await client().chat.completions.create({
      model: 'avatar-chat',
      messages: ask,
      stream: true,
    });
    const deltas: string[] = [];
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta?.content;
      if (d) deltas.push(d);
    }
    expect(deltas.join('')).toBe(whole);
    // One word per delta (with the space or punctuation around it), not a sentence.
    expect(deltas).toHaveLength(words.length);
    for (const d of deltas) expect(d.trim().split(/\s+/)).toHaveLength(1);
  });

  it('refuses a conversation without a user message', async () => {
    const err = await client()
      .chat.completions.create({
        model: 'avatar-chat',
        messages: [{ role: 'system', content: 'x' }],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('rerank and score (BM25)', () => {
  it('ranks the document that matches the query first', async () => {
    const r = await h.api('/compat-a/v1/rerank', {
      key: h.emu.keys.dashboardKey,
      body: {
        model: 'avatar-rerank',
        query: 'how do I reset my password',
        documents: [
          'Opening hours are nine to five.',
          'To reset your password, open settings and choose reset.',
          'Passwords must be 12 characters.',
        ],
        top_n: 2,
        return_documents: true,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.object).toBe('list');
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0]).toMatchObject({
      index: 1,
      document: 'To reset your password, open settings and choose reset.',
    });
    expect(r.body.data[0].relevance_score).toBeGreaterThan(r.body.data[1].relevance_score);
  });

  it('scores text pairs', async () => {
    const r = await h.api('/compat-a/v1/score', {
      key: h.emu.keys.dashboardKey,
      body: {
        model: 'avatar-rerank',
        text_1: 'capital of france',
        text_2: ['Paris is the capital of France.', 'Bananas are yellow.'],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { index: number }) => d.index)).toEqual([0, 1]);
    expect(r.body.data[0].score).toBeGreaterThan(r.body.data[1].score);
    const mismatch = await h.api('/compat-a/v1/score', {
      key: h.emu.keys.dashboardKey,
      body: { model: 'avatar-rerank', text_1: ['a', 'b'], text_2: ['a', 'b', 'c'] },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({
      code: 'invalid_request',
      type: 'invalid_request_error',
      param: 'text_2',
    });
  });
});

describe('audio/speech with the openai client', () => {
  it('speaks in wav, mp3, opus and flac with the Voice the edge uses', async () => {
    const { parseBuffer } = await import('music-metadata');
    const want = { wav: 'WAVE', mp3: 'MPEG', opus: 'Ogg', flac: 'FLAC' } as const;
    for (const format of Object.keys(want) as (keyof typeof want)[]) {
      const res = await client().audio.speech.create({
        model: 'avatar-tts',
        voice: 'alloy',
        input: 'Hello there, how are you today?',
        response_format: format,
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await parseBuffer(bytes);
      expect(meta.format.container ?? '', format).toContain(want[format]);
      expect(meta.format.duration ?? 0, format).toBeGreaterThan(1);
    }
  });

  it('refuses a voice it does not have, naming the ones it has', async () => {
    const err = await client()
      .audio.speech.create({ model: 'avatar-tts', voice: 'nobody' as never, input: 'hi' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((err as Error).message)).toContain('slt');
  });
});

describe('audio/transcriptions with the openai client', () => {
  it('transcribes speech the Voice made, with segments from voice activity', async () => {
    const speech = await client().audio.speech.create({
      model: 'avatar-tts',
      voice: 'slt',
      input: 'Hello world. This is a test of the emulator.',
      response_format: 'wav',
    });
    const wav = Buffer.from(await speech.arrayBuffer());
    const available = (
      await h.api('/api/model-status', { key: h.emu.keys.dashboardKey })
    ).body.models.find((m: { model_id: string }) => m.model_id === 'avatar-asr').enabled;
    const call = client().audio.transcriptions.create({
      model: 'avatar-asr',
      file: await toFile(wav, 'speech.wav'),
      response_format: 'verbose_json',
    });
    if (!available) {
      // No recogniser on this machine: an honest 503 naming what to install, never invented words.
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
      expect(String((err as Error).message)).toContain('pocketsphinx');
      return;
    }
    const t = await call;
    expect((t as unknown as { task: string }).task).toBe('transcribe');
    expect(t.duration).toBeGreaterThan(1.5);
    expect(t.text.toLowerCase()).toMatch(/hello|world|test/);
    expect(t.segments!.length).toBeGreaterThan(0);
    for (const s of t.segments!) {
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.end).toBeLessThanOrEqual(t.duration + 0.01);
    }
    const plain = await client().audio.transcriptions.create({
      model: 'avatar-asr',
      file: await toFile(wav, 'speech.wav'),
      response_format: 'text',
    });
    expect(String(plain).trim()).toBe(t.text);
  }, 30_000);

  it('refuses a file that is not audio', async () => {
    const err = await client()
      .audio.transcriptions.create({
        model: 'avatar-asr',
        file: await toFile(Buffer.from('not audio at all'), 'x.wav'),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect([400, 503]).toContain((err as InstanceType<typeof OpenAI.APIError>).status);
  });
});
