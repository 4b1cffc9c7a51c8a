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
      paths: Record<string, Record<string, { operationId: string; 'x-scopes'?: string[]; requestBody?: unknown }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const op of operations) {
      const item = doc.paths[op.path]?.[op.method];
      expect(item?.operationId, `${op.method} ${op.path}`).toBe(op.id);
      if (op.auth !== 'public') expect(item?.['x-scopes']).toEqual(op.auth.anyOf);
      if (op.body) expect(item?.requestBody).toBeDefined();
    }
    // Resource shapes of spec 2 come from the same zod schemas.
    expect(Object.keys(doc.components.schemas.Token!.properties!)).toEqual([
      'id', 'name', 'token_prefix', 'scopes', 'status', 'workspace_id', 'kind', 'allowed_origins', 'created_at',
    ]);
  });
});
