import { z } from 'zod';
import type { AnyOperation } from './operation.js';
import { schemaRegistry } from './registry.js';
import { ErrorBodySchema } from './resources/common.js';
import { InferenceErrorSchema } from './resources/inference.js';

type Json = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/**
 * Convert a zod schema to an OpenAPI 3.1 schema object (JSON Schema 2020-12). Named
 * schemas of the registry become `$ref`s into `components.schemas`, collected in `defs`.
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output', defs: Json): Json {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    metadata: schemaRegistry,
    unrepresentable: 'any',
  }) as Json;
  const local = (out.$defs ?? {}) as Json;
  delete out.$defs;
  delete out.$schema;
  for (const [name, def] of Object.entries(local)) defs[name] ??= rewriteRefs(def);
  return rewriteRefs(out) as Json;
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    const res: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/'))
        res[k] = REF_PREFIX + v.slice(8);
      else res[k] = rewriteRefs(v);
    }
    return res;
  }
  return node;
}

function parameters(op: AnyOperation, defs: Json): Json[] {
  const list: Json[] = [];
  const add = (where: 'path' | 'query', obj: z.ZodObject | undefined) => {
    if (!obj) return;
    for (const [name, field] of Object.entries(obj.shape)) {
      const f = field as z.ZodType;
      list.push({
        name,
        in: where,
        required: where === 'path' ? true : !f.safeParse(undefined).success,
        schema: toSchema(f, 'input', defs),
      });
    }
  };
  add('path', op.params);
  add('query', op.query);
  return list;
}

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Secret (`avatar_<8hex>.<56hex>`), publishable (`pk_...`, Origin-checked) or device (`dt_...`) key (spec 5).',
  },
  operator: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The emulator's operator credential: the operator token (`op_<hex>`, printed at start; kept in the data dir across restarts) or the emulator's own secret or dashboard key (docs/security.md). Every `/_emulator/*` route but health and the playground page's GETs.",
  },
};

/** The edge's own routes are served at the box's base URL (the session's `ws_url` host). */
const EDGE_SERVER = {
  url: '{edge}',
  description: "an edge box (the host of the session's ws_url)",
  variables: { edge: { default: 'http://127.0.0.1:4781' } },
};

/** Build the OpenAPI 3.1 document of the given operations (served at /api/v1/openapi.json). */
export function buildOpenApiDocument(
  ops: readonly AnyOperation[],
  info: { version: string },
): Json {
  const defs: Json = {};
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    const item: Json = {
      operationId: op.id,
      summary: op.summary,
      tags: [op.id.split('.')[0]],
      parameters: parameters(op, defs),
      responses: {},
    };
    if (op.description) item.description = op.description;
    const family = op.family ?? 'control';
    item['x-family'] = family;
    if (family === 'edge') item.servers = [EDGE_SERVER];
    if (op.auth === 'public') item.security = [];
    else if (op.auth === 'operator') item.security = [{ operator: [] }];
    else {
      item.security = [{ bearer: [] }];
      item['x-scopes'] = op.auth.anyOf;
    }
    if (op.body) {
      item.requestBody = {
        required: !op.body.safeParse(undefined).success,
        content: { 'application/json': { schema: toSchema(op.body, 'input', defs) } },
      };
    } else if (op.rawBody) {
      item.requestBody = {
        required: true,
        description: `at most ${op.rawBody.maxBytes} bytes (413 payload_too_large over it)`,
        content: Object.fromEntries(
          op.rawBody.contentTypes.map((t) => [
            t,
            { schema: { type: 'string', contentMediaType: t } },
          ]),
        ),
      };
    }
    const responses = item.responses as Json;
    for (const [status, r] of Object.entries(op.responses)) {
      const res: Json = { description: r.description };
      if (r.schema)
        res.content = { 'application/json': { schema: toSchema(r.schema, 'output', defs) } };
      else if (r.contentType)
        res.content = {
          [r.contentType]: { schema: { type: 'string', contentMediaType: r.contentType } },
        };
      if (r.stream) {
        // OpenAPI 3.1 has no schema for one event; `x-event-data` is each `data:` line's JSON.
        const content = (res.content ?? {}) as Json;
        res.content = content;
        content[r.stream.contentType] = {
          schema: { type: 'string', contentMediaType: r.stream.contentType },
          'x-event-data': toSchema(r.stream.schema, 'output', defs),
        };
      }
      if (r.headers) {
        res.headers = Object.fromEntries(
          Object.entries(r.headers).map(([h, d]) => [
            h,
            { description: d, schema: { type: 'string' } },
          ]),
        );
      }
      responses[status] = res;
    }
    // Each family answers failures in its own envelope (spec 7).
    const envelope = family === 'inference' ? InferenceErrorSchema : ErrorBodySchema;
    const error = (description: string) => ({
      description,
      content: { 'application/json': { schema: toSchema(envelope, 'output', defs) } },
    });
    // The generic failures every route shares (docs/architecture.md "Errors decided here").
    for (const [status, description, applies] of [
      [
        '400',
        'invalid_json, invalid_request (with detail), or a route-specific code',
        Boolean(op.body || op.query),
      ],
      [
        '401',
        'unauthorized: missing, malformed, unknown or revoked key',
        op.auth !== 'public' || family === 'edge',
      ],
      [
        '403',
        'forbidden (missing scope or workspace), origin_not_allowed (publishable key)',
        op.auth !== 'public',
      ],
      ['404', 'not_found: no such resource (or a malformed id)', Boolean(op.params)],
      ['413', 'payload_too_large', Boolean(op.body || op.rawBody)],
      ['415', 'unsupported_media_type', Boolean(op.rawBody)],
    ] as const) {
      if (applies) responses[status] ??= error(description);
    }
    if (family === 'inference')
      responses['429'] ??= error(
        'rate_limited: over the plan rate (spec 8); Retry-After says when',
      );
    responses.default ??= error(
      family === 'inference' ? 'Inference error envelope (spec 7)' : 'Error envelope (spec 7)',
    );
    paths[op.path] ??= {};
    paths[op.path]![op.method] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Live Avatar Session and Generation Service (emulator)',
      version: info.version,
      description:
        'Every HTTP route the local emulator serves: the control plane /api/v1 (x-family control), the inference family ' +
        '(x-family inference, its own error envelope), the operator routes /_emulator/* and the internal box API ' +
        "/_internal/* (ours), and the edge's POST /chat (x-family edge, served by a box). Interface version 1 (spec 9).",
    },
    servers: [{ url: '/' }],
    paths,
    components: { schemas: defs, securitySchemes: SECURITY_SCHEMES },
  };
}
