/**
 * The emulator's operator routes (ours, never under /api/v1; docs/emulator.md): health, the
 * manual clock, the fleet, the queue, the webhook log, generation faults, an organisation's
 * plan, session recordings. A new operator route is one `operator(...)` entry here, listed
 * in `operatorOperations`, and one handler registered with `implement` (the emulator).
 */
import { z } from 'zod';
import { defineOperation, type HttpMethod, type Operation, type ResponseSpec } from '../operation.js';
import {
  ClockAdvanceBody,
  GenerationFaultBody,
  OrgPlanBody,
  OrgPlanParams,
  RecordingParams,
  RecordingsParams,
} from '../resources/operator.js';

const Json = z.record(z.string(), z.unknown());

export function operator<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType>(
  id: string,
  method: HttpMethod,
  path: `/_emulator/${string}`,
  summary: string,
  more: Partial<Operation<P, Q, B>> = {},
): Operation<P, Q, B> {
  const responses: Record<number, ResponseSpec> = more.responses ?? { 200: { description: 'OK', schema: Json } };
  return defineOperation<P, Q, B>({ id, method, path, summary, auth: 'public', family: 'operator', cli: false, ...more, responses });
}

export const health = operator('emulator.health', 'get', '/_emulator/health', 'Liveness, version, start time');
export const clock = operator('emulator.clock', 'get', '/_emulator/clock', 'The clock: now_ms, manual or not');
export const clockAdvance = operator('emulator.clockAdvance', 'post', '/_emulator/clock/advance', 'Advance a manual clock by ms (409 clock_not_manual otherwise)', {
  body: ClockAdvanceBody,
});
export const boxes = operator('emulator.boxes', 'get', '/_emulator/boxes', 'The fleet: boxes, seats, protocols');
export const boxCredential = operator('emulator.boxCredential', 'post', '/_emulator/boxes', 'Issue a credential for a box in another process', {
  responses: { 201: { description: '{ box_id, secret }', schema: Json } },
});
export const queueDrain = operator('emulator.queueDrain', 'post', '/_emulator/queue/drain', 'Drop every waiting and claimable ticket (queue.dropped, reason drained)');
export const queue = operator('emulator.queue', 'get', '/_emulator/queue', 'Queue size and waiting count');
export const webhookDeliveries = operator('emulator.webhookDeliveries', 'get', '/_emulator/webhooks/deliveries', 'The webhook delivery log');
export const generationFaults = operator('emulator.generationFaults', 'post', '/_emulator/generations/faults', 'Fail the next count speak/design renders at a stage (null clears)', {
  body: GenerationFaultBody,
});
export const generationVoices = operator('emulator.generationVoices', 'get', '/_emulator/generations/voices', 'Voice references kept: measured shape, transcript');
export const generations = operator('emulator.generations', 'get', '/_emulator/generations', 'Render cells, remote media switch, fault');
export const orgPlan = operator('emulator.orgPlan', 'post', '/_emulator/orgs/{orgId}/plan', "Set an organisation's plan (its inference rate limits)", {
  params: OrgPlanParams,
  body: OrgPlanBody,
});
export const recordings = operator('emulator.recordings', 'get', '/_emulator/sessions/{id}/recordings', "A session's recordings (after it ended)", {
  params: RecordingsParams,
});
export const recording = operator('emulator.recording', 'get', '/_emulator/sessions/{id}/recordings/{name}', 'One recording file', {
  params: RecordingParams,
  responses: { 200: { description: 'The file (video/mp4, audio/wav, application/json)', contentType: 'application/octet-stream' } },
});

export const operatorOperations = [
  health, clock, clockAdvance, boxes, boxCredential, queueDrain, queue, webhookDeliveries,
  generationFaults, generationVoices, generations, orgPlan, recordings, recording,
];
