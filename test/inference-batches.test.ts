import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';

// Files and batches through the official openai client (issue 11 "must show").
// A manual clock: batch lines run one per clock step, so the test drives them.
const clock = new ManualClock();
const h = useEmulator({ clock, inferenceRateLimits: false });
const client = () =>
  new OpenAI({
    baseURL: `${h.baseUrl}/compat-a/v1`,
    apiKey: h.emu.keys.dashboardKey,
    maxRetries: 0,
  });
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (done(v)) return v;
    clock.advance(1000);
    for (let j = 0; j < 10; j++) await new Promise((r) => setImmediate(r));
  }
  throw new Error('timed out');
}

describe('files', () => {
  it('uploads, lists, reads back and deletes a file', async () => {
    const f = await client().files.create({
      file: await toFile(Buffer.from('hello\n'), 'hello.jsonl'),
      purpose: 'batch',
    });
    expect(f).toMatchObject({
      object: 'file',
      bytes: 6,
      filename: 'hello.jsonl',
      purpose: 'batch',
      status: 'processed',
    });
    expect(f.id).toMatch(/^file-/);
    const ids = [];
    for await (const x of client().files.list()) ids.push(x.id);
    expect(ids).toContain(f.id);
    expect((await client().files.retrieve(f.id)).filename).toBe('hello.jsonl');
    expect(await (await client().files.content(f.id)).text()).toBe('hello\n');
    expect(await client().files.delete(f.id)).toMatchObject({ id: f.id, deleted: true });
    await expect(client().files.retrieve(f.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  // The upload's own limit is the 100 MB file limit (docs/fidelity.md), not the 50 MiB of
  // the other multipart routes: a 51 MiB file is stored, a body over the limit is a 413.
  const upload = (bytes: Uint8Array<ArrayBuffer>) => {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([bytes]), 'big.jsonl');
    return fetch(`${h.baseUrl}/compat-a/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.emu.keys.dashboardKey}` },
      body: form,
    });
  };
  it('stores a 51 MiB file', async () => {
    const r = await upload(new Uint8Array(51 * 1024 * 1024).fill(0x61));
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ object: 'file', bytes: 51 * 1024 * 1024 });
  });
  it('refuses a file over 100 MiB with 413 payload_too_large in the inference envelope', async () => {
    const r = await upload(new Uint8Array(100 * 1024 * 1024 + 64 * 1024 + 1));
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });
});

describe('batches', () => {
  it('answers each line with the same local model a direct call uses; failures go to the error file', async () => {
    const input = jsonl([
      {
        custom_id: 'a',
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'avatar-embed', input: 'the cat sat' },
      },
      {
        custom_id: 'b',
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'avatar-embed', input: ['x', 'y'] },
      },
      {
        custom_id: 'c',
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'no-such-model', input: 'x' },
      },
    ]);
    const file = await client().files.create({
      file: await toFile(Buffer.from(input), 'in.jsonl'),
      purpose: 'batch',
    });
    const batch = await client().batches.create({
      input_file_id: file.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
    });
    expect(batch).toMatchObject({ object: 'batch', status: 'validating', input_file_id: file.id });
    const done = await until(
      () => client().batches.retrieve(batch.id),
      (b) => b.status === 'completed',
    );
    expect(done.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const out = (await (await client().files.content(done.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((l) => l.custom_id)).toEqual(['a', 'b']);
    const direct = await client().embeddings.create({
      model: 'avatar-embed',
      input: 'the cat sat',
      encoding_format: 'float',
    });
    expect(out[0].response.status_code).toBe(200);
    expect(out[0].response.body.data[0].embedding).toEqual(direct.data[0]!.embedding);
    const errs = (await (await client().files.content(done.error_file_id!)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({
      custom_id: 'c',
      response: { status_code: 404, body: { error: { code: 'not_found' } } },
    });
    const listed = [];
    for await (const b of client().batches.list()) listed.push(b.id);
    expect(listed).toContain(batch.id);
  });

  it('a malformed input file fails the batch with line errors', async () => {
    const input =
      '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{}}\nnot json\n';
    const file = await client().files.create({
      file: await toFile(Buffer.from(input), 'bad.jsonl'),
      purpose: 'batch',
    });
    const batch = await client().batches.create({
      input_file_id: file.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
    });
    const done = await until(
      () => client().batches.retrieve(batch.id),
      (b) => b.status !== 'validating',
    );
    expect(done.status).toBe('failed');
    expect(done.errors!.data!.map((e) => [e.code, e.line])).toEqual([
      ['mismatched_url', 1],
      ['invalid_json_line', 2],
    ]);
  });

  it('cancel stops a batch between lines and keeps what was done', async () => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      custom_id: `n${i}`,
      method: 'POST',
      url: '/v1/embeddings',
      body: { model: 'avatar-embed', input: `text ${i}` },
    }));
    const file = await client().files.create({
      file: await toFile(Buffer.from(jsonl(lines)), 'five.jsonl'),
      purpose: 'batch',
    });
    const batch = await client().batches.create({
      input_file_id: file.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
    });
    await until(
      () => client().batches.retrieve(batch.id),
      (b) => b.request_counts!.completed >= 1,
    );
    const cancelling = await client().batches.cancel(batch.id);
    expect(cancelling.status).toBe('cancelling');
    const done = await until(
      () => client().batches.retrieve(batch.id),
      (b) => b.status === 'cancelled',
    );
    expect(done.request_counts!.completed).toBeLessThan(5);
    const out = (await (await client().files.content(done.output_file_id!)).text())
      .trim()
      .split('\n');
    expect(out).toHaveLength(done.request_counts!.completed);
    await expect(client().batches.cancel(batch.id)).rejects.toBeInstanceOf(OpenAI.ConflictError);
  });

  it('refuses an unknown input file or endpoint at create time', async () => {
    await expect(
      client().batches.create({
        input_file_id: 'file-nope',
        endpoint: '/v1/embeddings',
        completion_window: '24h',
      }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const f = await client().files.create({
      file: await toFile(Buffer.from('{}\n'), 'x.jsonl'),
      purpose: 'batch',
    });
    await expect(
      client().batches.create({
        input_file_id: f.id,
        endpoint: '/v1/moderations' as never,
        completion_window: '24h',
      }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});
