import type { Context } from 'hono';
import { catalog, findModel, type CatalogModel, type Task } from '../catalog.js';
import type { Upstream } from '../models/local-models.js';
import type { InferenceServices } from '../services.js';
import { InferenceError, invalid } from '../shared/errors.js';
import { own } from '../../../contract/own.js';

export type Resolved =
  | { kind: 'local'; model: CatalogModel }
  | { kind: 'upstream'; upstream: Upstream; id: string };

/**
 * Which model answers: an upstream configured for this id first (it may replace a local
 * model or add a new id), else the catalog. Unknown ids are 404 `not_found` naming the
 * models that exist; a model asked for a task it does not do is 400.
 */
export function resolveModel(svc: InferenceServices, id: unknown, task: Task): Resolved {
  if (typeof id !== 'string' || id === '') throw invalid('model: required', 'model');
  const upstream = own(svc.upstreams, id);
  if (upstream) return { kind: 'upstream', upstream, id };
  const model = findModel(id);
  if (!model) {
    const fits = catalog.filter((m) => m.tasks.includes(task)).map((m) => m.id);
    throw new InferenceError(
      404,
      'not_found',
      `model ${id} not found; for ${task} use ${fits.join(' or ')}`,
      { param: 'model' },
    );
  }
  if (!model.tasks.includes(task)) {
    throw invalid(`model ${id} does not do ${task} (it does ${model.tasks.join(', ')})`, 'model');
  }
  return { kind: 'local', model };
}

/**
 * Forward a request to an OpenAI-compatible upstream and stream its answer back as is
 * (status, content type, body: SSE included). Network failures are 502 `upstream_error`.
 */
export async function forward(
  up: Upstream,
  path: string,
  body: { json: Record<string, unknown> } | { raw: Uint8Array; contentType: string },
  signal?: AbortSignal,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (up.apiKey) headers.authorization = `Bearer ${up.apiKey}`;
  let payload: BodyInit;
  if ('json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(up.model ? { ...body.json, model: up.model } : body.json);
  } else {
    headers['content-type'] = body.contentType;
    payload = Buffer.from(body.raw);
  }
  let res: Response;
  try {
    res = await fetch(up.baseUrl.replace(/\/+$/, '') + path, {
      method: 'POST',
      headers,
      body: payload,
      signal,
    });
  } catch (e) {
    throw new InferenceError(
      502,
      'upstream_error',
      `upstream ${up.baseUrl} unreachable: ${(e as Error).message}`,
    );
  }
  const out = new Headers();
  for (const h of ['content-type', 'content-length', 'retry-after']) {
    const v = res.headers.get(h);
    if (v) out.set(h, v);
  }
  return new Response(res.body, { status: res.status, headers: out });
}

/**
 * The binder's `before` (server/binder.ts) of a compat-a JSON operation: the model is
 * resolved before the body is validated (an unknown model is a 404 whatever the rest), and a
 * body for an upstream model is passed on as sent: the upstream judges it. `fallback` is the
 * model when the body names none.
 */
export function passToUpstream(
  svc: InferenceServices,
  task: Task,
  path: string,
  fallback?: string,
) {
  return (raw: unknown, c: Context): Promise<Response> | undefined => {
    const id = (raw as { model?: unknown } | null)?.model ?? fallback;
    const target = resolveModel(svc, id, task);
    if (target.kind === 'local') return undefined;
    return forward(
      target.upstream,
      path,
      { json: raw as Record<string, unknown> },
      c.req.raw.signal,
    );
  };
}

/** The local model of a request `passToUpstream` kept here. */
export function localModel(svc: InferenceServices, id: string, task: Task): CatalogModel {
  const target = resolveModel(svc, id, task);
  if (target.kind !== 'local') throw new Error(`model ${id} is an upstream's (passToUpstream)`);
  return target.model;
}
