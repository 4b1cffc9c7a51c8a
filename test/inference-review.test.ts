import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';

// Issue 11 review: what a new user sees when a field is missing or malformed.
const clock = new ManualClock();
const h = useEmulator({ clock, jobConcurrency: 1, inferenceRateLimits: false });
const key = () => h.emu.keys.dashboardKey;

describe('missing and malformed fields', () => {
  it('a missing field is named as required, on jobs, compat-b and compat-a alike', async () => {
    const job = await h.api('/api/jobs', {
      key: key(),
      body: { model_id: 'avatar-embed', task: 'embedding', payload: {} },
    });
    expect(job.status).toBe(400);
    expect(job.body.error).toMatchObject({ code: 'invalid_request', param: 'payload.input' });
    expect(job.body.error.message).toMatch(/^payload\.input: required/);
    const slug = await h.api('/compat-b/embed-v1', { key: key(), body: {} });
    expect(slug.status).toBe(400);
    expect(slug.body.error.message).toMatch(/^input: required/);
    const chat = await h.api('/compat-a/v1/chat/completions', {
      key: key(),
      body: { model: 'avatar-chat' },
    });
    expect(chat.status).toBe(400);
    expect(chat.body.error).toMatchObject({ param: 'messages' });
    expect(chat.body.error.message).toMatch(/^messages: required/);
  });

  it('an image size or audio URL the job could never use is refused at submission, not failed later', async () => {
    const size = await h.api('/compat-b/image-v1', {
      key: key(),
      body: { prompt: 'a kite', size: 'bogus' },
    });
    expect(size.status).toBe(400);
    expect(size.body.error).toMatchObject({ code: 'invalid_request', param: 'size' });
    expect(size.body.error.message).toContain('WIDTHxHEIGHT');
    const job = await h.api('/api/jobs', {
      key: key(),
      body: {
        model_id: 'avatar-image',
        task: 'text-to-image',
        payload: { prompt: 'x', size: '10x10' },
      },
    });
    expect(job.status).toBe(400);
    expect(job.body.error).toMatchObject({ param: 'payload.size' });
    const audio = await h.api('/compat-b/asr-v1', {
      key: key(),
      body: { audio_url: 'http://example.com/a.wav' },
    });
    expect(audio.status).toBe(400);
    expect(audio.body.error).toMatchObject({ param: 'audio_url' });
  });
});

describe('files and batches lists as a new user reads them', () => {
  class Tty extends Writable {
    text = '';
    isTTY = true;
    columns = 80;
    override _write(chunk: Buffer, _enc: string, cb: () => void) {
      this.text += chunk.toString();
      cb();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'avatar-review11-'));
  const tty = async (...argv: string[]) => {
    const stdout = new Tty();
    const stderr = new Tty();
    const env = emulatorEnv(h);
    const code = await run(argv, { stdout, stderr, env, cwd: dir });
    return { code, stdout: stdout.text, stderr: stderr.text };
  };

  it('files list is a table of the files, and batches list fits an 80-column terminal', async () => {
    const line = {
      custom_id: 'one',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'avatar-chat', messages: [{ role: 'user', content: 'hi' }] },
    };
    writeFileSync(join(dir, 'in.jsonl'), JSON.stringify(line) + '\n');
    const up = await cli(['--json', 'files', 'upload', 'in.jsonl'], emulatorEnv(h), dir);
    const fileId = up.json().id as string;
    const files = await tty('files', 'list');
    expect(files.code, files.stderr).toBe(0);
    expect(files.stdout).not.toContain('[{"id"');
    expect(files.stdout).toMatch(new RegExp(`${fileId}.*in\\.jsonl`));
    const created = await tty(
      'batches',
      'create',
      '--input',
      fileId,
      '--endpoint',
      '/v1/chat/completions',
    );
    expect(created.code, created.stderr).toBe(0);
    const list = await tty('batches', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('batch_');
    // How many lines failed is what a user looks for first; it stays when columns are dropped.
    expect(list.stdout.split('\n')[1]).toMatch(/│ failed +│/);
    for (const out of [files.stdout, created.stdout, list.stdout]) {
      for (const line of out.trimEnd().split('\n'))
        expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });
});

describe('organisation token scopes', () => {
  it('refuses a control-plane scope an organisation token could never use, naming the inference scopes', async () => {
    const org = (await h.api('/api/organizations', { key: key() })).body.data[0].id as string;
    const r = await h.api(`/api/organizations/${org}/tokens`, {
      key: key(),
      body: { name: 'ci', scopes: ['user:read', 'sessions:write'] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: 'invalid_request',
      param: 'scopes',
      type: 'invalid_request_error',
    });
    expect(r.body.error.message).toContain('sessions:write');
    expect(r.body.error.message).toContain('user:read, user:write, admin:read, admin:write');
    const ok = await h.api(`/api/organizations/${org}/tokens`, {
      key: key(),
      body: { name: 'ci', scopes: ['user:read', 'admin:write'] },
    });
    expect(ok.status).toBe(201);
  });
});

describe('workflow templates at create time', () => {
  it('refuses an expression left open (${nodes.a with no closing brace) instead of sending it as text', async () => {
    const dag = {
      nodes: {
        a: { model_id: 'avatar-chat', task: 'prompt-rewrite', payload: { prompt: 'a kite' } },
        b: {
          model_id: 'avatar-embed',
          task: 'embedding',
          payload: { input: 'about ${nodes.a.result.prompt' },
        },
      },
      edges: [],
    };
    const r = await h.api('/api/workflows', { key: key(), body: { name: 'open', dag } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_workflow', param: 'dag.nodes.b' });
    expect(r.body.error.message).toContain('no closing }');
  });
});

describe('workflow payloads at create time', () => {
  const create = (nodes: unknown) =>
    h.api('/api/workflows', { key: key(), body: { name: 'p', dag: { nodes, edges: [] } } });
  it('a node payload missing a required field is refused at create, templated or not; a template stands in for any value', async () => {
    const missing = await create({
      a: { model_id: 'avatar-embed', task: 'embedding', payload: { dimensions: 64 } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'invalid_workflow',
      param: 'dag.nodes.a.payload.input',
    });
    expect(missing.body.error.message).toContain('required');
    const inMap = await create({
      m: {
        type: 'map',
        items: '${input.xs}',
        node: { model_id: 'avatar-rerank', task: 'rerank', payload: { query: '${item}' } },
      },
    });
    expect(inMap.status).toBe(400);
    expect(inMap.body.error.param).toBe('dag.nodes.m.node.payload.documents');
    const badStatic = await create({
      a: {
        model_id: 'avatar-image',
        task: 'text-to-image',
        payload: { prompt: 'kite', size: 'huge' },
      },
    });
    expect(badStatic.status).toBe(400);
    expect(badStatic.body.error.param).toBe('dag.nodes.a.payload.size');
    const templated = await create({
      a: {
        model_id: 'avatar-image',
        task: 'text-to-image',
        payload: { prompt: '${input.p}', size: '${input.size}', n: '${input.n}' },
      },
    });
    expect(templated.status, JSON.stringify(templated.body)).toBe(201);
  });
});

describe('workflow execution inputs', () => {
  it('an execution missing an input its nodes read is refused at once, naming the input', async () => {
    const dag = {
      nodes: {
        rewrite: {
          model_id: 'avatar-chat',
          task: 'prompt-rewrite',
          payload: { prompt: '${input.subject}' },
        },
        shots: {
          type: 'map',
          items: '${input.angles}',
          node: { model_id: 'avatar-embed', task: 'embedding', payload: { input: '${item}' } },
        },
      },
      edges: [],
    };
    const w = await h.api('/api/workflows', { key: key(), body: { name: 'inputs', dag } });
    expect(w.status).toBe(201);
    const missing = await h.api(`/api/workflows/${w.body.workflow.id}/execute`, {
      key: key(),
      body: { input_params: { subject: 'a harbour' } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'invalid_request',
      param: 'input_params.angles',
    });
    expect(missing.body.error.message).toContain('shots');
    const ok = await h.api(`/api/workflows/${w.body.workflow.id}/execute`, {
      key: key(),
      body: { input_params: { subject: 'a harbour', angles: ['north'] } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.execution.status).toBe('pending');
  });
});
