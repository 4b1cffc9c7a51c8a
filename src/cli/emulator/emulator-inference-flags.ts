import { readData } from '../read-data.js';
import type { EmulatorFlag } from './emulator-flag.js';

/**
 * `avatar emulator start` flags of the inference family (issue 11; docs/inference.md):
 * the worker pool size and OpenAI-compatible upstreams standing in for model ids.
 */
function upstreams(v: string): unknown {
  const value = readData(v, process.cwd(), '--inference-upstream');
  const bad = (why: string) =>
    new Error(
      `--inference-upstream: ${why}; e.g. {"big-chat":{"baseUrl":"http://127.0.0.1:8000/v1","model":"llama3"}}`,
    );
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw bad('a JSON object of model id -> { baseUrl, apiKey?, model? }');
  for (const [id, up] of Object.entries(value as Record<string, unknown>)) {
    const u = up as Record<string, unknown> | null;
    if (
      !u ||
      typeof u !== 'object' ||
      typeof u.baseUrl !== 'string' ||
      !/^https?:\/\//.test(u.baseUrl)
    )
      throw bad(`${id}.baseUrl must be an http(s) URL`);
    for (const k of ['apiKey', 'model'] as const)
      if (u[k] !== undefined && typeof u[k] !== 'string') throw bad(`${id}.${k} must be a string`);
  }
  return value;
}

function concurrency(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`--job-concurrency must be an integer from 1 to 64 (got ${v})`);
  return n;
}

export const inferenceFlags: EmulatorFlag[] = [
  {
    flags: '--job-concurrency <n>',
    description: 'inference worker pool size: jobs processed at once (1 to 64)',
    option: 'jobConcurrency',
    parse: concurrency,
    default: 2,
  },
  {
    flags: '--inference-upstream <json|@file>',
    description:
      'OpenAI-compatible APIs answering compat-a for model ids: {"<model id>":{"baseUrl":"http://host/v1","apiKey":"...","model":"..."}}',
    option: 'inferenceUpstreams',
    parse: upstreams,
  },
];
