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

const Json = z.record(z.string(), z.unknown());

const OK = { 200: { description: 'OK', schema: Json } } as const;

/**
 * One operator route. Generic over its responses (`OK`, a loose JSON object, when it names
 * none), so OutputOf reads the literal schemas.
 */
export function operator<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses = typeof OK,
>(
  id: string,
  method: HttpMethod,
  path: `/_emulator/${string}`,
  summary: string,
  more: Partial<Operation<P, Q, B, R>> = {},
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
    responses: more.responses ?? (OK as unknown as R),
  });
}

export const health = operator(
  'emulator.health',
  'get',
  '/_emulator/health',
  'Liveness, version, start time (no credential)',
  { auth: 'public' },
);
export const clock = operator(
  'emulator.clock',
  'get',
  '/_emulator/clock',
  'The clock: now_ms, now, frozen, drivable, manual',
);
export const clockFreeze = operator(
  'emulator.clockFreeze',
  'post',
  '/_emulator/clock/freeze',
  'Freeze the clock (409 clock_not_drivable for a clock of its own)',
);
export const clockResume = operator(
  'emulator.clockResume',
  'post',
  '/_emulator/clock/resume',
  'Let a frozen clock run again (409 clock_manual for a ManualClock)',
);
export const clockAdvance = operator(
  'emulator.clockAdvance',
  'post',
  '/_emulator/clock/advance',
  'Advance the clock by ms, firing every timer that falls due, in order',
  {
    body: ClockAdvanceBody,
  },
);
export const stateExport = operator(
  'emulator.stateExport',
  'get',
  '/_emulator/state/export',
  'The state document: every table and blob',
);
export const stateImport = operator(
  'emulator.stateImport',
  'post',
  '/_emulator/state/import',
  'Replace the state with a document from state/export (409 state_too_new)',
  {
    // A JSON document, larger than any other body (its blobs are base64).
    rawBody: { contentTypes: ['application/json'], maxBytes: Limits.stateDocumentBytes },
  },
);
export const stateReset = operator(
  'emulator.stateReset',
  'post',
  '/_emulator/state/reset',
  'Empty the state, keeping the bootstrap keys unless keep_keys is false',
  {
    body: StateResetBody,
  },
);
export const logs = operator(
  'emulator.logs',
  'get',
  '/_emulator/logs',
  'The operator log: sessions ended, events, faults hit (after a seq, of a session)',
  {
    query: LogsQuery,
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
  },
);
export const faultsList = operator(
  'emulator.faults',
  'get',
  '/_emulator/faults',
  'The HTTP faults, with their hits and what is left of their count',
);
export const faultsAdd = operator(
  'emulator.faultsAdd',
  'post',
  '/_emulator/faults',
  'Add an HTTP fault (status and/or latency on the routes it names)',
  {
    body: FaultSpec,
    responses: { 201: { description: 'The fault, with its id', schema: Json } },
  },
);
export const faultsClear = operator(
  'emulator.faultsClear',
  'delete',
  '/_emulator/faults',
  'Remove every HTTP fault',
);
export const faultsRemove = operator(
  'emulator.faultsRemove',
  'delete',
  '/_emulator/faults/{id}',
  'Remove one HTTP fault',
  { params: FaultParams },
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
  },
);
export const jobs = operator(
  'emulator.jobs',
  'get',
  '/_emulator/jobs',
  "The inference family's jobs and workflow executions (newest 100 each), every organisation",
);
export const boxes = operator(
  'emulator.boxes',
  'get',
  '/_emulator/boxes',
  'The fleet: boxes, seats, protocols',
);
export const boxCredential = operator(
  'emulator.boxCredential',
  'post',
  '/_emulator/boxes',
  'Issue a credential for a box in another process',
  {
    responses: { 201: { description: '{ box_id, secret }', schema: Json } },
  },
);
export const queueDrain = operator(
  'emulator.queueDrain',
  'post',
  '/_emulator/queue/drain',
  'Drop every waiting and claimable ticket (queue.dropped, reason drained)',
);
export const queue = operator(
  'emulator.queue',
  'get',
  '/_emulator/queue',
  'Queue size and waiting count',
);
export const webhookDeliveries = operator(
  'emulator.webhookDeliveries',
  'get',
  '/_emulator/webhooks/deliveries',
  'The webhook delivery log',
);
export const generationFaults = operator(
  'emulator.generationFaults',
  'post',
  '/_emulator/generations/faults',
  'Fail the next count speak/design renders at a stage (null clears)',
  {
    body: GenerationFaultBody,
  },
);
export const generationVoices = operator(
  'emulator.generationVoices',
  'get',
  '/_emulator/generations/voices',
  'Voice references kept: measured shape, transcript',
);
export const generations = operator(
  'emulator.generations',
  'get',
  '/_emulator/generations',
  'Render cells, remote media switch, fault',
);
export const orgPlan = operator(
  'emulator.orgPlan',
  'post',
  '/_emulator/orgs/{orgId}/plan',
  "Set an organisation's plan (its inference rate limits)",
  {
    params: OrgPlanParams,
    body: OrgPlanBody,
  },
);
export const recordings = operator(
  'emulator.recordings',
  'get',
  '/_emulator/sessions/{id}/recordings',
  "A session's recordings (after it ended)",
  {
    params: RecordingsParams,
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
