/**
 * What the emulator's operator routes (`/_emulator/*`) answer: ours, not the spec's
 * (docs/operator.md). Read from the handlers (src/emulator/operator, sessions, generations,
 * ui); an entry that mirrors a free-form record (a log entry, a fault, a trigger's result) is
 * a loose object, so a field added there does not break a client. The box routes' answers
 * are beside their operations (contract/operations/boxes.ts).
 */
import { z } from 'zod';
import { ExecutionSchema, JobStatusNames } from './inference-responses.js';
import { SessionStatus } from './session.js';

const unix = z.number().int().describe('Unix seconds');
const ms = z.number().describe('milliseconds on the emulator clock');

export const OkSchema = z.object({ ok: z.literal(true) });

export const HealthSchema = z.object({
  ok: z.literal(true),
  version: z.string(),
  started_at: ms,
  in_memory: z.boolean(),
});

export const ClockStateSchema = z.object({
  now_ms: ms,
  now: z.string().describe('ISO 8601'),
  frozen: z.boolean(),
  drivable: z.boolean(),
  manual: z.boolean(),
});

/** The state document (`GET /_emulator/state/export`; `POST /_emulator/state/import` takes it). */
export const StateDocumentSchema = z.object({
  format: z.string(),
  format_version: z.number().int(),
  emulator_version: z.string(),
  exported_at: ms,
  migrations: z.array(z.number().int()),
  tables: z.record(
    z.string(),
    z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())) }),
  ),
  blobs: z.record(z.string(), z.string().describe('base64')),
});
const BootstrapKeys = z.object({
  workspace_id: z.string(),
  org_id: z.string(),
  secret_key: z.string(),
  dashboard_key: z.string(),
});
export const StateImportedSchema = z.object({ imported: z.literal(true), keys: BootstrapKeys });
export const StateResetSchema = z.object({ reset: z.literal(true), keys: BootstrapKeys });

export const LogEntrySchema = z.looseObject({
  seq: z.number().int(),
  at: z.string().describe('ISO time on the emulator clock'),
  kind: z.enum(['request', 'event', 'session.ended', 'fault']),
  session: z.string().optional(),
});
export const LogsSchema = z.object({ data: z.array(LogEntrySchema), last: z.number().int() });

/** Every trigger names itself; the other fields depend on it (docs/operator.md). */
export const TriggerResultSchema = z.looseObject({ trigger: z.string() });

/** A fault as listed: its spec (route or stream, ...), id, hits and what is left of its count. */
export const FaultViewSchema = z.looseObject({
  id: z.string(),
  hits: z.number().int(),
  remaining: z.number().int().nullable(),
});
export const FaultListSchema = z.object({ data: z.array(FaultViewSchema) });
export const FaultsRemovedSchema = z.object({ removed: z.number().int() });

/** A row of `GET /_emulator/sessions`. */
export const OperatorSessionSchema = z.object({
  id: z.string(),
  status: SessionStatus,
  persona: z.string().nullable(),
  avatar_ref: z.string().nullable(),
  workspace_id: z.string().nullable(),
  box_id: z.string(),
  cap_seconds: z.number().int(),
  created_at: unix,
  started_at: unix.nullable(),
  ended_at: unix.nullable(),
  end_reason: z.string().nullable(),
});
export const OperatorSessionListSchema = z.object({ data: z.array(OperatorSessionSchema) });

const InferenceJobRow = z.looseObject({
  id: z.string(),
  org_id: z.string(),
  source: z.string(),
  model_id: z.string(),
  task: z.string(),
  status: z.enum(JobStatusNames),
  error: z.unknown().describe('{ code, message } of a failed job, else null'),
  created_at: unix,
  started_at: unix.nullable(),
  completed_at: unix.nullable(),
});
export const OperatorJobsSchema = z.object({
  jobs: z.array(InferenceJobRow),
  executions: z.array(ExecutionSchema),
});

export const BoxViewSchema = z.object({
  id: z.string(),
  base_url: z.string(),
  live: z.boolean(),
  seats: z.number().int(),
  held: z.number().int(),
  reserved: z.number().int(),
  free: z.number().int(),
  protocols: z.array(z.number().int()),
  custom_avatars: z.boolean(),
  verified: z.boolean(),
  max_cap_seconds: z.number().int().nullable(),
});
export const BoxListSchema = z.object({ data: z.array(BoxViewSchema) });
export const BoxCredentialSchema = z.object({ box_id: z.string(), secret: z.string() });

export const QueueDrainedSchema = z.object({ ok: z.literal(true), drained: z.number().int() });
export const QueueStateSchema = z.object({
  tickets: z.number().int().describe('waiting and claimable tickets'),
  waiting: z.number().int(),
});

export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  event: z.string(),
  url: z.string(),
  via: z.string(),
  attempts: z.array(
    z.object({ at: ms, status: z.number().int().nullable(), error: z.string().optional() }),
  ),
  outcome: z.enum(['pending', 'delivered', 'failed']),
});
export const WebhookDeliveryListSchema = z.object({ data: z.array(WebhookDeliverySchema) });

const GenerationFault = z
  .object({ stage: z.enum(['tts', 'video']), remaining: z.number().int() })
  .nullable();
export const GenerationFaultSetSchema = z.object({ ok: z.literal(true), fault: GenerationFault });
export const GenerationVoicesSchema = z.object({
  data: z.array(
    z.object({
      voice: z.string(),
      pitch_hz: z.number().nullable(),
      rate: z.number().nullable(),
      seconds: z.number(),
      transcript: z
        .object({
          source: z.enum(['provided', 'recognized']),
          text: z.string().nullable(),
          recognised: z.boolean().nullable(),
        })
        .nullable(),
    }),
  ),
});
export const GenerationsSchema = z.object({
  render_cells: z.number().int(),
  allow_remote_media: z.boolean(),
  cells_in_use: z.record(z.string(), z.number().int()),
  fault: GenerationFault,
});
export const OrgPlanSetSchema = z.object({ org_id: z.string(), plan: z.string() });
export const RecordingListSchema = z.object({
  session_id: z.string(),
  expires_at: unix.nullable(),
  data: z.array(
    z.object({
      name: z.string(),
      content_type: z.string(),
      bytes: z.number().int(),
      url: z.string(),
    }),
  ),
});
