/**
 * The emulator's operator routes (ours, never under /api/v1; docs/emulator.md): health, the
 * manual clock, the fleet, the queue, the webhook log, generation faults, an organisation's
 * plan, session recordings. A new operator route is one `operator(...)` entry here, listed
 * in `operatorOperations`, and one handler registered with `implement` (the emulator).
 */
import { z } from 'zod';
import { Limits } from '../limits.js';
import { defineOperation, type HttpMethod, type Operation, type Responses } from '../operation.js';
import {
  ClockAdvanceBody,
  FaultParams,
  FaultSpec,
  LogsQuery,
  StateResetBody,
  TriggerParams,
  UiChatBody,
  GenerationFaultBody,
  OrgPlanBody,
  OrgPlanParams,
  RecordingParams,
  RecordingsParams,
} from '../resources/operator.js';
import { LoadedScript } from '../resources/script.js';
import {
  BoxCredentialSchema,
  BoxListSchema,
  ClockStateSchema,
  FaultListSchema,
  FaultsRemovedSchema,
  FaultViewSchema,
  GenerationFaultSetSchema,
  GenerationsSchema,
  GenerationVoicesSchema,
  HealthSchema,
  LogsSchema,
  OperatorJobsSchema,
  OperatorSessionListSchema,
  OrgPlanSetSchema,
  QueueDrainedSchema,
  QueueStateSchema,
  RecordingListSchema,
  StateDocumentSchema,
  StateImportedSchema,
  StateResetSchema,
  TriggerResultSchema,
  WebhookDeliveryListSchema,
} from '../resources/operator-responses.js';
import { ChatReplySchema } from './boxes.js';

const Json = z.record(z.string(), z.unknown());

/**
 * One operator route. Its responses are required (contract/resources/operator-responses.ts)
 * and generic, so OutputOf reads the literal schemas.
 */
export function operator<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(
  id: string,
  method: HttpMethod,
  path: `/_emulator/${string}`,
  summary: string,
  more: Partial<Operation<P, Q, B, R>> & { responses: R },
): Operation<P, Q, B, R> {
  return defineOperation<P, Q, B, R>({
    id,
    method,
    path,
    summary,
    auth: 'operator',
    family: 'operator',
    cli: false,
    ...more,
    responses: more.responses,
  });
}

export const health = operator(
  'emulator.health',
  'get',
  '/_emulator/health',
  'Liveness, version, start time (no credential)',
  { auth: 'public', responses: { 200: { description: 'Alive', schema: HealthSchema } } },
);
export const clock = operator(
  'emulator.clock',
  'get',
  '/_emulator/clock',
  'The clock: now_ms, now, frozen, drivable, manual',
  { responses: { 200: { description: 'The clock', schema: ClockStateSchema } } },
);
export const clockFreeze = operator(
  'emulator.clockFreeze',
  'post',
  '/_emulator/clock/freeze',
  'Freeze the clock (409 clock_not_drivable for a clock of its own)',
  { responses: { 200: { description: 'The clock, frozen', schema: ClockStateSchema } } },
);
export const clockResume = operator(
  'emulator.clockResume',
  'post',
  '/_emulator/clock/resume',
  'Let a frozen clock run again (409 clock_manual for a ManualClock)',
  { responses: { 200: { description: 'The clock, running', schema: ClockStateSchema } } },
);
export const clockAdvance = operator(
  'emulator.clockAdvance',
  'post',
  '/_emulator/clock/advance',
  'Advance the clock by ms, firing every timer that falls due, in order',
  {
    body: ClockAdvanceBody,
    responses: { 200: { description: 'The clock, advanced', schema: ClockStateSchema } },
  },
);
export const stateExport = operator(
  'emulator.stateExport',
  'get',
  '/_emulator/state/export',
  'The state document: every table and blob',
  { responses: { 200: { description: 'The state document', schema: StateDocumentSchema } } },
);
export const stateImport = operator(
  'emulator.stateImport',
  'post',
  '/_emulator/state/import',
  'Replace the state with a document from state/export (409 state_too_new)',
  {
    // A JSON document, larger than any other body (its blobs are base64).
    rawBody: { contentTypes: ['application/json'], maxBytes: Limits.stateDocumentBytes },
    responses: {
      200: { description: 'Imported; the bootstrap keys', schema: StateImportedSchema },
    },
  },
);
export const stateReset = operator(
  'emulator.stateReset',
  'post',
  '/_emulator/state/reset',
  'Empty the state, keeping the bootstrap keys unless keep_keys is false',
  {
    body: StateResetBody,
    responses: { 200: { description: 'Emptied; the bootstrap keys', schema: StateResetSchema } },
  },
);
export const logs = operator(
  'emulator.logs',
  'get',
  '/_emulator/logs',
  'The operator log: sessions ended, events, faults hit (after a seq, of a session)',
  {
    query: LogsQuery,
    responses: {
      200: { description: 'Entries after `after`, and the last seq', schema: LogsSchema },
    },
  },
);
export const trigger = operator(
  'emulator.trigger',
  'post',
  '/_emulator/triggers/{name}',
  'Make something happen now: fill-seats, free-seats, drain-queue, webhook, end-session, expire-token, drop-ticket, fail-speak',
  {
    params: TriggerParams,
    body: Json.optional(),
    responses: { 200: { description: 'What the trigger did', schema: TriggerResultSchema } },
  },
);
export const faultsList = operator(
  'emulator.faults',
  'get',
  '/_emulator/faults',
  'The HTTP faults, with their hits and what is left of their count',
  { responses: { 200: { description: 'The faults', schema: FaultListSchema } } },
);
export const faultsAdd = operator(
  'emulator.faultsAdd',
  'post',
  '/_emulator/faults',
  'Add an HTTP fault (status and/or latency on the routes it names)',
  {
    body: FaultSpec,
    responses: { 201: { description: 'The fault, with its id', schema: FaultViewSchema } },
  },
);
export const faultsClear = operator(
  'emulator.faultsClear',
  'delete',
  '/_emulator/faults',
  'Remove every HTTP fault',
  { responses: { 200: { description: 'How many were removed', schema: FaultsRemovedSchema } } },
);
export const faultsRemove = operator(
  'emulator.faultsRemove',
  'delete',
  '/_emulator/faults/{id}',
  'Remove one HTTP fault',
  {
    params: FaultParams,
    responses: { 200: { description: 'How many were removed (1)', schema: FaultsRemovedSchema } },
  },
);
export const ui = operator(
  'emulator.ui',
  'get',
  '/_emulator/ui',
  'The playground page (loopback only; no credential: it carries the one it was given)',
  {
    auth: 'public',
    responses: { 200: { description: 'The page', contentType: 'text/html' } },
  },
);
export const uiScript = operator(
  'emulator.uiScript',
  'get',
  '/_emulator/ui/app.js',
  "The playground's script (no credential)",
  {
    auth: 'public',
    responses: { 200: { description: 'The bundle', contentType: 'text/javascript' } },
  },
);
/**
 * The emulator's icon at the conventional root path (not under /_emulator/: a browser asks
 * for /favicon.ico on any page it opens here), so no page load logs a 404. Ours.
 */
export const favicon = defineOperation({
  id: 'emulator.favicon',
  method: 'get',
  path: '/favicon.ico',
  summary: "The emulator's icon (no credential)",
  auth: 'public',
  family: 'operator',
  cli: false,
  responses: { 200: { description: 'A 32x32 icon', contentType: 'image/x-icon' } },
});
export const uiChat = operator(
  'emulator.uiChat',
  'post',
  '/_emulator/ui/chat',
  "The playground's v1 typed-turn relay to a box's POST /chat (this emulator's boxes only)",
  {
    body: UiChatBody,
    responses: { 200: { description: "The box's answer to POST /chat", schema: ChatReplySchema } },
  },
);
export const sessionsList = operator(
  'emulator.sessions',
  'get',
  '/_emulator/sessions',
  'Sessions of every workspace, newest first (`avatar sessions list`)',
  {
    query: z.object({
      all: z.enum(['true', 'false']).optional().describe('true: ended sessions too'),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(1000)
        .optional()
        .describe('at most this many (default 50)'),
    }),
    responses: {
      200: { description: 'Sessions, newest first', schema: OperatorSessionListSchema },
    },
  },
);
export const jobs = operator(
  'emulator.jobs',
  'get',
  '/_emulator/jobs',
  "The inference family's jobs and workflow executions (newest 100 each), every organisation",
  { responses: { 200: { description: 'Jobs and executions', schema: OperatorJobsSchema } } },
);
export const boxes = operator(
  'emulator.boxes',
  'get',
  '/_emulator/boxes',
  'The fleet: boxes, seats, protocols',
  { responses: { 200: { description: 'The boxes', schema: BoxListSchema } } },
);
export const boxCredential = operator(
  'emulator.boxCredential',
  'post',
  '/_emulator/boxes',
  'Issue a credential for a box in another process',
  {
    responses: { 201: { description: '{ box_id, secret }', schema: BoxCredentialSchema } },
  },
);
export const queueDrain = operator(
  'emulator.queueDrain',
  'post',
  '/_emulator/queue/drain',
  'Drop every waiting and claimable ticket (queue.dropped, reason drained)',
  {
    responses: {
      200: { description: 'How many tickets were dropped', schema: QueueDrainedSchema },
    },
  },
);
export const queue = operator(
  'emulator.queue',
  'get',
  '/_emulator/queue',
  'Queue size and waiting count',
  { responses: { 200: { description: 'The queue', schema: QueueStateSchema } } },
);
export const webhookDeliveries = operator(
  'emulator.webhookDeliveries',
  'get',
  '/_emulator/webhooks/deliveries',
  'The webhook delivery log',
  { responses: { 200: { description: 'The delivery log', schema: WebhookDeliveryListSchema } } },
);
export const generationFaults = operator(
  'emulator.generationFaults',
  'post',
  '/_emulator/generations/faults',
  'Fail the next count speak/design renders at a stage (null clears)',
  {
    body: GenerationFaultBody,
    responses: {
      200: { description: 'The fault now set (null: none)', schema: GenerationFaultSetSchema },
    },
  },
);
export const generationVoices = operator(
  'emulator.generationVoices',
  'get',
  '/_emulator/generations/voices',
  'Voice references kept: measured shape, transcript',
  {
    responses: {
      200: {
        description: 'Voice references, least recently used first',
        schema: GenerationVoicesSchema,
      },
    },
  },
);
export const generations = operator(
  'emulator.generations',
  'get',
  '/_emulator/generations',
  'Render cells, remote media switch, fault',
  { responses: { 200: { description: 'Render state', schema: GenerationsSchema } } },
);
export const orgPlan = operator(
  'emulator.orgPlan',
  'post',
  '/_emulator/orgs/{orgId}/plan',
  "Set an organisation's plan (its inference rate limits)",
  {
    params: OrgPlanParams,
    body: OrgPlanBody,
    responses: { 200: { description: 'The plan set', schema: OrgPlanSetSchema } },
  },
);
export const recordings = operator(
  'emulator.recordings',
  'get',
  '/_emulator/sessions/{id}/recordings',
  "A session's recordings (after it ended)",
  {
    params: RecordingsParams,
    responses: {
      200: { description: "The session's recording files", schema: RecordingListSchema },
    },
  },
);
export const recording = operator(
  'emulator.recording',
  'get',
  '/_emulator/sessions/{id}/recordings/{name}',
  'One recording file',
  {
    params: RecordingParams,
    responses: {
      200: {
        description: 'The file (video/mp4, audio/wav, application/json)',
        contentType: 'application/octet-stream',
      },
    },
  },
);

/** Conversation scripts (docs/testing.md "Conversation scripts"; contract/resources/script.ts). */
export const scriptsList = operator(
  'emulator.scripts',
  'get',
  '/_emulator/scripts',
  'The loaded conversation scripts, in load order',
  {
    responses: {
      200: {
        description: '{ data: LoadedScript[] }',
        schema: z.object({ data: z.array(LoadedScript) }),
      },
    },
  },
);
export const scriptsLoad = operator(
  'emulator.scriptsLoad',
  'post',
  '/_emulator/scripts',
  'Load conversation scripts: one script, or { scripts: [...] }; all or nothing (400 naming request:line: field); a loaded name is replaced',
  {
    // Read as text with the line of every node, so a problem names its line in the body.
    rawBody: { contentTypes: ['application/json'], maxBytes: Limits.jsonBodyBytes },
    description:
      'The body is one script or { scripts: [...] } (contract/resources/script.ts ScriptFile; schemas/script.schema.json).',
    responses: {
      200: {
        description: '{ loaded: names, data: LoadedScript[] (every loaded script) }',
        schema: z.object({ loaded: z.array(z.string()), data: z.array(LoadedScript) }),
      },
    },
  },
);
export const scriptsClear = operator(
  'emulator.scriptsClear',
  'delete',
  '/_emulator/scripts',
  'Forget every loaded script (running sessions keep the one their mint chose)',
  {
    responses: {
      200: { description: '{ cleared: n }', schema: z.object({ cleared: z.number().int() }) },
    },
  },
);

export const operatorOperations = [
  health,
  clock,
  clockFreeze,
  clockResume,
  clockAdvance,
  boxes,
  boxCredential,
  queueDrain,
  queue,
  webhookDeliveries,
  generationFaults,
  generationVoices,
  generations,
  orgPlan,
  recordings,
  recording,
  stateExport,
  stateImport,
  stateReset,
  logs,
  trigger,
  faultsList,
  faultsAdd,
  faultsClear,
  faultsRemove,
  scriptsList,
  scriptsLoad,
  scriptsClear,
  ui,
  uiScript,
  favicon,
  uiChat,
  sessionsList,
  jobs,
];
