/**
 * Hostile input to the contract validators: whatever arrives (a JSON document nested
 * tens of thousands of levels deep is one `JSON.parse` away), the answer is the spec 7
 * code, never a thrown error.
 */
import { describe, expect, it } from 'vitest';
import {
  checkAgentPayload,
  validateAgent,
  validateConfig,
  validateTools,
} from '../src/contract/validators/index.js';

/** `{"a":{"a":...leaf...}}` parsed from text, `levels` deep (as a request body would arrive). */
const deep = (levels: number, leaf = '1'): unknown =>
  JSON.parse('{"a":'.repeat(levels) + leaf + '}'.repeat(levels));

describe('validators on deeply nested input', () => {
  const huge = deep(50_000);

  it('config: a deep value is config_too_large, in both vocabularies', () => {
    expect(validateConfig({ greeting_enabled: huge }, 'session')).toMatchObject({
      ok: false,
      status: 400,
      error: 'invalid_config',
      detail: 'config_too_large',
    });
    expect(validateConfig(huge, 'profile')).toMatchObject({
      ok: false,
      status: 400,
      error: 'invalid_config_json',
      detail: 'config_too_large',
    });
  });

  it('tools: a deep input_schema is schema_too_large:<name>', () => {
    const def = {
      name: 'lookup',
      description: 'd',
      input_schema: { type: 'object', properties: huge },
    };
    expect(validateTools({ inline: [def] })).toMatchObject({
      ok: false,
      status: 400,
      error: 'schema_too_large:lookup',
    });
  });

  it('agent: a deep extra key is agent_claim_too_large', () => {
    expect(validateAgent({ hook: 'https://hooks.example/a', v: huge })).toMatchObject({
      ok: false,
      status: 400,
      error: 'agent_claim_too_large',
    });
  });

  it('tools plus context: a deep context is agent_payload_too_large', () => {
    expect(checkAgentPayload({ servers: [] }, { memory: huge })).toMatchObject({
      ok: false,
      status: 400,
      error: 'agent_payload_too_large',
    });
  });
});
