// Inference family (issue 11): chat streaming (first-token latency, tokens/s), job
// submissions/s through the worker pool, and a 100-item map node's wall time, each printed
// next to a reference measured in the same run. Runs against dist/; asserts nothing.
import { Agent, request } from 'undici';
import { startEmulator } from '../dist/emulator/start.js';

const CHATS = Number(process.env.BENCH_CHATS ?? 50);
const JOBS = Number(process.env.BENCH_JOBS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });

const emu = await startEmulator({
  port: 0,
  inMemory: true,
  inferenceRateLimits: false,
  jobConcurrency: 2,
});
const auth = {
  authorization: `Bearer ${emu.keys.dashboardKey}`,
  'content-type': 'application/json',
};
const call = async (method, path, body) => {
  const r = await request(emu.baseUrl + path, {
    method,
    headers: auth,
    body: body && JSON.stringify(body),
    dispatcher,
  });
  return r.body.json();
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (label, value, ref) =>
  console.log(`${label.padEnd(46)} ${value.padStart(14)}   reference: ${ref}`);

async function pool(n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

// 1. Chat streaming: time to the first content delta and tokens per second of the stream;
//    reference: the round trip of a trivial authenticated GET (the HTTP floor).
{
  const messages = [
    { role: 'system', content: 'You are Ava, a museum guide who loves paintings and tea.' },
    { role: 'user', content: 'Hello Ava! Tell me about yourself and what you like.' },
  ];
  const first = [];
  const rates = [];
  const floor = [];
  for (let i = 0; i < CHATS; i++) {
    let t0 = performance.now();
    await call('GET', '/api/model-status');
    floor.push(performance.now() - t0);
    t0 = performance.now();
    const r = await request(emu.baseUrl + '/compat-a/v1/chat/completions', {
      method: 'POST',
      headers: auth,
      dispatcher,
      body: JSON.stringify({
        model: 'avatar-chat',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    let tFirst = 0;
    let tokens = 0;
    let buf = '';
    for await (const part of r.body) {
      buf += part.toString();
      let nl;
      while ((nl = buf.indexOf('\n\n')) >= 0) {
        const event = buf.slice(0, nl).replace(/^data: /, '');
        buf = buf.slice(nl + 2);
        if (event === '[DONE]') continue;
        const chunk = JSON.parse(event);
        if (!tFirst && chunk.choices?.[0]?.delta?.content) tFirst = performance.now() - t0;
        if (chunk.usage) tokens = chunk.usage.completion_tokens;
      }
    }
    const total = (performance.now() - t0) / 1000;
    first.push(tFirst);
    rates.push(tokens / total);
  }
  row(
    `chat stream first token (median of ${CHATS})`,
    `${median(first).toFixed(2)} ms`,
    `GET /api/model-status ${median(floor).toFixed(2)} ms`,
  );
  row(
    'chat stream tokens/s (median)',
    `${Math.round(median(rates))} tok/s`,
    'a local brain: bounded by HTTP and SSE framing',
  );
}

// 2. Job submissions per second (POST /api/jobs, accepted and queued) while the pool of 2
//    works; reference: API requests per second (GET /api/model-status), same concurrency.
{
  let t0 = performance.now();
  await pool(JOBS, () => call('GET', '/api/model-status'));
  const apiRate = JOBS / ((performance.now() - t0) / 1000);
  const ids = [];
  t0 = performance.now();
  await pool(JOBS, async (i) => {
    ids[i] = (
      await call('POST', '/api/jobs', {
        model_id: 'avatar-embed',
        task: 'embedding',
        payload: { input: `text number ${i}` },
      })
    ).id;
  });
  const submitRate = JOBS / ((performance.now() - t0) / 1000);
  const last = ids[ids.length - 1];
  while ((await call('GET', `/api/jobs/${last}`)).status !== 'completed')
    await new Promise((r) => setTimeout(r, 10));
  const drained = JOBS / ((performance.now() - t0) / 1000);
  row(
    `job submissions/s (${JOBS}, ${CONCURRENCY} clients)`,
    `${Math.round(submitRate)} /s`,
    `GET requests ${Math.round(apiRate)} /s`,
  );
  row(
    'jobs completed/s through the pool (2 workers)',
    `${Math.round(drained)} /s`,
    'submission rate above',
  );
}

// 3. A 100-item map node (text-to-image 64x64, max_concurrency 8) end to end; reference:
//    the same 100 images as direct compat-a calls, one after another.
{
  const items = Array.from({ length: 100 }, (_, i) => `picture ${i}`);
  let t0 = performance.now();
  for (const p of items)
    await call('POST', '/compat-a/v1/images/generations', {
      model: 'avatar-image',
      prompt: p,
      size: '64x64',
    });
  const direct = performance.now() - t0;
  const wf = await call('POST', '/api/workflows', {
    name: 'bench',
    dag: {
      nodes: {
        m: {
          type: 'map',
          items: '${input.items}',
          node: {
            model_id: 'avatar-image',
            task: 'text-to-image',
            payload: { prompt: '${item}', size: '64x64' },
          },
          max_concurrency: 8,
        },
      },
      edges: [],
    },
  });
  t0 = performance.now();
  const ex = (
    await call('POST', `/api/workflows/${wf.workflow.id}/execute`, { input_params: { items } })
  ).execution;
  let status = 'pending';
  while (!['completed', 'failed', 'cancelled'].includes(status)) {
    status = (await call('GET', `/api/workflows/executions/${ex.id}`)).execution.status;
    if (status === 'pending' || status === 'running') await new Promise((r) => setTimeout(r, 5));
  }
  row(
    `100-item map node wall time (${status})`,
    `${Math.round(performance.now() - t0)} ms`,
    `100 direct calls in sequence ${Math.round(direct)} ms`,
  );
}

await emu.stop();
await dispatcher.close();
