import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  documentedStatuses,
  judgeAnswer,
  judgeFrame,
  firstMismatch,
} from '../src/cli/doctor/checks.js';
import { edgeSockets } from '../src/contract/edge/messages.js';
import { listWorkspaces } from '../src/contract/operations/core.js';
import { operationById } from '../src/contract/operations/index.js';
import type { AnyOperation } from '../src/contract/operation.js';

/** The judgements of `avatar doctor`, one answer or frame at a time (the wire tests are doctor*.test.ts). */
const json = { 'content-type': 'application/json' };
const workspace = {
  id: '6f1f1d7e-8a55-4c2e-9d3a-0d7c1f0e2b11',
  name: 'Default',
  plan: 'free',
  owner_user_id: '1b0e8c57-9d7a-4f2e-8b1e-3c9a7e6d5f40',
  created_at: 1_700_000_000,
  updated_at: null,
};

describe('judgeAnswer', () => {
  const op = listWorkspaces as unknown as AnyOperation;

  it('a matching body is ok; a field of the wrong type is the first mismatch with its path', () => {
    expect(
      judgeAnswer(op, { status: 200, headers: json, body: { data: [workspace] } }),
    ).toMatchObject({
      result: 'ok',
    });
    const wrong = { data: [{ ...workspace, created_at: '2023-11-14' }] };
    expect(judgeAnswer(op, { status: 200, headers: json, body: wrong })).toMatchObject({
      result: 'fail',
      detail: '$.data[0].created_at: expected number, got string',
      mismatch: { path: '$.data[0].created_at', message: 'expected number, got string' },
    });
  });

  it('a 4xx is judged against the family envelope: the inference shape on a control route fails', () => {
    const inferenceShaped = {
      error: { code: 'not_found', message: 'no', type: 'invalid_request_error' },
    };
    expect(judgeAnswer(op, { status: 404, headers: json, body: inferenceShaped })).toMatchObject({
      result: 'fail',
      mismatch: { path: '$.error', message: '404 answer: expected string, got object' },
    });
    const models = operationById('compatA.models')!;
    const refused = {
      error: { code: 'invalid_api_key', message: 'no', type: 'authentication_error' },
    };
    expect(judgeAnswer(models, { status: 401, headers: json, body: refused })).toMatchObject({
      result: 'skip',
      detail: 'the key may not call it: 401 invalid_api_key',
    });
  });

  it('a 4xx in a good envelope is ok only where the OpenAPI document lists it (404: ids in the path)', () => {
    const documented = documentedStatuses([op, operationById('versions.voice-sample')!]);
    const notFound = { status: 404, headers: json, body: { error: 'not_found' } };
    expect(
      judgeAnswer(
        operationById('versions.voice-sample')!,
        notFound,
        documented.get('versions.voice-sample'),
      ),
    ).toMatchObject({ result: 'ok', detail: '404 not_found (documented)' });
    expect(judgeAnswer(op, notFound, documented.get(op.id))).toMatchObject({
      result: 'fail',
      detail: '$: status 404 not_found is not documented',
    });
  });

  it('a 5xx in a good envelope still fails; an empty error body fails', () => {
    expect(
      judgeAnswer(op, { status: 503, headers: json, body: { error: 'fleet_busy' } }),
    ).toMatchObject({ result: 'fail', detail: '$: status 503 fleet_busy' });
    expect(judgeAnswer(op, { status: 400, headers: {}, body: undefined })).toMatchObject({
      result: 'fail',
      mismatch: { path: '$' },
    });
  });

  it('a response declared without a schema says "no schema"; a wrong content type fails', () => {
    const bare = {
      ...op,
      responses: { 200: { description: 'anything' } },
    } as unknown as AnyOperation;
    expect(judgeAnswer(bare, { status: 200, headers: json, body: { x: 1 } })).toMatchObject({
      result: 'ok',
      detail: '200, no schema',
    });
    const face = operationById('gallery.face')!;
    expect(
      judgeAnswer(face, {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: new Uint8Array(3),
      }),
    ).toMatchObject({ result: 'fail', detail: '$: expected image/png, got text/html' });
  });
});

describe('firstMismatch', () => {
  it('names a literal it expected and an extra field of a strict object', () => {
    expect(firstMismatch(z.object({ kind: z.literal('a') }), { kind: 'b' })).toEqual({
      path: '$.kind',
      message: 'expected "a", got "b"',
    });
    expect(firstMismatch(z.object({ a: z.number() }).strict(), { a: 1, 'b-c': 2 })).toEqual({
      path: '$["b-c"]',
      message: 'unexpected field',
    });
  });
});

describe('judgeFrame', () => {
  const v2 = edgeSockets.find((s) => s.path === '/v2/session')!;
  const mse = edgeSockets.find((s) => s.path === '/mse')!;

  it('names the message a frame is, by its type', () => {
    expect(judgeFrame(v2, JSON.stringify({ type: 'chat_ack', speech_id: 's1' }), false)).toEqual({
      message: 'V2ChatAck',
    });
    expect(judgeFrame(mse, JSON.stringify({ mime: 'video/mp4' }), false)).toEqual({
      message: 'MseInit',
    });
    expect(judgeFrame(v2, Buffer.from([0x01, 0, 0]), true)).toEqual({ message: 'V2MediaFrame' });
  });

  it('a known type with a wrong field, a wrong binary tag, text that is not JSON', () => {
    expect(judgeFrame(v2, JSON.stringify({ type: 'pong', session_ms: 'soon' }), false)).toEqual({
      mismatch: { path: '$.session_ms', message: 'expected number, got string (V2Pong)' },
    });
    expect(judgeFrame(v2, Buffer.from([0x07, 0]), true)).toEqual({
      mismatch: { path: '$[0]', message: 'binary tag 0x07, expected 0x01 (media)' },
    });
    expect(judgeFrame(v2, 'not json', false)).toEqual({
      mismatch: { path: '$', message: 'a text frame that is not JSON' },
    });
  });
});
