import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/contract/operations/index.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator();

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (standard validator)', async () => {
    const res = await h.fetch('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every operation of the contract, with its schemas and scopes', async () => {
    const doc = (await (await h.fetch('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { operationId: string; 'x-scopes'?: string[]; requestBody?: unknown }>
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const op of operations) {
      const item = doc.paths[op.path]?.[op.method];
      expect(item?.operationId, `${op.method} ${op.path}`).toBe(op.id);
      if (typeof op.auth !== 'string') expect(item?.['x-scopes']).toEqual(op.auth.anyOf);
      if (op.body) expect(item?.requestBody).toBeDefined();
    }
    // Resource shapes of spec 2 come from the same zod schemas.
    expect(Object.keys(doc.components.schemas.Token!.properties!)).toEqual([
      'id',
      'name',
      'token_prefix',
      'scopes',
      'status',
      'workspace_id',
      'kind',
      'allowed_origins',
      'created_at',
    ]);
  });

  it("states a raw body's byte limit: the file upload's is the 100 MiB file plus its form", async () => {
    type Item = { requestBody?: { description?: string } };
    const doc = (await (await h.fetch('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, Item>>;
    };
    const limit = (path: string) => doc.paths[path]?.post?.requestBody?.description;
    expect(limit('/compat-a/v1/files')).toMatch(`at most ${100 * 1024 * 1024 + 64 * 1024} bytes`);
    expect(limit('/compat-a/v1/audio/transcriptions')).toMatch(`at most ${50 * 1024 * 1024} bytes`);
  });

  it('describes the errors each operation can answer, in the spec envelope', async () => {
    type Item = {
      responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
    };
    const doc = (await (await h.fetch('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, Item>>;
    };
    const envelope = (item: Item, status: string) =>
      item.responses[status]?.content?.['application/json']?.schema?.$ref;
    for (const op of operations) {
      const item = doc.paths[op.path]![op.method]!;
      const where = `${op.method} ${op.path}`;
      if (op.auth !== 'public') {
        expect(envelope(item, '401'), where).toBe('#/components/schemas/Error');
        expect(envelope(item, '403'), where).toBe('#/components/schemas/Error');
      }
      if (op.body || op.query)
        expect(envelope(item, '400'), where).toBe('#/components/schemas/Error');
      if (op.body || op.rawBody)
        expect(envelope(item, '413'), where).toBe('#/components/schemas/Error');
      if (op.params) expect(envelope(item, '404'), where).toBe('#/components/schemas/Error');
    }
    // Both gallery media routes honour Range.
    for (const path of ['/api/gallery/{id}/face', '/api/gallery/{id}/intro']) {
      expect(Object.keys(doc.paths[path]!.get!.responses)).toEqual(
        expect.arrayContaining(['200', '206', '416']),
      );
    }
  });
});
