import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';
import { settle, waitUntil } from './helpers/wait.js';

// Workflows (spec 4.12) on a manual clock: each tick moves time one second and lets the
// worker pool and the engine run, so node order shows in the recorded times.
const clock = new ManualClock();
const h = useEmulator({ clock, jobConcurrency: 4, inferenceRateLimits: false });
const tick = async () => {
  clock.advance(1000);
  await settle();
};
const key = () => h.emu.keys.dashboardKey;
const create = (dag: unknown) => h.api('/api/workflows', { key: key(), body: { name: 'wf', dag } });
const execution = async (id: string) =>
  (await h.api(`/api/workflows/executions/${id}`, { key: key() })).body.execution;
async function run(dag: unknown, input_params: unknown) {
  const wf = await create(dag);
  expect(wf.status, JSON.stringify(wf.body)).toBe(201);
  const ex = await h.api(`/api/workflows/${wf.body.workflow.id}/execute`, {
    key: key(),
    body: { input_params },
  });
  expect(ex.status).toBe(201);
  return ex.body.execution as {
    id: string;
    status: string;
    workflow_id: string;
    input_params: unknown;
    created_at: number;
  };
}
async function finish(id: string) {
  let e: any;
  // Images are compressed in zlib's thread pool, outside the clock: tick until it ends.
  await waitUntil(async () => {
    e = await execution(id);
    if (['completed', 'failed', 'cancelled'].includes(e.status)) return true;
    await tick();
    return false;
  }, 20_000);
  return e;
}

describe('workflow DAGs', () => {
  it('runs a diamond: both branches after the root, the join after both', async () => {
    const ex = await run(
      {
        nodes: {
          root: {
            model_id: 'avatar-chat',
            task: 'prompt-rewrite',
            payload: { prompt: '${input.topic}' },
          },
          left: {
            model_id: 'avatar-rerank',
            task: 'rerank',
            payload: {
              query: '${input.topic}',
              documents: ['${nodes.root.result.prompt}', 'tax forms for 2025'],
            },
          },
          right: {
            model_id: 'avatar-embed',
            task: 'embedding',
            payload: { input: '${nodes.root.result.prompt}' },
          },
          join: {
            model_id: 'avatar-rerank',
            task: 'score',
            payload: {
              text_1: '${nodes.left.result.results[0].document}',
              text_2: ['${input.topic}', 'unrelated words'],
            },
          },
        },
        edges: [['right', 'join'], { from: 'left', to: 'join' }],
      },
      { topic: 'a lighthouse at night' },
    );
    expect(ex).toMatchObject({
      status: 'pending',
      input_params: { topic: 'a lighthouse at night' },
    });
    const done = await finish(ex.id);
    expect(done.status).toBe('completed');
    const n = done.nodes;
    expect(n.left.result.results[0].document).toMatch(/^A lighthouse at night/);
    expect(n.right.result.embeddings[0]).toHaveLength(384);
    expect(n.join.result.scores[0]).toBeGreaterThan(n.join.result.scores[1]);
    expect(n.left.started_at).toBeGreaterThanOrEqual(n.root.completed_at);
    expect(n.right.started_at).toBeGreaterThanOrEqual(n.root.completed_at);
    expect(n.join.started_at).toBeGreaterThanOrEqual(
      Math.max(n.left.completed_at, n.right.completed_at),
    );
    expect(n.root.started_at).toBeLessThan(n.join.started_at);
  });

  it('expands $each inline in a payload array', async () => {
    const ex = await run(
      {
        nodes: {
          embed: {
            model_id: 'avatar-embed',
            task: 'embedding',
            payload: { input: [{ $each: '${input.docs}', template: 'doc ${item.title}' }] },
          },
        },
        edges: [],
      },
      { docs: [{ title: 'one' }, { title: 'two' }, { title: 'three' }] },
    );
    const done = await finish(ex.id);
    expect(done.status).toBe('completed');
    expect(done.nodes.embed.result.embeddings).toHaveLength(3);
  });

  const mapDag = (tolerance: number) => ({
    nodes: {
      pictures: {
        type: 'map',
        items: '${input.prompts}',
        node: {
          model_id: 'avatar-image',
          task: 'text-to-image',
          payload: { prompt: '${item}', size: '64x64' },
        },
        max_concurrency: 2,
        tolerance,
      },
      after: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'done' } },
    },
    edges: [['pictures', 'after']],
  });
  const prompts = ['red', 'green', '', 'blue', 'gold'];

  it('a map node within tolerance completes, with null for the failed item and its error', async () => {
    const ex = await run(mapDag(0.2), { prompts });
    // max_concurrency 2: never more than two sub-jobs submitted and unfinished at once.
    let peak = 0;
    for (let i = 0; i < 10; i++) {
      await tick();
      const p = (await execution(ex.id)).nodes.pictures;
      if (p.progress)
        peak = Math.max(peak, p.job_ids.length - p.progress.completed - p.progress.failed);
    }
    expect(peak).toBe(2);
    const done = await finish(ex.id);
    expect(done.status).toBe('completed');
    const p = done.nodes.pictures;
    expect(p.progress).toEqual({ total: 5, completed: 4, failed: 1 });
    expect(p.result[2]).toBeNull();
    expect(p.result[0].images[0].url).toContain('/inference/media/');
    expect(p.error).toMatchObject({
      code: 'partial_failure',
      item_errors: [{ index: 2, code: 'invalid_payload' }],
    });
    expect(done.nodes.after.status).toBe('completed');
  });

  it('a map node over tolerance fails the execution and names the error; later nodes are skipped', async () => {
    const ex = await run(mapDag(0), { prompts });
    const done = await finish(ex.id);
    expect(done.status).toBe('failed');
    expect(done.nodes.pictures.status).toBe('failed');
    expect(done.nodes.pictures.error.code).toBe('tolerance_exceeded');
    expect(done.error.message).toContain('pictures');
    expect(done.nodes.after.status).toBe('skipped');
  });

  it('cancel stops a running execution: its running node and jobs are cancelled, the rest skipped', async () => {
    const ex = await run(mapDag(0.5), {
      prompts: Array.from({ length: 12 }, (_, i) => `colour ${i}`),
    });
    await tick();
    const cancelled = await h.api(`/api/workflows/executions/${ex.id}/cancel`, {
      key: key(),
      method: 'POST',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.execution.status).toBe('cancelled');
    await tick();
    await tick();
    const after = await execution(ex.id);
    expect(after.status).toBe('cancelled');
    expect(after.nodes.pictures.status).toBe('cancelled');
    expect(after.nodes.pictures.progress.completed).toBeLessThan(12);
    expect(after.nodes.after.status).toBe('skipped');
    const again = await h.api(`/api/workflows/executions/${ex.id}/cancel`, {
      key: key(),
      method: 'POST',
    });
    expect(again.status).toBe(409);
  });
});

describe('workflow validation at create time', () => {
  const embed = (input: string) => ({
    model_id: 'avatar-embed',
    task: 'embedding',
    payload: { input },
  });
  it.each([
    [
      'a cycle',
      { nodes: { a: embed('x'), b: embed('${nodes.a.result.embeddings}') }, edges: [['b', 'a']] },
      'cycle',
    ],
    [
      'a reference to no node',
      { nodes: { a: embed('${nodes.ghost.result}') }, edges: [] },
      'ghost',
    ],
    ['an edge to no node', { nodes: { a: embed('x') }, edges: [['a', 'zzz']] }, 'zzz'],
    ['an unknown model', { nodes: { a: { model_id: 'gpt-9', task: 'chat' } }, edges: [] }, 'gpt-9'],
    ['${item} outside a map', { nodes: { a: embed('${item}') }, edges: [] }, 'item'],
    [
      'tolerance above 1',
      {
        nodes: { m: { type: 'map', items: '${input.x}', node: embed('${item}'), tolerance: 2 } },
        edges: [],
      },
      'tolerance',
    ],
  ])('refuses %s', async (_, dag, word) => {
    const r = await create(dag);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_workflow');
    expect(r.body.error.message).toContain(word);
  });
});
