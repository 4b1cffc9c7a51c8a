import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

// The inference CLI groups (issue 11) in-process against a real emulator.
const h = useEmulator({ inferenceRateLimits: false });
const dir = mkdtempSync(join(tmpdir(), 'avatar-inference-cli-'));
const env = () => emulatorEnv(h);
const run = (...argv: string[]) => cli(argv, env(), dir);

describe('avatar chat, embed, tts, images, rerank, models', () => {
  it('chat streams the reply to stdout and reports usage on stderr', async () => {
    const r = await run('chat', 'Hello, who are you?');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/prompt \+ \d+ completion tokens/);
    const j = await run('--json', 'chat', 'Hello');
    expect(j.json().object).toBe('chat.completion');
  });

  it('embed, tts -o, images generate -o, rerank and models do what they say', async () => {
    const e = await run('--json', 'embed', 'the cat', 'a cat', '--dimensions', '32');
    expect(e.json().data[0].embedding).toHaveLength(32);
    const t = await run('tts', 'Hello from the command line', '-o', 'hello.wav');
    expect(t.code, t.stderr).toBe(0);
    expect(readFileSync(join(dir, 'hello.wav')).subarray(0, 4).toString()).toBe('RIFF');
    const i = await run(
      'images',
      'generate',
      'a',
      'red',
      'kite',
      '-o',
      'kite.png',
      '--size',
      '64x64',
      '--n',
      '2',
    );
    expect(i.code, i.stderr).toBe(0);
    expect(readFileSync(join(dir, 'kite.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(existsSync(join(dir, 'kite-2.png'))).toBe(true);
    const rr = await run('--json', 'rerank', 'red apple', 'blue sky', 'a red apple pie');
    expect(rr.json().data[0].index).toBe(1);
    const m = await run('models');
    expect(m.stdout).toContain('image-v1');
    expect(m.stdout).toContain('text-to-speech');
  });

  it('bad flags are usage errors (exit 2); API refusals exit 3 with the inference message', async () => {
    expect((await run('images', 'generate', 'x', '-o', 'x.png', '--n', 'zero')).code).toBe(2);
    const r = await run('tts', 'hi', '-o', 'x.wav', '--voice', 'nobody');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('invalid_request');
    expect(r.stderr).toContain('nobody');
  });
});

describe('avatar run, jobs, files, batches, orgs', () => {
  it('run --sync prints the result; jobs submit/get follow a job', async () => {
    const r = await run(
      '--json',
      'run',
      'rerank-v1',
      '--input',
      '{"query":"cat","documents":["dog","cat"]}',
      '--sync',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().result.results[0].document).toBe('cat');
    const s = await run(
      '--json',
      'jobs',
      'submit',
      '--model',
      'avatar-embed',
      '--task',
      'embedding',
      '--payload',
      '{"input":"x"}',
    );
    const id = s.json().id as string;
    let status = '';
    for (let i = 0; i < 50 && status !== 'completed'; i++)
      status = (await run('--json', 'jobs', 'get', id)).json().status;
    expect(status).toBe('completed');
  });

  it('files upload and batches create/get run a JSONL batch', async () => {
    writeFileSync(
      join(dir, 'in.jsonl'),
      JSON.stringify({
        custom_id: 'one',
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'avatar-embed', input: 'hi' },
      }) + '\n',
    );
    const f = await run('--json', 'files', 'upload', 'in.jsonl');
    expect(f.code, f.stderr).toBe(0);
    const b = await run(
      '--json',
      'batches',
      'create',
      '--input',
      f.json().id,
      '--endpoint',
      '/v1/embeddings',
    );
    expect(b.json().status).toBe('validating');
    let batch: any;
    for (let i = 0; i < 50; i++) {
      batch = (await run('--json', 'batches', 'get', b.json().id)).json();
      if (batch.status === 'completed') break;
    }
    expect(batch.request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
    const out = await run('files', 'content', batch.output_file_id);
    expect(JSON.parse(out.stdout.trim()).custom_id).toBe('one');
  });

  it('orgs tokens create shows the secret once; orgs usage sums the requests', async () => {
    const t = await run('orgs', 'tokens', 'create', '--name', 'ci', '--scope', 'user:read');
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/secret \(shown once\): inf_/);
    const list = await run('orgs', 'tokens', 'list');
    expect(list.stdout).not.toMatch(/inf_[0-9a-f]{8}\./);
    const u = await run('--json', 'orgs', 'usage');
    expect(u.json().totals.requests).toBeGreaterThan(5);
  });
});

describe('avatar workflows run', () => {
  const write = (name: string, v: unknown) => writeFileSync(join(dir, name), JSON.stringify(v));
  it('follows each node live and prints the results', async () => {
    write('ok.json', {
      name: 'pictures',
      dag: {
        nodes: {
          rewrite: {
            model_id: 'avatar-chat',
            task: 'prompt-rewrite',
            payload: { prompt: '${input.subject}' },
          },
          picture: {
            model_id: 'avatar-image',
            task: 'text-to-image',
            payload: { prompt: '${nodes.rewrite.result.prompt}', size: '64x64' },
          },
        },
        edges: [],
      },
      input_params: { subject: 'a quiet harbour' },
    });
    const r = await run('workflows', 'run', 'ok.json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/rewrite\s+completed/);
    expect(r.stderr).toMatch(/picture\s+completed/);
    expect(r.stdout).toContain('execution');
    expect(r.stdout).toContain('A quiet harbour');
    expect(r.stdout).toContain('/inference/media/');
  });

  it('prints every item of a node result whole: 20 image URLs, none cut off', async () => {
    write('many.json', {
      name: 'twenty',
      dag: {
        nodes: {
          each: {
            type: 'map',
            items: '${input.prompts}',
            node: {
              model_id: 'avatar-image',
              task: 'text-to-image',
              payload: { prompt: '${item}', size: '64x64' },
            },
          },
        },
        edges: [],
      },
    });
    const prompts = Array.from({ length: 20 }, (_, i) => `harbour ${i}`);
    const r = await run('workflows', 'run', 'many.json', '--input', JSON.stringify({ prompts }));
    expect(r.code, r.stderr).toBe(0);
    const urls = new Set(r.stdout.match(/\S*\/inference\/media\/\S+/g) ?? []);
    expect(urls.size).toBe(20);
    expect(r.stdout).not.toContain('…');
  });

  it('a failed node is named with its error and the command exits 3', async () => {
    write('bad.json', {
      name: 'fails',
      dag: {
        nodes: {
          each: {
            type: 'map',
            items: '${input.prompts}',
            node: {
              model_id: 'avatar-image',
              task: 'text-to-image',
              payload: { prompt: '${item}', size: '64x64' },
            },
          },
        },
        edges: [],
      },
    });
    const r = await run('workflows', 'run', 'bad.json', '--input', '{"prompts":["ok",""]}');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('each: FAILED tolerance_exceeded');
    expect(r.stdout).toContain('item 1: invalid_payload');
    expect(r.stderr).toContain('node each failed');
  });

  it('workflows create refuses a cycle with the service message', async () => {
    write('cycle.json', {
      name: 'c',
      dag: {
        nodes: {
          a: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'x' } },
          b: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'y' } },
        },
        edges: [
          ['a', 'b'],
          ['b', 'a'],
        ],
      },
    });
    const r = await run('workflows', 'create', 'cycle.json');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('cycle');
  });
});

describe('avatar emulator start inference flags', () => {
  it('refuses a bad worker pool size or upstream before starting anything', async () => {
    const a = await run(
      'emulator',
      'start',
      '--in-memory',
      '--port',
      '0',
      '--job-concurrency',
      '0',
    );
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--job-concurrency must be an integer from 1 to 64');
    const b = await run(
      'emulator',
      'start',
      '--in-memory',
      '--port',
      '0',
      '--inference-upstream',
      '{"big":{"baseUrl":"ftp://x"}}',
    );
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('big.baseUrl must be an http(s) URL');
  });
});
